#include "output/checkpoint.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "platform/plugin_loader.h"
#include "sph/plugin/errors.h"

namespace sph {
namespace fs = std::filesystem;
namespace {

constexpr char kMagic[8] = {'S', 'P', 'H', 'C', 'K', 'P', 'T', '\n'};
// Raise whenever what a checkpoint holds changes meaning (records added, renamed or reinterpreted).
constexpr uint32_t kFormatVersion = 1;
constexpr const char* kEndRecord = "end";

uint64_t hashOf(std::string_view s) {
  CheckpointHash h;
  h.add(s.data(), s.size());
  return h.value();
}

// The whole file, or "" when it cannot be read (the fingerprint then rests on the rest).
std::string fileBytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f) return {};
  std::string s(size_t(f.tellg()), '\0');
  f.seekg(0);
  f.read(s.data(), std::streamsize(s.size()));
  s.resize(size_t(f.gcount()));
  return s;
}

}  // namespace

void CheckpointHash::add(const void* data, size_t n) {
  const auto* p = static_cast<const unsigned char*>(data);
  while (n > 0 && (pending_ > 0 || n < 8)) {
    buf_[pending_++] = *p++;
    --n;
    if (pending_ == 8) word(buf_);
  }
  for (; n >= 8; n -= 8, p += 8) word(p);
  while (n-- > 0) buf_[pending_++] = *p++;
}

uint64_t CheckpointHash::value() const {
  uint64_t h = h_;
  for (size_t i = 0; i < pending_; ++i) h = (h ^ buf_[i]) * kPrime;
  return (h ^ (h >> 29)) * kPrime;
}

void CheckpointHash::word(const unsigned char* w) {
  uint64_t v;
  std::memcpy(&v, w, 8);
  h_ = (h_ ^ v) * kPrime;
  h_ ^= h_ >> 32;
  pending_ = 0;
}

std::string checkpointEngineVersion() { return fmt::format("{} (engine headers {})", SPH_VERSION, pluginAbiTag()); }

namespace {
// The data files besides the case file that decide the run: GenCase's particles and the motion
// and acceleration data files, in a fixed order.
std::vector<std::string> dataFilesOf(const CaseDefinition& c) {
  std::vector<std::string> files;
  if (!c.particleFile.empty()) files.push_back(c.particleFile);
  for (const std::vector<MotionObject>* list : {&c.motions, &c.motionFrames})
    for (const MotionObject& o : *list)
      for (const Movement& m : o.movements)
        if (m.table) files.push_back(m.table->path);
  for (const AccInput& a : c.accInputs)
    if (!a.file.empty()) files.push_back(a.file);
  return files;
}

std::string parameterLines(const SimParameters& p) {
  std::string lines;
  for (const SimParameters::Provenance& e : p.provenance)
    if (e.name != "TimeMax") lines += fmt::format("{}={}\n", e.name, e.value);
  return lines;
}
}  // namespace

uint64_t caseFingerprint(const CaseDefinition& c, const SimParameters& p) {
  // The motion and acceleration data files decide the run as much as the case file does.
  std::string all = fileBytes(c.path);
  for (const std::string& f : dataFilesOf(c)) all += fileBytes(f);
  for (const SimParameters::Provenance& e : p.provenance)
    if (e.name != "TimeMax") all += fmt::format("\n{}={}", e.name, e.value);
  all += fmt::format("\nparticles={}", c.positions.size());
  return hashOf(all);
}

CheckpointHeader checkpointHeaderFor(const CaseDefinition& c, const SimParameters& p, Precision precision) {
  CheckpointHeader h;
  h.engineVersion = checkpointEngineVersion();
  h.caseHash = caseFingerprint(c, p);
  h.precision = precision;
  h.particles = c.positions.size();
  h.caseName = c.name;
  h.parameters = parameterLines(p);
  h.caseText = fileBytes(c.path);
  for (const std::string& f : dataFilesOf(c)) h.dataFiles += fmt::format("{:016x} {}\n", hashOf(fileBytes(f)), f);
  return h;
}

fs::path checkpointPath(const fs::path& out, int rank) {
  return out / "checkpoint" / (rank == 0 ? std::string("checkpoint.bin") : fmt::format("checkpoint.rank{}.bin", rank));
}

CheckpointWriter::CheckpointWriter(fs::path path, const CheckpointHeader& h) : path_(std::move(path)) {
  tmp_ = path_;
  tmp_ += ".tmp";
  std::error_code ec;
  fs::create_directories(path_.parent_path(), ec);
  if (ec)
    throw RunError(fmt::format("cannot write checkpoint '{}': cannot create its folder: {}", path_.string(),
                               ec.message()));
  file_ = std::fopen(tmp_.c_str(), "wb");
  if (!file_) throw RunError(fmt::format("cannot write checkpoint '{}': {}", tmp_.string(), std::strerror(errno)));
  write(kMagic, sizeof kMagic);
  write(&kFormatVersion, sizeof kFormatVersion);
  putString("header.version", h.engineVersion);
  putValue("header.case_hash", h.caseHash);
  putValue("header.precision", uint8_t(h.precision == Precision::Double ? 8 : 4));
  putValue("header.particles", h.particles);
  putString("header.case", h.caseName);
  putString("header.parameters", h.parameters);
  putString("header.case_text", h.caseText);
  putString("header.data_files", h.dataFiles);
}

CheckpointWriter::~CheckpointWriter() {
  if (!file_) return;
  std::fclose(file_);
  std::remove(tmp_.c_str());
}

void CheckpointWriter::write(const void* data, size_t bytes) {
  if (bytes > 0 && std::fwrite(data, 1, bytes, file_) != bytes)
    throw RunError(fmt::format("cannot write checkpoint '{}': {}", tmp_.string(), std::strerror(errno)));
  hash_.add(data, bytes);
}

void CheckpointWriter::put(std::string_view name, const void* data, size_t bytes) {
  const uint32_t nameSize = uint32_t(name.size());
  const uint64_t size = bytes;
  write(&nameSize, sizeof nameSize);
  write(name.data(), name.size());
  write(&size, sizeof size);
  write(data, bytes);
}

void CheckpointWriter::commit() {
  const uint64_t hash = hash_.value();  // of every byte before the end record
  put(kEndRecord, &hash, sizeof hash);
  const bool flushed = std::fflush(file_) == 0 && ::fsync(fileno(file_)) == 0;
  const int err = errno;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!flushed || !closed) {
    std::remove(tmp_.c_str());
    throw RunError(
        fmt::format("cannot write checkpoint '{}': {}", tmp_.string(), std::strerror(flushed ? errno : err)));
  }
  std::error_code ec;
  fs::rename(tmp_, path_, ec);
  if (ec) {
    std::remove(tmp_.c_str());
    throw RunError(fmt::format("cannot rename '{}' to '{}': {}", tmp_.string(), path_.string(), ec.message()));
  }
  // The rename itself reaches the disk with the folder's entry.
  const int dir = ::open(path_.parent_path().c_str(), O_RDONLY | O_DIRECTORY);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

CheckpointReader::CheckpointReader(fs::path path) : path_(std::move(path)) {
  std::error_code ec;
  if (!fs::is_regular_file(path_, ec))
    throw InputError(fmt::format("{}: no checkpoint to resume from (a run writes one every --checkpoint-every "
                                 "seconds and when a signal stops it)",
                                 path_.string()));
  data_ = fileBytes(path_.string());
  const std::string_view d = data_;
  auto damaged = [&](const std::string& what) {
    return InputError(fmt::format("{}: the checkpoint is truncated or damaged ({}); it cannot be resumed",
                                  path_.string(), what));
  };
  if (d.size() < sizeof kMagic || d.compare(0, sizeof kMagic, std::string_view(kMagic, sizeof kMagic)) != 0)
    throw InputError(fmt::format("{}: not an sph checkpoint", path_.string()));
  uint32_t format = 0;
  if (d.size() < sizeof kMagic + sizeof format) throw damaged("no format version");
  std::memcpy(&format, d.data() + sizeof kMagic, sizeof format);
  if (format != kFormatVersion)
    throw InputError(fmt::format("{}: a checkpoint of format {}, this sph reads format {} (written by another version "
                                 "of sph); run the case again without --resume",
                                 path_.string(), format, kFormatVersion));
  size_t at = sizeof kMagic + sizeof format;
  bool ended = false;
  while (at < d.size()) {
    const size_t start = at;
    uint32_t nameSize = 0;
    uint64_t size = 0;
    if (d.size() - at < sizeof nameSize) throw damaged(fmt::format("a record cut at byte {}", at));
    std::memcpy(&nameSize, d.data() + at, sizeof nameSize);
    at += sizeof nameSize;
    if (d.size() - at < nameSize + sizeof size) throw damaged(fmt::format("a record cut at byte {}", start));
    const std::string name(d.substr(at, nameSize));
    at += nameSize;
    std::memcpy(&size, d.data() + at, sizeof size);
    at += sizeof size;
    if (d.size() - at < size) throw damaged(fmt::format("record '{}' cut at byte {}", name, start));
    const std::string_view payload = d.substr(at, size);
    at += size;
    if (name == kEndRecord) {
      uint64_t stored = 0;
      if (size != sizeof stored || at != d.size()) throw damaged("bytes after the end record");
      std::memcpy(&stored, payload.data(), sizeof stored);
      CheckpointHash h;
      h.add(d.data(), start);
      if (h.value() != stored) throw damaged("its contents do not match their hash");
      ended = true;
      break;
    }
    records_[name] = payload;
  }
  if (!ended) throw damaged("no end record");
  header_.engineVersion = string("header.version");
  header_.caseHash = value<uint64_t>("header.case_hash");
  header_.precision = value<uint8_t>("header.precision") == 8 ? Precision::Double : Precision::Single;
  header_.particles = value<uint64_t>("header.particles");
  header_.caseName = string("header.case");
  if (has("header.parameters")) header_.parameters = string("header.parameters");
  if (has("header.case_text")) header_.caseText = string("header.case_text");
  if (has("header.data_files")) header_.dataFiles = string("header.data_files");
}

namespace {

std::vector<std::string_view> linesOf(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    lines.push_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return lines;
}

// A line of a file for a message: its start, without the indentation.
std::string quoted(std::string_view line) {
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  constexpr size_t kMost = 80;
  return line.size() > kMost ? fmt::format("\"{}...\"", line.substr(0, kMost)) : fmt::format("\"{}\"", line);
}

// "name=value" lines as a map.
std::map<std::string, std::string, std::less<>> keyValues(std::string_view text) {
  std::map<std::string, std::string, std::less<>> m;
  for (const std::string_view line : linesOf(text)) {
    const size_t eq = line.find('=');
    if (eq != std::string_view::npos) m[std::string(line.substr(0, eq))] = std::string(line.substr(eq + 1));
  }
  return m;
}

// What differs between the run a checkpoint was written by (`was`) and this one (`now`), one
// clause each, "; "-separated: the parameters by name, the case file by its first differing line,
// the data files by name. "" when the checkpoint predates these records.
std::string differences(const CheckpointHeader& was, const CheckpointHeader& now) {
  if (was.parameters.empty() && was.caseText.empty()) return {};
  std::vector<std::string> found;
  const auto oldParams = keyValues(was.parameters), newParams = keyValues(now.parameters);
  for (const auto& [name, value] : oldParams) {
    const auto it = newParams.find(name);
    if (it == newParams.end()) found.push_back(fmt::format("parameter {} was {}, this run has none", name, value));
    else if (it->second != value) found.push_back(fmt::format("parameter {} was {}, is now {}", name, value, it->second));
  }
  for (const auto& [name, value] : newParams)
    if (!oldParams.count(name)) found.push_back(fmt::format("parameter {} is new ({})", name, value));
  if (was.caseText != now.caseText) {
    const auto a = linesOf(was.caseText), b = linesOf(now.caseText);
    size_t k = 0;
    while (k < a.size() && k < b.size() && a[k] == b[k]) ++k;
    found.push_back(k < a.size() && k < b.size()
                        ? fmt::format("the case file changed at line {}: was {}, is now {}", k + 1, quoted(a[k]), quoted(b[k]))
                        : fmt::format("the case file changed at line {}: {}", k + 1,
                                      k < a.size() ? "lines were removed there" : "lines were added there"));
  }
  const auto oldFiles = linesOf(was.dataFiles), newFiles = linesOf(now.dataFiles);
  for (const std::string_view line : oldFiles) {
    const std::string_view path = line.substr(std::min<size_t>(17, line.size()));
    bool same = false, named = false;
    for (const std::string_view other : newFiles) {
      named |= other.substr(std::min<size_t>(17, other.size())) == path;
      same |= other == line;
    }
    if (!same) found.push_back(fmt::format("the data file {} {}", path, named ? "changed" : "is no longer used"));
  }
  if (was.particles != now.particles)
    found.push_back(fmt::format("{} particles, this run has {}", was.particles, now.particles));
  std::string text;
  for (const std::string& f : found) text += (text.empty() ? "" : "; ") + f;
  return text;
}

}  // namespace

void CheckpointReader::requireMatch(const CheckpointHeader& e) const {
  const CheckpointHeader& h = header_;
  if (h.engineVersion != e.engineVersion)
    throw InputError(fmt::format("{}: the checkpoint was written by sph {}, this is sph {}; only the same version "
                                 "can resume it (run the case again without --resume)",
                                 path_.string(), h.engineVersion, e.engineVersion));
  if (h.precision != e.precision)
    throw InputError(fmt::format("{}: the checkpoint is of a {} precision run, this run is {} precision; give "
                                 "--precision {}",
                                 path_.string(), precisionName(h.precision), precisionName(e.precision),
                                 precisionName(h.precision)));
  if (h.caseHash != e.caseHash || h.particles != e.particles) {
    std::string what = differences(h, e);
    if (what.empty())
      what = fmt::format("case '{}', {} particles, hash {:016x}; this run: case '{}', {} particles, hash {:016x}",
                         h.caseName, h.particles, h.caseHash, e.caseName, e.particles, e.caseHash);
    throw InputError(fmt::format("{}: the checkpoint is of another case or other parameters ({}); resume with the "
                                 "case file and options the run started with (only --time-max and --steps may grow)",
                                 path_.string(), what));
  }
}

std::vector<std::string> CheckpointReader::names() const {
  std::vector<std::string> n;
  for (const auto& [name, payload] : records_) n.push_back(name);
  return n;
}

std::string_view CheckpointReader::bytes(std::string_view name) const {
  const auto it = records_.find(name);
  if (it == records_.end())
    throw InputError(fmt::format("{}: the checkpoint has no record '{}' (written for another kind of run?)",
                                 path_.string(), name));
  return it->second;
}

void CheckpointReader::copyExact(std::string_view name, void* dst, size_t want) const {
  const std::string_view b = bytes(name);
  if (b.size() != want) sizeMismatch(name, b.size(), want, false);
  if (want > 0) std::memcpy(dst, b.data(), want);
}

void CheckpointReader::sizeMismatch(std::string_view name, size_t have, size_t want, bool multiple) const {
  throw InputError(fmt::format("{}: record '{}' of the checkpoint holds {} bytes, this run expects {}{}",
                               path_.string(), name, have, multiple ? "a multiple of " : "", want));
}

}  // namespace sph
