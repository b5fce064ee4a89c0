#include "output/jbinary_writer.h"

#include <cstring>

namespace sph::jbd {
namespace {

void put32(std::string& out, uint32_t v) {
  char b[4];
  std::memcpy(b, &v, 4);  // little endian, as every machine this engine builds for
  out.append(b, 4);
}

void putText(std::string& out, const std::string& s) {
  put32(out, uint32_t(s.size()));
  out += s;
}

template <typename T>
void putRaw(std::string& out, const T* v, size_t n) {
  out.append(reinterpret_cast<const char*>(v), n * sizeof(T));
}

uint32_t width(DataType t) {
  switch (t) {
    case DataType::Float: return 4;
    case DataType::Double: return 8;
    case DataType::Float3: return 12;
    case DataType::Double3: return 24;
    default: return 0;
  }
}

}  // namespace

std::string writerAppName() { return std::string("sph ") + SPH_VERSION; }

std::string fileHead(const std::string& code) {
  std::string h = "#FileJBD " + code;
  h.resize(58, ' ');
  h += '\n';
  h.resize(64, '\0');
  return h;
}

void ItemWriter::head(const std::string& name, DataType type) {
  putText(valueBytes_, name);
  put32(valueBytes_, uint32_t(type));
  ++values_;
}

void ItemWriter::text(const std::string& name, const std::string& v) {
  head(name, DataType::Text);
  putText(valueBytes_, v);
}

void ItemWriter::u32(const std::string& name, uint32_t v) {
  head(name, DataType::UInt);
  put32(valueBytes_, v);
}

void ItemWriter::i32(const std::string& name, int32_t v) {
  head(name, DataType::Int);
  putRaw(valueBytes_, &v, 1);
}

void ItemWriter::f64(const std::string& name, double v) {
  head(name, DataType::Double);
  putRaw(valueBytes_, &v, 1);
}

void ItemWriter::f32x3(const std::string& name, const float v[3]) {
  head(name, DataType::Float3);
  putRaw(valueBytes_, v, 3);
}

void ItemWriter::f64x3(const std::string& name, const double v[3]) {
  head(name, DataType::Double3);
  putRaw(valueBytes_, v, 3);
}

void ItemWriter::array(const std::string& name, DataType type, uint32_t count, const void* data) {
  std::string def;
  putText(def, "\nARRAY");
  putText(def, name);
  put32(def, 0);  // not hidden
  put32(def, uint32_t(type));
  put32(def, count);
  const uint32_t bytes = count * width(type);
  put32(def, bytes);
  put32(arrayBytes_, uint32_t(def.size()));
  arrayBytes_ += def;
  arrayBytes_.append(static_cast<const char*>(data), bytes);
  ++arrays_;
}

std::string ItemWriter::bytes() const {
  std::string values;
  if (values_ > 0) {
    putText(values, "\nVALUES");
    put32(values, values_);
    values += valueBytes_;
  }
  std::string def;
  putText(def, "\nITEM\n");
  putText(def, name_);
  put32(def, hide_ ? 1 : 0);
  put32(def, 0);  // values not hidden
  putText(def, "%.7E");
  putText(def, "%.15E");
  put32(def, arrays_);
  put32(def, 0);  // no child items
  put32(def, uint32_t(values.size()));
  std::string out;
  put32(out, uint32_t(def.size()));
  return out + def + values + arrayBytes_;
}

}  // namespace sph::jbd
