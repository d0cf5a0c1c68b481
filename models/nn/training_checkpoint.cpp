#include "models/nn/training_checkpoint.h"

#include <ostream>

#include "models/io/model_file.h"

namespace dagml::nn {

void save_checkpoint(const TrainingCheckpoint& checkpoint, const std::string& path) {
  save_model(checkpoint, path);
}

TrainingCheckpoint load_checkpoint(const std::string& path) {
  const ModelFile file = ModelFile::read(path);
  file.expect(TrainingCheckpoint::kTypeName, TrainingCheckpoint::kModelVersion);
  ModelInputArchive archive = file.payload();
  TrainingCheckpoint checkpoint;
  archive(checkpoint);
  if (archive.remaining() != 0) archive.fail(fmt::format("{} bytes left over after the checkpoint", archive.remaining()));
  return checkpoint;
}

void check_resumable(const TrainingCheckpoint& saved, const TrainingCheckpoint& now, Index epochs,
                     const std::string& path) {
  const auto same = [&](const char* what, const auto& in_file, const auto& in_fit) {
    if (in_file != in_fit)
      throw ValueError(fmt::format("Trainer: cannot resume from {}: it was written with {} = {}, this fit has {}", path,
                                   what, in_file, in_fit));
  };
  same("rows of X", saved.rows, now.rows);
  same("columns of X", saved.x_cols, now.x_cols);
  same("columns of Y", saved.y_cols, now.y_cols);
  same("batch size", saved.batch_size, now.batch_size);
  same("chunks", saved.chunks, now.chunks);
  same("update_block", saved.update_block, now.update_block);
  same("shuffle", saved.shuffle, now.shuffle);
  same("drop_last", saved.drop_last, now.drop_last);
  same("seed", saved.seed, now.seed);
  same("update rule", saved.rule, now.rule);
  if (saved.epochs_done >= epochs)
    throw ValueError(fmt::format("Trainer: cannot resume from {}: it already holds {} epochs and this fit's budget is {}",
                                 path, saved.epochs_done, epochs));
}

void restore_buffers(const TrainingCheckpoint& saved, const std::vector<Parameter*>& buffers, const std::string& path) {
  if (buffers.size() != saved.buffers.size())
    throw ValueError(fmt::format("Trainer: cannot resume from {}: it holds {} running statistics, the model has {}", path,
                                 saved.buffers.size(), buffers.size()));
  for (std::size_t k = 0; k < buffers.size(); ++k) {
    const Tensor& value = saved.buffers[k];
    if (buffers[k]->value.rows() != value.rows() || buffers[k]->value.cols() != value.cols())
      throw ValueError(fmt::format("Trainer: cannot resume from {}: running statistic {} is {}×{} there, {}×{} in the model",
                                   path, k, value.rows(), value.cols(), buffers[k]->value.rows(), buffers[k]->value.cols()));
    buffers[k]->value = value;
  }
}

}  // namespace dagml::nn
