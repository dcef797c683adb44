/* A C entry point to lance-cli's reader: rows of a Lance data file or dataset as an Arrow C stream
 * (c_data.h). Installed (`cmake --install`): `cc prog.c $(pkg-config --cflags --libs lance)` with
 * `#include <lance_c.h>`, linking liblance.so; in this build, link the `lance` target.
 *
 * Usage:
 *   struct ArrowArrayStream stream;
 *   if (lance_scan_stream("t.lance", NULL, 0, -1, 0, &stream) != 0) {
 *     fprintf(stderr, "%s\n", lance_last_error());
 *   }
 *   struct ArrowSchema schema;  stream.get_schema(&stream, &schema);  ...  schema.release(&schema);
 *   struct ArrowArray batch;
 *   while (stream.get_next(&stream, &batch) == 0 && batch.release) { ...; batch.release(&batch); }
 *   stream.release(&stream);
 *
 * Each batch is a struct array (one child per column) sharing the reader's buffers; it stays
 * valid until released, also after the stream is released. Dictionary-encoded Lance columns
 * arrive decoded (as their value type). */
#ifndef LANCE_ARROW_LANCE_C_H
#define LANCE_ARROW_LANCE_C_H

#include <stdint.h>

#include "c_data.h" /* next to this header, in lib/capi/ and in the installed include/lance/ */

#ifdef __cplusplus
extern "C" {
#endif

/* Opens `path` (a Lance data file or dataset directory, latest version) and fills `out` with
 * a stream of its rows
 * [offset, offset + limit) (limit < 0: to the end) in batches of `batch_size` rows
 * (0: 8192). `columns` is a NULL-terminated array of top-level column names, or NULL for
 * all columns. Returns 0 on success, else the error code (1 I/O or internal error, 2 usage,
 * 3 unsupported, 4 corrupt file) with the message in lance_last_error(); `out` is then untouched. */
int lance_scan_stream(const char* path, const char* const* columns, int64_t offset, int64_t limit, int64_t batch_size,
                      struct ArrowArrayStream* out);

/* The message of the last failed lance_* call on this thread ("" if none). */
const char* lance_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* LANCE_ARROW_LANCE_C_H */
