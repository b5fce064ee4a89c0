// The checkpoint file of a run, OUT/checkpoint/checkpoint.bin: everything the next step depends
// on, so that `sph run CASE --resume OUT` goes on as if the run had never stopped.
//
// Layout: the magic "SPHCKPT\n", the format version (uint32), then records, each a name
// (uint32 length and bytes), a payload size (uint64) and the payload, in the machine's byte
// order; the header records come first; the last record, "end", holds a hash of every byte
// before it, so that a truncated or damaged file is refused instead of resumed. Payloads are
// the engine's own structs and arrays as bytes: a checkpoint is read back only by an sph with the
// same version and engine headers (CheckpointHeader::engineVersion).
//
// Writing is atomic: a writer fills checkpoint.bin.tmp beside the file, syncs it to the disk
// and renames it over the old checkpoint only when complete (commit()); a writer abandoned, or a
// process killed, before that leaves the previous checkpoint the current one.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "model/case_model.h"
#include "model/sim_parameters.h"
#include "platform/device_array.h"
#include "sph/plugin/neighbour_strategy.h"

namespace sph {

// What a checkpoint must match to be resumed.
struct CheckpointHeader {
  std::string engineVersion;  // checkpointEngineVersion() of the sph that wrote it
  uint64_t caseHash = 0;      // caseFingerprint()
  Precision precision = Precision::Single;
  uint64_t particles = 0;     // the case's particle count at the start
  std::string caseName;
  // What the fingerprint was made of, so that a refusal can say what differs (absent from
  // checkpoints of older sph versions): the parameters as "name=value" lines, the case file's
  // text, and the data files as "hash path" lines (GenCase's particles, motion and acceleration
  // tables).
  std::string parameters, caseText, dataFiles;
};

// sph's version and the tag of its engine headers (the plugin ABI tag, platform/plugin_loader.h).
std::string checkpointEngineVersion();
// A hash of what decides a run's physics and outputs: the case file (and GenCase's particle file
// beside it, and the motion data files), every parameter the run uses with its value except
// TimeMax (a resumed run may go further), and the particle count.
uint64_t caseFingerprint(const CaseDefinition& c, const SimParameters& p);
// The header a checkpoint of this case, with these parameters, in this precision carries.
CheckpointHeader checkpointHeaderFor(const CaseDefinition& c, const SimParameters& p, Precision precision);
// OUT/checkpoint/checkpoint.bin; in a run over several ranks rank r > 0 writes its own,
// OUT/checkpoint/checkpoint.rank<r>.bin.
std::filesystem::path checkpointPath(const std::filesystem::path& out, int rank = 0);

// FNV-1a over 8-byte words with a fold of the high half into the low one, so that a changed byte
// anywhere reaches every bit; the same whatever pieces the bytes come in.
class CheckpointHash {
 public:
  void add(const void* data, size_t n);
  uint64_t value() const;

 private:
  static constexpr uint64_t kPrime = 0x100000001b3ull;
  void word(const unsigned char* w);
  uint64_t h_ = 0xcbf29ce484222325ull;
  unsigned char buf_[8] = {};
  size_t pending_ = 0;
};

class CheckpointWriter {
 public:
  // Starts PATH.tmp (creating its folder); RunError when it cannot.
  CheckpointWriter(std::filesystem::path path, const CheckpointHeader& h);
  // Without commit(): the temporary file is removed and the previous checkpoint stays.
  ~CheckpointWriter();
  CheckpointWriter(const CheckpointWriter&) = delete;
  CheckpointWriter& operator=(const CheckpointWriter&) = delete;

  void put(std::string_view name, const void* data, size_t bytes);
  template <typename U>
  void putValue(std::string_view name, const U& v) {
    static_assert(std::is_trivially_copyable_v<U>);
    put(name, &v, sizeof(U));
  }
  template <typename U>
  void putVector(std::string_view name, const std::vector<U>& v) {
    static_assert(std::is_trivially_copyable_v<U>);
    put(name, v.data(), v.size() * sizeof(U));
  }
  void putString(std::string_view name, std::string_view s) { put(name, s.data(), s.size()); }
  // Elements [0, count) of an engine array, wherever it lives; nothing for an array the run
  // does not allocate.
  template <typename U>
  void putArray(std::string_view name, const DeviceArray<U>& a, size_t count) {
    if (a.size() > 0) putVector(name, a.download(count, "downloading an array for a checkpoint"));
  }

  // Completes the file, syncs it and renames it over the checkpoint; RunError when it cannot.
  void commit();

 private:
  void write(const void* data, size_t bytes);

  std::filesystem::path path_, tmp_;
  std::FILE* file_ = nullptr;
  CheckpointHash hash_;  // of every byte written
};

class CheckpointReader {
 public:
  // Reads and verifies the whole file: InputError naming it when it is missing, not a
  // checkpoint, of another format version, truncated or damaged.
  explicit CheckpointReader(std::filesystem::path path);

  const std::filesystem::path& path() const { return path_; }
  const CheckpointHeader& header() const { return header_; }
  // InputError naming the file and what differs (version, precision, case) from `expected`.
  void requireMatch(const CheckpointHeader& expected) const;

  bool has(std::string_view name) const { return records_.count(std::string(name)) > 0; }
  std::vector<std::string> names() const;
  // The payload of a record; InputError naming the file and the record when it is missing.
  std::string_view bytes(std::string_view name) const;
  std::string string(std::string_view name) const { return std::string(bytes(name)); }
  template <typename U>
  U value(std::string_view name) const {
    static_assert(std::is_trivially_copyable_v<U>);
    U v;
    copyExact(name, &v, sizeof(U));
    return v;
  }
  template <typename U>
  std::vector<U> vector(std::string_view name) const {
    static_assert(std::is_trivially_copyable_v<U>);
    const std::string_view b = bytes(name);
    if (b.size() % sizeof(U) != 0) sizeMismatch(name, b.size(), sizeof(U), true);
    std::vector<U> v(b.size() / sizeof(U));
    copyExact(name, v.data(), b.size());
    return v;
  }
  // Uploads exactly `count` elements into an engine array; nothing when the run does not
  // allocate it.
  template <typename U>
  void getArray(std::string_view name, DeviceArray<U>& a, size_t count) const {
    if (a.size() == 0) return;
    std::vector<U> v(count);
    copyExact(name, v.data(), count * sizeof(U));
    a.upload(v.data(), count, "uploading an array from a checkpoint");
  }

 private:
  void copyExact(std::string_view name, void* dst, size_t bytes) const;
  [[noreturn]] void sizeMismatch(std::string_view name, size_t have, size_t want, bool multiple) const;

  std::filesystem::path path_;
  std::string data_;
  std::map<std::string, std::string_view, std::less<>> records_;
  CheckpointHeader header_;
};

}  // namespace sph
