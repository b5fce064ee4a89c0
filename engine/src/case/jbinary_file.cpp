// JBinaryData reading; the layout is described in case/jbinary_file.h.
#include "case/jbinary_file.h"

#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "platform/input_file.h"
#include "sph/plugin/errors.h"

namespace sph::jbd {
namespace {

constexpr uint64_t kHeadBytes = 64;
constexpr const char* kMagic = "#FileJBD ";
// Names, formats and text values are short; a longer string means a corrupt file, not a case
// whose strings are megabytes long.
constexpr uint32_t kMaxText = 1u << 20;
// Items nest two or three deep in GenCase's and DualSPHysics' files.
constexpr int kMaxDepth = 64;

}  // namespace

uint32_t typeSize(DataType type) {
  switch (type) {
    case DataType::Bool: return 4;
    case DataType::Char:
    case DataType::UChar: return 1;
    case DataType::Short:
    case DataType::UShort: return 2;
    case DataType::Int:
    case DataType::UInt:
    case DataType::Float: return 4;
    case DataType::LLong:
    case DataType::ULLong:
    case DataType::Double: return 8;
    case DataType::Int3:
    case DataType::UInt3:
    case DataType::Float3: return 12;
    case DataType::Double3: return 24;
    default: return 0;
  }
}

const char* typeName(DataType type) {
  switch (type) {
    case DataType::Text: return "text";
    case DataType::Bool: return "bool";
    case DataType::Char: return "char";
    case DataType::UChar: return "uchar";
    case DataType::Short: return "short";
    case DataType::UShort: return "ushort";
    case DataType::Int: return "int";
    case DataType::UInt: return "uint";
    case DataType::LLong: return "llong";
    case DataType::ULLong: return "ullong";
    case DataType::Float: return "float";
    case DataType::Double: return "double";
    case DataType::Int3: return "int3";
    case DataType::UInt3: return "uint3";
    case DataType::Float3: return "float3";
    case DataType::Double3: return "double3";
    default: return "unknown";
  }
}

const Value* Item::value(const std::string& key) const {
  const auto it = values.find(key);
  return it == values.end() ? nullptr : &it->second;
}

const ArrayInfo* Item::array(const std::string& key) const {
  for (const ArrayInfo& a : arrays)
    if (a.name == key) return &a;
  return nullptr;
}

const Item* Item::find(const std::string& prefix) const {
  std::vector<const Item*> queue{this};
  for (size_t q = 0; q < queue.size(); ++q) {
    if (queue[q]->name.compare(0, prefix.size(), prefix) == 0) return queue[q];
    for (const Item& c : queue[q]->items) queue.push_back(&c);
  }
  return nullptr;
}

// The fewest bytes an item takes: its size, tag, name, two flags, two format texts and three
// counts.
constexpr uint64_t kMinItemBytes = 4 + (4 + 6) + 4 + 4 + 4 + 4 + 4 + 12;

// Walks the item tree from the end of the head, keeping the position in the file.
class TreeParser {
 public:
  explicit TreeParser(File& f) : f_(f), pos_(kHeadBytes) {}

  bool atEnd() const { return pos_ >= f_.size_; }

  void item(Item& it, int depth) {
    if (depth > kMaxDepth) f_.fail(fmt::format("items nested more than {} deep at byte {}", kMaxDepth, pos_));
    u32("the size of an item");
    if (text("an item's tag") != "\nITEM\n") f_.fail(fmt::format("no item at byte {}", pos_));
    it.name = name("an item");
    const std::string where = fmt::format("item {}", it.name);
    u32(where);  // hide
    u32(where);  // hide values
    text(where);  // float format
    text(where);  // double format
    const uint32_t narrays = u32(where), nitems = u32(where), valuesSize = u32(where);
    if (valuesSize > 0) values(it, valuesSize);
    for (uint32_t a = 0; a < narrays; ++a) array(it);
    // Every item takes more than kMinItemBytes of the file: a count the rest of the file cannot
    // hold is corruption, not a reason to allocate billions of items.
    if (uint64_t(nitems) * kMinItemBytes > f_.size_ - std::min<uint64_t>(pos_, f_.size_))
      f_.fail(fmt::format("item {} declares {} items, more than the rest of the file ({} bytes) can hold", it.name,
                          nitems, f_.size_ - std::min<uint64_t>(pos_, f_.size_)));
    it.items.resize(nitems);
    for (Item& child : it.items) item(child, depth + 1);
  }

 private:
  void values(Item& it, uint32_t size) {
    const uint64_t end = pos_ + size;
    const std::string where = fmt::format("the values of item {}", it.name);
    if (text(where).compare(0, 7, "\nVALUES") != 0) f_.fail(fmt::format("no values block at byte {}", pos_));
    const uint32_t count = u32(where);
    for (uint32_t v = 0; v < count; ++v) {
      const std::string name = this->name(fmt::format("a value of item {}", it.name));
      Value val;
      val.type = DataType(u32(where));
      const std::string what = fmt::format("value {} of item {}", name, it.name);
      if (val.type == DataType::Text) {
        val.text = text(what);
      } else {
        const uint32_t bytes = typeSize(val.type);
        if (bytes == 0) f_.fail(fmt::format("{} has the unknown type code {}", what, uint32_t(val.type)));
        unsigned char raw[24];
        f_.readRaw(pos_, raw, bytes, what);
        pos_ += bytes;
        decode(val, raw);
      }
      it.values[name] = std::move(val);
    }
    if (pos_ > end) f_.fail(fmt::format("the values of item {} overrun their declared size ({} bytes)", it.name, size));
    pos_ = end;
  }

  void array(Item& it) {
    const std::string where = fmt::format("an array of item {}", it.name);
    u32(where);
    if (text(where) != "\nARRAY") f_.fail(fmt::format("no array at byte {} in item {}", pos_, it.name));
    ArrayInfo a;
    a.name = name(where);
    const std::string what = fmt::format("array {} of item {}", a.name, it.name);
    u32(what);  // hide
    a.type = DataType(u32(what));
    a.count = u32(what);
    const uint32_t bytes = u32(what);
    const uint32_t width = typeSize(a.type);
    if (width == 0) f_.fail(fmt::format("{} has the unsupported type code {}", what, uint32_t(a.type)));
    // The writer stores the byte count in 32 bits: it wraps for arrays of 4 GiB or more.
    const uint64_t expected = a.count * width;
    if (uint32_t(expected) != bytes)
      f_.fail(fmt::format("{}: {} bytes declared for {} values of {} ({} bytes each)", what, bytes, a.count,
                          typeName(a.type), width));
    a.offset = pos_;
    if (expected > f_.size_ - pos_)
      f_.fail(fmt::format("{}: the file is truncated ({} bytes of data from byte {}, the file has {})", what,
                          expected, pos_, f_.size_));
    pos_ += expected;
    it.arrays.push_back(std::move(a));
  }

  static void decode(Value& v, const unsigned char* raw) {
    auto get = [&](auto sample, int n) {
      using T = decltype(sample);
      for (int c = 0; c < n; ++c) {
        T x;
        std::memcpy(&x, raw + c * sizeof(T), sizeof(T));
        v.number[c] = double(x);
      }
    };
    switch (v.type) {
      case DataType::Bool:
      case DataType::Int: get(int32_t{}, 1); break;
      case DataType::Char: get(int8_t{}, 1); break;
      case DataType::UChar: get(uint8_t{}, 1); break;
      case DataType::Short: get(int16_t{}, 1); break;
      case DataType::UShort: get(uint16_t{}, 1); break;
      case DataType::UInt: get(uint32_t{}, 1); break;
      case DataType::LLong: get(int64_t{}, 1); break;
      case DataType::ULLong: get(uint64_t{}, 1); break;
      case DataType::Float: get(float{}, 1); break;
      case DataType::Double: get(double{}, 1); break;
      case DataType::Int3: get(int32_t{}, 3); break;
      case DataType::UInt3: get(uint32_t{}, 3); break;
      case DataType::Float3: get(float{}, 3); break;
      case DataType::Double3: get(double{}, 3); break;
      default: break;
    }
  }

  uint32_t u32(const std::string& what) {
    uint32_t v;
    f_.readRaw(pos_, &v, 4, what);
    pos_ += 4;
    return v;
  }

  std::string text(const std::string& what) {
    const uint32_t n = u32(what);
    if (n > kMaxText) f_.fail(fmt::format("a string of {} bytes at byte {} ({}): the file is corrupt", n, pos_ - 4, what));
    std::string s(n, '\0');
    f_.readRaw(pos_, s.data(), n, what);
    pos_ += n;
    return s;
  }

  // A name (of an item, a value, an array): GenCase writes printable ASCII. Anything else means
  // the bytes are not GenCase's, and saying so beats quoting the garbled name as if it were one.
  std::string name(const std::string& what) {
    const uint64_t at = pos_;
    std::string s = text(what);
    for (size_t k = 0; k < s.size(); ++k) {
      const unsigned char ch = static_cast<unsigned char>(s[k]);
      if (ch < 0x20 || ch >= 0x7f)
        f_.fail(fmt::format("damaged at byte {}: the name of {} holds byte 0x{:02x} (GenCase writes printable "
                            "names); the file is not as GenCase wrote it",
                            at + 4 + k, what, unsigned(ch)));
    }
    return s;
  }

  File& f_;
  uint64_t pos_;
};

File::File(std::string path, const std::string& what, bool list) : path_(std::move(path)) {
  requireRegularFile(path_, what);
  in_.open(path_, std::ios::binary);
  if (!in_) throw InputError(fmt::format("{}: cannot open the {}", path_, what));
  in_.seekg(0, std::ios::end);
  size_ = uint64_t(in_.tellg());
  char head[kHeadBytes];
  if (size_ < kHeadBytes) fail(fmt::format("{} bytes, shorter than the 64-byte head of a JBinaryData file", size_));
  readRaw(0, head, kHeadBytes, "the head");
  if (std::memcmp(head, kMagic, std::strlen(kMagic)) != 0) fail("not a JBinaryData file (no \"#FileJBD\" head)");
  // The code runs from the magic to the blank padding, which ends in a newline.
  const char* nl = static_cast<const char*>(std::memchr(head, '\n', kHeadBytes));
  if (!nl || nl + 1 >= head + kHeadBytes) fail("the head has no end of line");
  code_.assign(static_cast<const char*>(head) + std::strlen(kMagic), nl);
  while (!code_.empty() && code_.back() == ' ') code_.pop_back();
  if (nl[1] != 0) fail("a big-endian JBinaryData file: only little-endian files are read");
  TreeParser parser(*this);
  parser.item(root_, 0);
  while (list && !parser.atEnd()) {
    appended_.emplace_back();
    parser.item(appended_.back(), 0);
  }
}

void File::readRaw(uint64_t offset, void* dst, uint64_t bytes, const std::string& what) {
  if (offset > size_ || bytes > size_ - offset)
    fail(fmt::format("truncated: {} bytes at byte {} needed for {}, the file has {}", bytes, offset, what, size_));
  in_.clear();
  in_.seekg(std::streamoff(offset));
  in_.read(static_cast<char*>(dst), std::streamsize(bytes));
  if (!in_) fail(fmt::format("read error at byte {} ({})", offset, what));
}

void File::fail(const std::string& what) const { throw InputError(fmt::format("{}: {}", path_, what)); }

template <typename T>
void File::readArray(const ArrayInfo& a, DataType type, std::vector<T>& out) {
  if (a.type != type)
    fail(fmt::format("array {} holds {} values, {} expected", a.name, typeName(a.type), typeName(type)));
  const uint32_t width = typeSize(type);
  if (width % sizeof(T) != 0) fail(fmt::format("array {}: wrong element type requested", a.name));
  out.resize(size_t(a.count * (width / sizeof(T))));
  readRaw(a.offset, out.data(), a.count * width, fmt::format("array {}", a.name));
}

template void File::readArray(const ArrayInfo&, DataType, std::vector<float>&);
template void File::readArray(const ArrayInfo&, DataType, std::vector<double>&);
template void File::readArray(const ArrayInfo&, DataType, std::vector<uint32_t>&);

}  // namespace sph::jbd
