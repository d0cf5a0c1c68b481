// The umbrella header for users of dagml. Library code never includes it.
#pragma once

#include "autodiff/derivatives.h"
#include "autodiff/elementwise.h"
#include "autodiff/gradcheck.h"
#include "autodiff/linalg.h"
#include "autodiff/losses.h"
#include "autodiff/norms.h"
#include "autodiff/reduce.h"
#include "autodiff/softmax.h"
#include "autodiff/solvers.h"
#include "autodiff/structure.h"
#include "graph/error.h"
#include "graph/executor.h"
#include "graph/export.h"
#include "graph/graph.h"
#include "graph/tensor.h"
#include "graph/threads.h"
