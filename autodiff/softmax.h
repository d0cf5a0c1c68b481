// Softmax and log-softmax of each row, shifted by the row maximum so that nothing overflows.
#pragma once

#include "graph/op.h"

namespace dagml {

Var softmax(Var x);      // n×k → n×k, rows sum to 1
Var log_softmax(Var x);  // n×k → n×k, x − logsumexp(x) per row

}  // namespace dagml
