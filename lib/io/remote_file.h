// A RandomAccessFile over HTTP Range GETs. Opening it is one speculative suffix-range GET
// of the file's tail (which also yields the size from Content-Range); reads that fall in
// that tail are served from memory, so a Lance file's footer and metadata cost no further
// request when they fit.
#pragma once

#include <memory>
#include <string>

#include "io/file.h"
#include "io/http_client.h"

namespace lance::io {

class RemoteFile final : public RandomAccessFile {
 public:
  /// GETs the last `tail_bytes` of `url`. Throws Error(io) naming `display` when the file
  /// does not exist, access is denied, or the retries are exhausted.
  static std::shared_ptr<RemoteFile> open(std::shared_ptr<const HttpClient> client, std::string url, std::string display,
                                          uint64_t tail_bytes);

  const std::string& path() const override { return display_; }
  uint64_t size() const override { return size_; }
  void read_at(uint64_t offset, uint64_t length, uint8_t* out) const override;

 private:
  RemoteFile() = default;
  std::shared_ptr<const HttpClient> client_;
  std::string url_;
  std::string display_;
  uint64_t size_ = 0;
  uint64_t tail_start_ = 0;  ///< `tail_` holds bytes [tail_start_, size_)
  Bytes tail_;
};

}  // namespace lance::io
