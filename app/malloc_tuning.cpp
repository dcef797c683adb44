#include "app/malloc_tuning.h"

#include <malloc.h>

#include <cstdlib>
#include <cstring>

namespace lance::app {

void tune_malloc() {
  const char* setting = std::getenv("LANCE_CLI_MALLOC_TUNING");
  if (setting && std::strcmp(setting, "0") == 0) return;
  ::mallopt(M_MMAP_MAX, 0);
  ::mallopt(M_TOP_PAD, 64 * 1024 * 1024);
  ::mallopt(M_TRIM_THRESHOLD, 1024 * 1024 * 1024);
}

}  // namespace lance::app
