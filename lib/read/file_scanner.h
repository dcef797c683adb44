// Old name of read/row_reader.h (kept while branches that include it are merged).
#pragma once

#include "read/row_reader.h"
