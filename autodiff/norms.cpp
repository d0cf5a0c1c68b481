#include "autodiff/norms.h"

#include "autodiff/elementwise.h"
#include "autodiff/reduce.h"

namespace dagml {

Var l1_norm(Var x) { return sum(abs(x)); }
Var squared_l2_norm(Var x) { return sum(square(x)); }

}  // namespace dagml
