#include "models/io/table_model.h"

#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>

#include "models/io/archive.h"
#include "models/io/model_file.h"

namespace dagml {

void save_table_model(const TableModel& model, const std::string& path) {
  std::string payload;
  {
    ModelOutputArchive archive(payload);
    archive(model.columns, model.estimator.to_bytes());
  }
  const std::string bytes = frame_model_file(TableModel::kTypeName, 1, payload);
  write_file_atomically(path, [&](std::ostream& out) { out.write(bytes.data(), static_cast<std::streamsize>(bytes.size())); });
}

TableModel load_table_model(const std::string& path) {
  const ModelFile file = ModelFile::read(path);
  if (file.type_name() != TableModel::kTypeName) return TableModel{ColumnEncoder(), load_model(file)};
  file.expect(TableModel::kTypeName, 1);
  ModelInputArchive archive = file.payload();
  ColumnEncoder columns;
  std::string estimator_bytes;
  archive(columns, estimator_bytes);
  if (archive.remaining() != 0) archive.fail(fmt::format("{} bytes left over after the model", archive.remaining()));
  if (!columns.fitted()) archive.fail("table_model: expected fitted columns, found none");
  AnyEstimator estimator = load_model_from_bytes(std::move(estimator_bytes), path + " (its estimator)");
  if (estimator.fitted() && estimator.num_features() != static_cast<Index>(columns.encoded_feature_names().size())) {
    archive.fail(fmt::format("table_model: the columns give {} features, the estimator takes {}",
                             columns.encoded_feature_names().size(), estimator.num_features()));
  }
  return TableModel{std::move(columns), std::move(estimator)};
}

}  // namespace dagml
