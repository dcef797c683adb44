/* The Arrow C Data Interface and C Stream Interface: the ABI-stable structs through which
 * Arrow implementations hand each other schemas, arrays and streams of arrays without
 * copying. The layout below is fixed by the Arrow specification ("The Arrow C data
 * interface", "The Arrow C stream interface"); the include guards are the ones the
 * specification asks for, so this header coexists with Arrow C++, nanoarrow, DuckDB, ...
 *
 * Ownership in brief: whoever receives a struct with a non-NULL `release` owns it and must
 * call `release(ptr)` exactly once; a released struct has `release == NULL`. A consumer may
 * move a struct by copying it bitwise and setting the source's `release` to NULL.
 *
 * This header is plain C (usable from C and C++). */
#ifndef LANCE_ARROW_C_DATA_H
#define LANCE_ARROW_C_DATA_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

/* ArrowSchema.flags bits. */
#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

/* A type, with name, flags and metadata: `format` is the type's format string ("i" int32,
 * "u" utf8, "+s" struct, "tsu:UTC" timestamp[us, tz=UTC], ...), `metadata` NULL or an
 * int32 pair count followed by int32-length-prefixed keys and values. */
struct ArrowSchema {
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;
  void (*release)(struct ArrowSchema*);
  void* private_data;
};

/* The buffers of one array (validity first; NULL validity when null_count == 0), its
 * children and dictionary, in Arrow's columnar layout. */
struct ArrowArray {
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;
  void (*release)(struct ArrowArray*);
  void* private_data;
};

#endif /* ARROW_C_DATA_INTERFACE */

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE

/* A stream of struct arrays (one per record batch) sharing one struct schema.
 * get_schema / get_next return 0 or an errno value (then get_last_error describes it);
 * get_next sets out->release = NULL at the end of the stream. */
struct ArrowArrayStream {
  int (*get_schema)(struct ArrowArrayStream*, struct ArrowSchema* out);
  int (*get_next)(struct ArrowArrayStream*, struct ArrowArray* out);
  const char* (*get_last_error)(struct ArrowArrayStream*);
  void (*release)(struct ArrowArrayStream*);
  void* private_data;
};

#endif /* ARROW_C_STREAM_INTERFACE */

#ifdef __cplusplus
}
#endif

#endif /* LANCE_ARROW_C_DATA_H */
