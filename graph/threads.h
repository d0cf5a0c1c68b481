// Thread settings. All dagml parallelism runs on oneTBB; this caps it for the whole process.
#pragma once

namespace dagml {

// Caps the number of worker threads (n ≥ 1); n = 0 restores the default (all cores).
void set_num_threads(int n);
// The current cap.
int num_threads();

}  // namespace dagml
