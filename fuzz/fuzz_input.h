// Helpers shared by the libFuzzer targets: a cursor over the fuzzer's bytes and a runner
// that treats lance::Error as the expected outcome of hostile input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>

#include <unistd.h>

#include "array/types.h"
#include "common/bytes.h"
#include "common/error.h"

namespace lance::fuzz {

/// A fresh directory `<prefix>-XXXXXX` in /dev/shm when it exists, else the temp dir.
inline std::filesystem::path make_scratch_dir(const char* prefix) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path base = fs::is_directory("/dev/shm", ec) ? fs::path("/dev/shm") : fs::temp_directory_path();
  std::string tmpl = (base / (std::string(prefix) + "-XXXXXX")).string();
  if (!mkdtemp(tmpl.data())) std::abort();
  return tmpl;
}

/// Reads little-endian integers and byte slices off the front of the input; past the end,
/// integers read as 0 and slices are empty (never out of bounds).
class FuzzInput {
 public:
  FuzzInput(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  template <typename T>
  T take() {
    T v{};
    size_t n = std::min(sizeof(T), size_ - pos_);
    std::memcpy(&v, data_ + pos_, n);
    pos_ += n;
    return v;
  }
  ByteView bytes(size_t n) {
    n = std::min(n, size_ - pos_);
    ByteView v(data_ + pos_, n);
    pos_ += n;
    return v;
  }
  ByteView rest() { return bytes(size_ - pos_); }
  size_t remaining() const { return size_ - pos_; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

/// An Arrow type picked by one byte: the leaf types page decoders see.
inline TypePtr pick_type(uint8_t sel) {
  static const TypeId ids[] = {TypeId::int8,       TypeId::int16,   TypeId::int32,        TypeId::int64,
                               TypeId::uint8,      TypeId::uint16,  TypeId::uint32,       TypeId::uint64,
                               TypeId::float32,    TypeId::float64, TypeId::boolean,      TypeId::utf8,
                               TypeId::large_utf8, TypeId::binary,  TypeId::large_binary, TypeId::float16};
  if (sel >= 16 && sel < 20) return make_fixed_size_binary(1 << (sel - 16));
  return make_type(ids[sel % 16]);
}

/// Runs `fn`; a lance::Error is the expected way for hostile input to fail.
template <typename Fn>
void expect_error_or_success(Fn&& fn) {
  try {
    fn();
  } catch (const Error&) {
  }
}

}  // namespace lance::fuzz
