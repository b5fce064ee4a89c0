// Legacy VTK binary POLYDATA writer for particle snapshots (format: "VTK File Formats",
// Kitware, section "Simple Legacy Formats"; binary data there is always big-endian).
#include <algorithm>
#include <bit>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string_view>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "output/output.h"
#include "sph/plugin/errors.h"

namespace sph {
namespace {

template <class T>
void storeBigEndian(unsigned char* dst, T v) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::memcpy(dst, &v, sizeof(T));
  if constexpr (std::endian::native == std::endian::little) std::reverse(dst, dst + sizeof(T));
}

// Streams the file under `path + ".tmp"`; commit() renames it into place. Destroying an
// uncommitted file removes the temporary. Writes come in the file's order.
class TempFile {
 public:
  explicit TempFile(std::string path) : path_(std::move(path)), tmp_(path_ + ".tmp") {
    std::filesystem::path parent = std::filesystem::path(path_).parent_path();
    std::error_code ec;
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    if (ec) throw RunError(fmt::format("cannot write VTK file '{}': cannot create directory '{}': {}",
                                       path_, parent.string(), ec.message()));
    f_ = std::fopen(tmp_.c_str(), "wb");
    if (!f_) fail("cannot create the temporary file");
  }
  ~TempFile() {
    if (!f_) return;
    std::fclose(f_);
    std::remove(tmp_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  void put(uint64_t offset, const void* data, size_t bytes) {
    if (offset != written_)
      throw std::logic_error(fmt::format("VTK file '{}': a write at byte {} after {} written", tmp_, offset, written_));
    if (bytes && std::fwrite(data, 1, bytes, f_) != bytes) fail("write failed");
    written_ += bytes;
  }

  void commit() {
    std::FILE* f = f_;
    f_ = nullptr;
    const bool bad = std::ferror(f) != 0;
    if (std::fclose(f) != 0 || bad) {
      const int err = errno;
      std::remove(tmp_.c_str());
      throw RunError(fmt::format("cannot write VTK file '{}': write failed: {}", tmp_, std::strerror(err)));
    }
    if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
      const int err = errno;
      std::remove(tmp_.c_str());
      throw RunError(fmt::format("cannot write VTK file '{}': rename from '{}' failed: {}", path_, tmp_,
                                 std::strerror(err)));
    }
  }

 private:
  [[noreturn]] void fail(const char* what) {
    const int err = errno;
    throw RunError(fmt::format("cannot write VTK file '{}': {}: {}", tmp_, what, std::strerror(err)));
  }

  std::string path_, tmp_;
  std::FILE* f_ = nullptr;
  uint64_t written_ = 0;
};

// Walks the file of `total` particles section by section, giving `write` the headers (when
// `headers`) and the values of the particles of s, which are those from index `first` on, at
// their offsets; returns the file's size.
class VtkLayout {
 public:
  VtkLayout(uint64_t first, uint64_t total, bool headers, const VtkByteSink& write)
      : first_(first), total_(total), headers_(headers), write_(write) {}

  void text(const std::string& t) {
    if (headers_) write_(at_, t.data(), t.size());
    at_ += t.size();
  }

  // A section of `per` values of type Out a particle, value k of this writer's particles being
  // get(k), big-endian, then the newline that separates binary data from the next keyword.
  template <class Out, class Get>
  void values(uint64_t n, unsigned per, Get get) {
    constexpr size_t kChunk = 16384;
    const uint64_t count = n * per;
    uint64_t at = at_ + first_ * per * sizeof(Out);
    buf_.resize(kChunk * sizeof(Out));
    for (uint64_t start = 0; start < count; start += kChunk) {
      const size_t m = size_t(std::min<uint64_t>(kChunk, count - start));
      for (size_t k = 0; k < m; ++k) storeBigEndian<Out>(buf_.data() + k * sizeof(Out), get(start + k));
      write_(at, buf_.data(), m * sizeof(Out));
      at += m * sizeof(Out);
    }
    at_ += total_ * per * sizeof(Out);
    text("\n");
  }

  uint64_t size() const { return at_; }

 private:
  uint64_t first_, total_;
  bool headers_;
  const VtkByteSink& write_;
  uint64_t at_ = 0;
  std::vector<unsigned char> buf_;
};

void checkSizes(const std::string& path, const ParticleSnapshot& s) {
  const size_t n = s.count();
  const bool ok = s.pos.size() == 3 * n && s.vel.size() == 3 * n && s.press.size() == n &&
                  s.type.size() == n && s.mk.size() == n && s.id.size() == n;
  if (!ok)
    throw std::invalid_argument(fmt::format(
        "writeVtkParticles('{}'): array sizes disagree (rho {}, pos {}, vel {}, press {}, type {}, mk {}, id {})",
        path, n, s.pos.size(), s.vel.size(), s.press.size(), s.type.size(), s.mk.size(), s.id.size()));
  // VERTICES stores 2n int32 values.
  if (n > static_cast<size_t>(INT_MAX / 2))
    throw std::invalid_argument(fmt::format("writeVtkParticles('{}'): {} particles exceed the legacy VTK limit",
                                            path, n));
}

}  // namespace

uint64_t encodeVtkParticles(const ParticleSnapshot& s, uint64_t first, uint64_t total, VtkPositionType posType,
                            bool headers, const VtkByteSink& write) {
  checkSizes("a VTK part", s);
  if (total > static_cast<uint64_t>(INT_MAX / 2))
    throw std::invalid_argument(fmt::format("a VTK part of {} particles exceeds the legacy VTK limit", total));
  if (first + s.count() > total)
    throw std::invalid_argument(
        fmt::format("a VTK part of {} particles has none from {} on", total, first + s.count()));
  const uint64_t n = s.count();
  VtkLayout f(first, total, headers, write);
  f.text(fmt::format("# vtk DataFile Version 3.0\nsph particles time={:.9g}\nBINARY\nDATASET POLYDATA\n", s.time));

  if (posType == VtkPositionType::Double) {
    f.text(fmt::format("POINTS {} double\n", total));
    f.values<double>(n, 3, [&](uint64_t k) { return s.pos[k]; });
  } else {
    f.text(fmt::format("POINTS {} float\n", total));
    f.values<float>(n, 3, [&](uint64_t k) { return static_cast<float>(s.pos[k]); });
  }

  // Each vertex cell: point count (1) then the point index (in the whole file).
  f.text(fmt::format("VERTICES {} {}\n", total, 2 * total));
  f.values<int32_t>(n, 2, [&](uint64_t k) { return static_cast<int32_t>(k % 2 == 0 ? 1 : first + k / 2); });

  f.text(fmt::format("POINT_DATA {}\n", total));
  f.text("VECTORS Vel float\n");
  f.values<float>(n, 3, [&](uint64_t k) { return s.vel[k]; });
  // The scalars go in one FIELD block: legacy readers load every array of a FIELD, whereas of
  // several SCALARS blocks VTK's reader keeps only the first unless told to read them all.
  f.text("FIELD FieldData 5\n");
  f.text(fmt::format("Rhop 1 {} float\n", total));
  f.values<float>(n, 1, [&](uint64_t k) { return s.rho[k]; });
  f.text(fmt::format("Press 1 {} float\n", total));
  f.values<float>(n, 1, [&](uint64_t k) { return s.press[k]; });
  f.text(fmt::format("Type 1 {} unsigned_char\n", total));
  f.values<uint8_t>(n, 1, [&](uint64_t k) { return s.type[k]; });
  f.text(fmt::format("Mk 1 {} int\n", total));
  f.values<int32_t>(n, 1, [&](uint64_t k) { return s.mk[k]; });
  f.text(fmt::format("Idp 1 {} unsigned_int\n", total));
  f.values<uint32_t>(n, 1, [&](uint64_t k) { return s.id[k]; });
  return f.size();
}

void writeVtkParticles(const std::string& path, const ParticleSnapshot& s, VtkPositionType posType) {
  checkSizes(path, s);
  TempFile f(path);
  encodeVtkParticles(s, 0, s.count(), posType, true,
                     [&f](uint64_t offset, const void* data, size_t bytes) { f.put(offset, data, bytes); });
  f.commit();
}

}  // namespace sph
