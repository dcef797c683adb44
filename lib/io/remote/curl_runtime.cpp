// libcurl, loaded when the first HTTP request is made rather than when the process starts.
//
// libcurl 7.88 on Debian pulls in about 30 shared libraries (TLS, Kerberos, LDAP, IDN, ...).
// Mapping and relocating them cost ~5.7 ms of every process start on the development VM
// (`perf stat` of a hello-world linked with and without -lcurl), about half of what
// `lance-cli --version` costs, while only s3:// and http(s):// paths need them. So lance-cli
// does not link libcurl: this file defines the libcurl entry points lib/io/http_client.cpp
// calls, and each forwards to the real function of libcurl.so.4, opened with dlopen on first
// use. A machine without libcurl still reads local files; a remote path then fails with
// Error(io) naming the library.
//
// The variadic setters take exactly one argument after the option, whose C type follows from
// the option number (curl/curl.h: CURLOPTTYPE_*; curl_share_setopt(3)), so each is read with
// its own type and passed on unchanged.
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
#include <dlfcn.h>

#include <cstdarg>
#include <mutex>
#include <string>

#include "common/error.h"

namespace {

struct CurlApi {
  CURLcode (*global_init)(long);
  CURL* (*easy_init)();
  CURLcode (*easy_setopt)(CURL*, CURLoption, ...);
  CURLcode (*easy_perform)(CURL*);
  void (*easy_reset)(CURL*);
  void (*easy_cleanup)(CURL*);
  CURLcode (*easy_getinfo)(CURL*, CURLINFO, ...);
  const char* (*easy_strerror)(CURLcode);
  CURLSH* (*share_init)();
  CURLSHcode (*share_setopt)(CURLSH*, CURLSHoption, ...);
  curl_slist* (*slist_append)(curl_slist*, const char*);
  void (*slist_free_all)(curl_slist*);
};

template <typename F>
void bind(void* lib, F& fn, const char* name, std::string& missing) {
  fn = reinterpret_cast<F>(::dlsym(lib, name));
  if (!fn) missing += missing.empty() ? name : std::string(", ") + name;
}

/// The loaded library's functions. Throws Error(io) when libcurl.so.4 cannot be opened or
/// lacks one of them (the error is repeated on every later call).
const CurlApi& api() {
  static std::once_flag once;
  static CurlApi a{};
  static std::string failure;
  std::call_once(once, [] {
    void* lib = ::dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char* why = ::dlerror();
      failure = std::string(
                    "reading s3:// and http(s):// paths needs libcurl (libcurl.so.4, Debian package "
                    "libcurl4): ") +
                (why ? why : "dlopen failed");
      return;
    }
    std::string missing;
    bind(lib, a.global_init, "curl_global_init", missing);
    bind(lib, a.easy_init, "curl_easy_init", missing);
    bind(lib, a.easy_setopt, "curl_easy_setopt", missing);
    bind(lib, a.easy_perform, "curl_easy_perform", missing);
    bind(lib, a.easy_reset, "curl_easy_reset", missing);
    bind(lib, a.easy_cleanup, "curl_easy_cleanup", missing);
    bind(lib, a.easy_getinfo, "curl_easy_getinfo", missing);
    bind(lib, a.easy_strerror, "curl_easy_strerror", missing);
    bind(lib, a.share_init, "curl_share_init", missing);
    bind(lib, a.share_setopt, "curl_share_setopt", missing);
    bind(lib, a.slist_append, "curl_slist_append", missing);
    bind(lib, a.slist_free_all, "curl_slist_free_all", missing);
    if (!missing.empty()) failure = "libcurl.so.4 lacks " + missing + " (libcurl 7.88 or newer is needed)";
  });
  if (!failure.empty()) lance::throw_io("{}", failure);
  return a;
}

}  // namespace

// Hidden: were this code ever linked into a shared library, it must not interpose the curl
// symbols of a host process that links libcurl itself.
#pragma GCC visibility push(hidden)
extern "C" {

CURLcode curl_global_init(long flags) { return api().global_init(flags); }
CURL* curl_easy_init() { return api().easy_init(); }
CURLcode curl_easy_perform(CURL* h) { return api().easy_perform(h); }
void curl_easy_reset(CURL* h) { api().easy_reset(h); }
void curl_easy_cleanup(CURL* h) { api().easy_cleanup(h); }
const char* curl_easy_strerror(CURLcode c) { return api().easy_strerror(c); }
CURLSH* curl_share_init() { return api().share_init(); }
curl_slist* curl_slist_append(curl_slist* l, const char* s) { return api().slist_append(l, s); }
void curl_slist_free_all(curl_slist* l) { api().slist_free_all(l); }

CURLcode curl_easy_setopt(CURL* h, CURLoption option, ...) {
  const auto& f = api();
  va_list ap;
  va_start(ap, option);
  CURLcode rc;
  if (option < CURLOPTTYPE_OBJECTPOINT)
    rc = f.easy_setopt(h, option, va_arg(ap, long));
  else if (option < CURLOPTTYPE_FUNCTIONPOINT)
    rc = f.easy_setopt(h, option, va_arg(ap, void*));
  else if (option < CURLOPTTYPE_OFF_T)
    rc = f.easy_setopt(h, option, va_arg(ap, void (*)()));
  else if (option < CURLOPTTYPE_BLOB)
    rc = f.easy_setopt(h, option, va_arg(ap, curl_off_t));
  else
    rc = f.easy_setopt(h, option, va_arg(ap, void*));
  va_end(ap);
  return rc;
}

CURLcode curl_easy_getinfo(CURL* h, CURLINFO info, ...) {  // always a pointer to the result
  const auto& f = api();
  va_list ap;
  va_start(ap, info);
  void* out = va_arg(ap, void*);
  va_end(ap);
  return f.easy_getinfo(h, info, out);
}

CURLSHcode curl_share_setopt(CURLSH* s, CURLSHoption option, ...) {
  const auto& f = api();
  va_list ap;
  va_start(ap, option);
  CURLSHcode rc;
  switch (option) {
    case CURLSHOPT_SHARE:
    case CURLSHOPT_UNSHARE:
      rc = f.share_setopt(s, option, va_arg(ap, int));
      break;
    case CURLSHOPT_LOCKFUNC:
    case CURLSHOPT_UNLOCKFUNC:
      rc = f.share_setopt(s, option, va_arg(ap, void (*)()));
      break;
    default:
      rc = f.share_setopt(s, option, va_arg(ap, void*));
      break;
  }
  va_end(ap);
  return rc;
}

}  // extern "C"
#pragma GCC visibility pop
