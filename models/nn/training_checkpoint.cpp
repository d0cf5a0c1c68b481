#include "models/nn/training_checkpoint.h"

#include <ostream>

#include "models/io/model_file.h"

namespace dagml::nn {

void save_checkpoint(const TrainingCheckpoint& checkpoint, const std::string& path) {
  save_model(checkpoint, path);
}

TrainingCheckpoint load_checkpoint(const std::string& path) {
  const ModelFile file = ModelFile::read(path);
  file.expect(TrainingCheckpoint::kTypeName, 1);
  ModelInputArchive archive = file.payload();
  TrainingCheckpoint checkpoint;
  archive(checkpoint);
  if (archive.remaining() != 0) archive.fail(fmt::format("{} bytes left over after the checkpoint", archive.remaining()));
  return checkpoint;
}

}  // namespace dagml::nn
