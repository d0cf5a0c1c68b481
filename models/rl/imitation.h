// Imitation learning (notes 002 §5.1): behaviour cloning, and DAgger for its compounding errors.
//
// Behaviour cloning fits the policy network by softmax cross-entropy on the expert's
// (observation, action) pairs pooled over episodes: supervised learning, with the trainer of
// models/nn/. Its weakness, which notes 002 discusses: the clone's small mistakes take it to
// states the expert never visited, where it was never taught, and the errors compound along the
// episode.
//
// DAgger (Ross, Gordon and Bagnell, "A Reduction of Imitation Learning and Structured Prediction
// to No-Regret Online Learning", 2011) fixes it by asking the expert about the states the clone
// visits:
//   D ← the expert's own episodes;  π_0 ← behaviour cloning on D
//   for i = 1..iterations:  roll out π_{i−1} (greedy);  D ← D ∪ {(s, expert(s)) : s visited};
//                           π_i ← behaviour cloning on D (continuing from π_{i−1}'s weights)
// The expert is any callable from an observation to an action.
#pragma once

#include <cstdint>
#include <vector>

#include "models/nn/sequential.h"
#include "models/nn/trainer.h"
#include "models/rl/rollout.h"
#include "optim/result.h"

namespace dagml::rl {

struct BehaviourCloningOptions {
  nn::TrainerOptions training = {.epochs = 20, .batch_size = 64, .chunks = 1};
  Scalar learning_rate = 1e-2;  // Adam's step, > 0
};

// Fits `policy` (observations → action logits) in place on the pairs; returns the trainer's
// Result. ValueError for empty pairs or a learning rate ≤ 0; ShapeError when the counts differ.
Result behaviour_cloning(nn::Sequential& policy, const StateActionPairs& pairs, const BehaviourCloningOptions& options = {});

struct DaggerOptions {
  Index iterations = 5;               // ≥ 0 rounds after the initial clone
  Index episodes_per_iteration = 10;  // ≥ 1, for the expert's data and each round's rollouts
  BehaviourCloningOptions cloning = {};
  std::uint64_t seed = 0;
};

// What the policy of each round did: round 0 is plain behaviour cloning.
struct DaggerRound {
  Scalar mean_return = 0;   // of π_i's greedy rollouts
  Index dataset_size = 0;   // |D| π_i was trained on
};

// Runs DAgger, training `policy` in place; returns rounds 0..iterations, each evaluated by
// episodes_per_iteration greedy episodes (which the next round then labels).
std::vector<DaggerRound> dagger(const Environment& env, const ActionFunction& expert, nn::Sequential& policy,
                                const DaggerOptions& options = {});

}  // namespace dagml::rl
