#include "read/read_stats.h"

namespace lance::read {

ReadStats& ReadStats::global() {
  static ReadStats stats;
  return stats;
}

}  // namespace lance::read
