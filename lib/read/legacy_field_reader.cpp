#include "read/field_reader.h"

namespace lance::read {

std::unique_ptr<FieldReader> make_legacy_field_reader(std::shared_ptr<format::FileReader> file, size_t) {
  throw Error(ErrorKind::unsupported, fmt::format("{}: format 2.0 files are not supported yet", file->path()));
}

}  // namespace lance::read
