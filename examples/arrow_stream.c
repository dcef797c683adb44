/* Reads a Lance data file or dataset through lance-cli's library as an Arrow C stream and
 * prints the schema, the number of rows of every batch and the first value of each column.
 *
 *   arrow_stream PATH [COLUMN...]
 *
 * Plain C: it only uses the Arrow C Data / C Stream Interface structs (lib/capi/c_data.h)
 * and one entry point (lib/capi/lance_c.h). Any Arrow consumer (Arrow C++'s
 * ImportRecordBatchReader, nanoarrow, DuckDB, Polars, pyarrow) takes the same stream.
 * Against an installed copy (`cmake --install`): cc arrow_stream.c $(pkg-config --cflags --libs lance) */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lance_c.h"

/* Prints value `i` of a column for a few common formats; "null", or the format otherwise. */
static void print_value(const struct ArrowSchema* schema, const struct ArrowArray* array, int64_t i) {
  const char* f = schema->format;
  const uint8_t* validity = (const uint8_t*)array->buffers[0];
  const int64_t j = array->offset + i;
  if (strcmp(f, "n") == 0 || (array->null_count > 0 && validity && !((validity[j / 8] >> (j % 8)) & 1))) {
    printf("null");
  } else if (strcmp(f, "l") == 0) {
    printf("%" PRId64, ((const int64_t*)array->buffers[1])[j]);
  } else if (strcmp(f, "i") == 0) {
    printf("%" PRId32, ((const int32_t*)array->buffers[1])[j]);
  } else if (strcmp(f, "g") == 0) {
    printf("%g", ((const double*)array->buffers[1])[j]);
  } else if (strcmp(f, "b") == 0) {
    const uint8_t* bits = (const uint8_t*)array->buffers[1];
    printf("%s", (bits[j / 8] >> (j % 8)) & 1 ? "true" : "false");
  } else if (strcmp(f, "u") == 0) {
    const int32_t* offsets = (const int32_t*)array->buffers[1];
    const char* data = (const char*)array->buffers[2];
    printf("\"%.*s\"", (int)(offsets[j + 1] - offsets[j]), data + offsets[j]);
  } else if (strncmp(f, "tsu:", 4) == 0) {
    printf("%" PRId64 " us%s%s", ((const int64_t*)array->buffers[1])[j], f[4] ? " " : "", f + 4);
  } else {
    printf("(%s)", f);
  }
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s PATH [COLUMN...]\n", argv[0]);
    return 2;
  }
  const char* const* columns = argc > 2 ? (const char* const*)(argv + 2) : NULL; /* argv is NULL-terminated */
  struct ArrowArrayStream stream;
  int rc = lance_scan_stream(argv[1], columns, 0, -1, 1000, &stream);
  if (rc != 0) {
    fprintf(stderr, "error %d: %s\n", rc, lance_last_error());
    return rc;
  }

  struct ArrowSchema schema;
  if ((rc = stream.get_schema(&stream, &schema)) != 0) {
    fprintf(stderr, "get_schema: %s\n", stream.get_last_error(&stream));
    stream.release(&stream);
    return 1;
  }
  printf("columns: %" PRId64 "\n", schema.n_children);
  for (int64_t c = 0; c < schema.n_children; ++c)
    printf("  %s: %s%s\n", schema.children[c]->name, schema.children[c]->format,
           (schema.children[c]->flags & ARROW_FLAG_NULLABLE) ? "" : " not null");

  int64_t total = 0, batches = 0;
  for (;;) {
    struct ArrowArray batch;
    if ((rc = stream.get_next(&stream, &batch)) != 0) {
      fprintf(stderr, "get_next: %s\n", stream.get_last_error(&stream));
      break;
    }
    if (batch.release == NULL) break; /* end of stream */
    if (batches == 0 && batch.length > 0) {
      printf("first row:");
      for (int64_t c = 0; c < batch.n_children; ++c) {
        printf(" %s=", schema.children[c]->name);
        print_value(schema.children[c], batch.children[c], 0);
      }
      printf("\n");
    }
    printf("batch %" PRId64 ": %" PRId64 " rows\n", batches, batch.length);
    total += batch.length;
    ++batches;
    batch.release(&batch);
  }
  printf("rows: %" PRId64 " in %" PRId64 " batches\n", total, batches);
  schema.release(&schema);
  stream.release(&stream);
  return rc == 0 ? 0 : 1;
}
