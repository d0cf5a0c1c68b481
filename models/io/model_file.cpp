#include "models/io/model_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "models/data/file_io.h"

namespace dagml {
namespace {

constexpr std::string_view kMagic = "DAGMLMOD";
constexpr std::string_view kTextFormatMagic = "dagml-model ";  // format 1 (dagml 0.1)
constexpr std::size_t kHeaderSize = 8 + 4 + 8 + 4;

std::uint32_t crc32_of(std::string_view bytes) {
  uLong crc = crc32(0L, Z_NULL, 0);
  // zlib takes uInt lengths: feed large bodies in pieces.
  for (std::size_t pos = 0; pos < bytes.size();) {
    const std::size_t n = std::min<std::size_t>(bytes.size() - pos, 1u << 30);
    crc = crc32(crc, reinterpret_cast<const Bytef*>(bytes.data() + pos), static_cast<uInt>(n));
    pos += n;
  }
  return static_cast<std::uint32_t>(crc);
}

template <class T>
T read_le(std::string_view bytes, std::size_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

[[noreturn]] void fail(const std::string& source, std::size_t byte, const std::string& what) {
  throw ParseError(source, 0, static_cast<long>(byte), what);
}

std::string errno_text() { return std::strerror(errno); }

}  // namespace

const char* dagml_version() { return DAGML_VERSION_STRING; }

void CEREAL_LOAD_FUNCTION_NAME(ModelInputArchive& ar, bool& t) {
  std::uint8_t byte = 0;
  ar.load_bytes(&byte, 1);
  if (byte > 1) ar.fail(fmt::format("expected a bool (0 or 1), found {}", byte));
  t = byte == 1;
}

void ModelInputArchive::load_bytes(void* data, std::size_t size) {
  if (size > remaining()) fail(fmt::format("expected {} more bytes, found {} (the file ends early)", size, remaining()));
  if (size > 0) std::memcpy(data, bytes_.data() + pos_, size);
  pos_ += size;
}

void ModelInputArchive::fail(const std::string& what) const {
  throw ParseError(source_, 0, static_cast<long>(pos_), what);
}

ModelFile::ModelFile(std::string bytes, std::string source) : bytes_(std::move(bytes)), source_(std::move(source)) {
  const std::string_view all(bytes_);
  if (all.starts_with(kTextFormatMagic)) {
    fail(source_, 0,
         fmt::format("a dagml 0.1 text model file (format 1); this dagml {} reads model files of format {} only: "
                     "fit the model again and save it",
                     dagml::dagml_version(), kModelFormatVersion));
  }
  if (all.size() < kMagic.size() || all.substr(0, kMagic.size()) != kMagic) {
    fail(source_, 0, fmt::format("not a dagml model file: expected it to start with \"{}\"", kMagic));
  }
  if (all.size() < kHeaderSize) {
    fail(source_, all.size(), fmt::format("expected a {}-byte header, found {} bytes (truncated file)", kHeaderSize, all.size()));
  }
  format_version_ = read_le<std::uint32_t>(all, 8);
  if (format_version_ != kModelFormatVersion) {
    fail(source_, 8,
         fmt::format("model file format {} {} this dagml {} reads (format {}){}", format_version_,
                     format_version_ > kModelFormatVersion ? "is newer than" : "is not one", dagml::dagml_version(),
                     kModelFormatVersion, format_version_ > kModelFormatVersion ? ": upgrade dagml" : ""));
  }
  const auto body_size = read_le<std::uint64_t>(all, 12);
  const auto stored_crc = read_le<std::uint32_t>(all, 20);
  const std::size_t present = all.size() - kHeaderSize;
  if (body_size != present) {
    fail(source_, all.size(),
         fmt::format("expected a body of {} bytes, found {} ({})", body_size, present,
                     body_size > present ? "truncated file" : "extra bytes at the end"));
  }
  const std::string_view body = all.substr(kHeaderSize);
  if (const std::uint32_t crc = crc32_of(body); crc != stored_crc) {
    fail(source_, kHeaderSize,
         fmt::format("checksum mismatch (stored {:08x}, computed {:08x}): the file is damaged", stored_crc, crc));
  }
  ModelInputArchive archive(body, source_);
  archive(dagml_version_, type_name_, model_version_);
  payload_offset_ = kHeaderSize + archive.position();
}

ModelFile ModelFile::read(const std::string& path) {
  const std::vector<unsigned char> bytes = read_file_bytes(path);  // IoError, LimitError
  return ModelFile(std::string(bytes.begin(), bytes.end()), path);
}

ModelInputArchive ModelFile::payload() const {
  return ModelInputArchive(std::string_view(bytes_).substr(payload_offset_), source_, model_version_);
}

void ModelFile::expect(std::string_view type_name, std::uint32_t max_version) const {
  if (type_name_ != type_name) {
    fail(source_, kHeaderSize, fmt::format("expected a '{}' model, found a '{}' model", type_name, type_name_));
  }
  if (model_version_ > max_version || model_version_ == 0) {
    fail(source_, kHeaderSize,
         fmt::format("'{}' model layout version {} was written by dagml {}; this dagml {} reads versions 1 to {}",
                     type_name_, model_version_, dagml_version_, dagml::dagml_version(), max_version));
  }
}

std::string frame_model_file(std::string_view type_name, std::uint32_t model_version, const std::string& payload) {
  std::string body;
  {
    ModelOutputArchive archive(body);
    archive(std::string(dagml_version()), std::string(type_name), model_version);
  }
  body += payload;
  std::string out;
  out.reserve(kHeaderSize + body.size());
  {
    ModelOutputArchive archive(out);
    archive(cereal::binary_data(kMagic.data(), kMagic.size()));
    archive(kModelFormatVersion, static_cast<std::uint64_t>(body.size()), crc32_of(body));
  }
  out += body;
  return out;
}

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string temp = (folder / fmt::format(".{}.tmp-XXXXXX", target.filename().string())).string();
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) throw IoError(fmt::format("cannot save '{}': cannot create a file in '{}': {}", path, folder.string(), errno_text()));
  ::fchmod(fd, 0644);
  auto abandon = [&](const std::string& why) {
    ::close(fd);
    ::unlink(temp.c_str());
    throw IoError(fmt::format("cannot save '{}': {}; the previous file, if any, is unchanged", path, why));
  };
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) abandon("cannot open a temporary file beside it");
    try {
      write(out);
    } catch (const std::exception& e) {
      abandon(fmt::format("writing failed: {}", e.what()));
    }
    out.flush();
    if (!out) abandon("writing failed (disk full or stream error)");
  }
  if (::fsync(fd) != 0) abandon(fmt::format("fsync failed: {}", errno_text()));
  ::close(fd);
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const std::string why = errno_text();
    ::unlink(temp.c_str());
    throw IoError(fmt::format("cannot save '{}': rename failed: {}; the previous file, if any, is unchanged", path, why));
  }
  // Make the rename itself durable.
  if (const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY); dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

}  // namespace dagml
