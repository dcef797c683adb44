// A bound filter expression (expr/bind.h) as text, for messages and `--stats`: the SQL it
// stands for, with literals as converted (`d > date '2021-03-04'`, `name = 'O''Brien'`).
#pragma once

#include <string>

#include "expr/bind.h"

namespace lance::expr {

std::string to_text(const Bound& node);

}  // namespace lance::expr
