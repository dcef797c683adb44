#include "io/remote/crypto.h"

#include <dlfcn.h>

#include <mutex>

#include "common/error.h"

namespace lance::io {

namespace {

// libcrypto's one-shot HMAC (openssl/hmac.h) and its SHA-256 digest (openssl/evp.h), with
// the C types spelled as opaque pointers: the headers are not needed to call them.
struct CryptoApi {
  const void* (*evp_sha256)();
  unsigned char* (*hmac)(const void* md, const void* key, int key_len, const unsigned char* data, size_t n,
                         unsigned char* out, unsigned int* out_len);
};

const CryptoApi& api() {
  static std::once_flag once;
  static CryptoApi a{};
  static std::string failure;
  std::call_once(once, [] {
    void* lib = nullptr;
    for (const char* name : {"libcrypto.so.3", "libcrypto.so"})
      if ((lib = ::dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
    if (!lib) {
      const char* why = ::dlerror();
      failure = std::string(
                    "signing Azure requests (Shared Key) needs OpenSSL's libcrypto (libcrypto.so.3, Debian "
                    "package libssl3): ") +
                (why ? why : "dlopen failed");
      return;
    }
    a.evp_sha256 = reinterpret_cast<decltype(a.evp_sha256)>(::dlsym(lib, "EVP_sha256"));
    a.hmac = reinterpret_cast<decltype(a.hmac)>(::dlsym(lib, "HMAC"));
    if (!a.evp_sha256 || !a.hmac) failure = "libcrypto lacks EVP_sha256 or HMAC";
  });
  if (!failure.empty()) throw_io("{}", failure);
  return a;
}

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int sextet(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

std::string hmac_sha256(std::string_view key, std::string_view message) {
  const auto& f = api();
  unsigned char out[32];
  unsigned int len = 0;
  if (!f.hmac(f.evp_sha256(), key.data(), static_cast<int>(key.size()),
              reinterpret_cast<const unsigned char*>(message.data()), message.size(), out, &len) ||
      len != sizeof(out))
    throw_io("HMAC-SHA256 failed (libcrypto)");
  return std::string(reinterpret_cast<const char*>(out), len);
}

std::string base64_encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t v = static_cast<uint8_t>(bytes[i]) << 16 | static_cast<uint8_t>(bytes[i + 1]) << 8 |
                       static_cast<uint8_t>(bytes[i + 2]);
    for (int s = 18; s >= 0; s -= 6) out += kAlphabet[(v >> s) & 63];
  }
  if (const size_t rest = bytes.size() - i) {
    uint32_t v = static_cast<uint8_t>(bytes[i]) << 16;
    if (rest == 2) v |= static_cast<uint8_t>(bytes[i + 1]) << 8;
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  std::string out;
  if (text.size() % 4 != 0) return std::nullopt;
  for (size_t i = 0; i < text.size(); i += 4) {
    uint32_t v = 0;
    int pad = 0;
    for (size_t k = 0; k < 4; ++k) {
      const char c = text[i + k];
      const bool last_quad = i + 4 == text.size();
      if (c == '=' && last_quad && k >= 2 && (k == 3 || text[i + 3] == '=')) {
        ++pad;
        v <<= 6;
        continue;
      }
      const int s = sextet(c);
      if (s < 0 || pad) return std::nullopt;
      v = v << 6 | static_cast<uint32_t>(s);
    }
    out += static_cast<char>(v >> 16);
    if (pad < 2) out += static_cast<char>((v >> 8) & 255);
    if (pad < 1) out += static_cast<char>(v & 255);
  }
  return out;
}

}  // namespace lance::io
