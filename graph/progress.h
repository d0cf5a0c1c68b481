// How far the latest running iterative loop is, for a front end that shows progress (the command
// line's progress bar). Loops record (iterations done, iteration budget) as they advance; a
// reader polls latest_progress() from any thread. Every IterationLoop (optim/iteration_loop.h)
// records, so every fitter built on it does: the optimizers, the trainer, k-means, SMO, EM,
// boosting. When several loops run at once (one-vs-rest fits, restarts in parallel) the latest
// record wins: the reading is "iteration t of T of the loop that reported last", not a fraction
// of the whole fit, and a front end must say so.
//
// Recording is two relaxed atomic stores: cheap enough for every iteration of every loop, and it
// never changes a result.
#pragma once

#include "graph/tensor.h"

namespace dagml {

struct Progress {
  Index done = 0;   // iterations completed
  Index total = 0;  // the loop's budget; 0 when nothing has been recorded
};

void record_progress(Index done, Index total);
Progress latest_progress();
// Forgets what was recorded (a front end calls it before the work it watches).
void reset_progress();

}  // namespace dagml
