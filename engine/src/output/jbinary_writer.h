// Writer of DualSPHysics' JBinaryData files, the layout case/jbinary_file.h reads: a 64-byte head
// naming the file's code, then items, each its definition (name, hide flag, the float formats,
// the counts), its values block and its arrays. A list file (JBinaryData's SaveFileListApp, as
// DualSPHysics' .mbi4 mesh data) is the head, a first item, and an item appended per time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/jbinary_types.h"

namespace sph::jbd {

// The AppName this engine writes in its files: "sph <version>".
std::string writerAppName();

// "#FileJBD <code>" padded with blanks to 58 bytes, a newline, the byte order (0: little endian)
// and zeros to 64 bytes.
std::string fileHead(const std::string& code);

class ItemWriter {
 public:
  ItemWriter(std::string name, bool hide) : name_(std::move(name)), hide_(hide) {}

  void text(const std::string& name, const std::string& v);
  void u32(const std::string& name, uint32_t v);
  void i32(const std::string& name, int32_t v);
  void f64(const std::string& name, double v);
  void f32x3(const std::string& name, const float v[3]);
  void f64x3(const std::string& name, const double v[3]);
  // An array of `count` values of `type` (Float, Float3, Double, Double3), `data` their bytes.
  void array(const std::string& name, DataType type, uint32_t count, const void* data);

  // The item's bytes (no child items).
  std::string bytes() const;

 private:
  void head(const std::string& name, DataType type);
  std::string name_;
  bool hide_;
  uint32_t values_ = 0;
  std::string valueBytes_;
  uint32_t arrays_ = 0;
  std::string arrayBytes_;
};

}  // namespace sph::jbd
