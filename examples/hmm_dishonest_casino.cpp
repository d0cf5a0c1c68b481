// The occasionally dishonest casino (Durbin, Eddy, Krogh and Mitchison, "Biological Sequence
// Analysis", §3.2): a croupier mostly rolls a fair die but sometimes switches to a loaded one that
// shows a six half of the time. From the rolls alone, a hidden Markov model says when the loaded
// die was in play (Viterbi and posterior decoding), and Baum–Welch learns the casino's habits
// from unlabelled sessions. Writes hmm_casino.csv (roll, face, die, viterbi, p_loaded) and the
// picture hmm_casino_states.png (true die and Viterbi path; with its gnuplot script).
// Usage: hmm_dishonest_casino [output.csv]
#include <fmt/format.h>

#include <string>
#include <vector>

#include "models/data/csv.h"
#include "models/plot/gnuplot_writer.h"
#include "models/plot/plots.h"
#include "models/sequence/categorical_hmm.h"

using namespace dagml;

int main(int argc, char** argv) {
  const std::string csv_path = argc > 1 ? argv[1] : "hmm_casino.csv";
  // State 0: the fair die, state 1: the loaded one. Faces 1..6 are symbols 0..5.
  // Π(k, j) = p(next die k | current die j): the croupier switches to the loaded die 5% of the
  // time and back 10% of the time; z_0 (before the first roll) is the fair die.
  Tensor emission(2, 6);
  emission.row(0).setConstant(1.0 / 6);
  emission.row(1) << 0.1, 0.1, 0.1, 0.1, 0.1, 0.5;
  CategoricalHmm casino({.num_states = 2, .num_symbols = 6, .initial_start = Vector{{1.0, 0.0}},
                         .initial_transition = Tensor{{0.95, 0.1}, {0.05, 0.9}}, .initial_emission = emission,
                         .max_iterations = 0});
  casino.fit(Tensor::Zero(1, 1));  // no iteration: the model keeps the given parameters

  const HmmSample night = casino.sample(300, 1);
  const Vector viterbi = casino.predict(night.X);
  const Tensor posterior = casino.predict_proba(night.X);
  Index viterbi_right = 0, posterior_right = 0;
  for (Index n = 0; n < 300; ++n) {
    viterbi_right += viterbi(n) == night.states(n);
    posterior_right += (posterior(n, 1) > 0.5) == (night.states(n) == 1);
  }
  fmt::print("300 rolls, {} of them with the loaded die\n", static_cast<Index>(night.states.sum()));
  fmt::print("  Viterbi path (most probable sequence of dice): right on {:.1f}% of the rolls\n",
             100.0 * static_cast<double>(viterbi_right) / 300);
  fmt::print("  posterior decoding (p(loaded | all rolls) > 0.5): right on {:.1f}% of the rolls\n",
             100.0 * static_cast<double>(posterior_right) / 300);
  fmt::print("  log p(rolls) = {:.2f} under the casino's model\n", casino.score(night.X));
  std::string faces, dice, decoded;
  for (Index n = 0; n < 60; ++n) {
    faces += fmt::format("{}", static_cast<int>(night.X(n, 0)) + 1);
    dice += night.states(n) == 1 ? 'L' : 'F';
    decoded += viterbi(n) == 1 ? 'L' : 'F';
  }
  fmt::print("  rolls    {}\n  die      {}\n  Viterbi  {}\n", faces, dice, decoded);

  // Baum–Welch from 20 unlabelled sessions of 300 rolls, from a random start.
  const Index sessions = 20, rolls = 300;
  Tensor X(sessions * rolls, 1);
  for (Index s = 0; s < sessions; ++s)
    X.middleRows(s * rolls, rolls) = casino.sample(rolls, static_cast<std::uint64_t>(100 + s)).X;
  CategoricalHmm learned({.num_states = 2, .max_iterations = 500, .tolerance = 1e-8, .seed = 3});
  learned.fit(X, std::vector<Index>(sessions, rolls));
  const Index loaded = learned.emission_probabilities()(1, 5) > learned.emission_probabilities()(0, 5) ? 1 : 0;
  const Index fair = 1 - loaded;
  fmt::print("Baum–Welch on {} sessions: {} ({} iterations, {} likelihood decreases)\n", sessions,
             learned.fit_result().message, learned.num_iter(), learned.likelihood_decreases());
  fmt::print("                     learned   true\n");
  fmt::print("  p(fair → loaded)   {:.3f}     0.050\n", learned.transition()(loaded, fair));
  fmt::print("  p(loaded → fair)   {:.3f}     0.100\n", learned.transition()(fair, loaded));
  fmt::print("  p(six | loaded)    {:.3f}     0.500\n", learned.emission_probabilities()(loaded, 5));
  fmt::print("  p(six | fair)      {:.3f}     0.167\n", learned.emission_probabilities()(fair, 5));

  Tensor out(300, 5);
  for (Index n = 0; n < 300; ++n)
    out.row(n) << static_cast<Scalar>(n + 1), night.X(n, 0) + 1, night.states(n), viterbi(n), posterior(n, 1);
  write_csv(csv_path, out, {"roll", "face", "die", "viterbi", "p_loaded"});
  fmt::print("wrote {} (300 rows: roll, face, true die, Viterbi die, p(loaded))\n", csv_path);
  plot::Figure paths = plot::state_paths({{"die in play", {night.states.begin(), night.states.end()}},
                                          {"Viterbi path", {viterbi.begin(), viterbi.end()}}},
                                         {"fair", "loaded"});
  paths.title = "The dishonest casino: which die was in play";
  paths.x.label = "roll";
  fmt::print("{}\n", plot::write_plot(paths, "hmm_casino_states", {.width = 1000, .height = 400}).message);
  return 0;
}
