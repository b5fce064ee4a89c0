// The type codes of DualSPHysics' JBinaryData files (JBinaryDataDef::TpData), shared by their
// reader (case/jbinary_file.h) and their writer (output/jbinary_writer.h).
#pragma once

#include <cstdint>

namespace sph::jbd {

enum class DataType : uint32_t {
  Text = 1,
  Bool = 2,
  Char = 3,
  UChar = 4,
  Short = 5,
  UShort = 6,
  Int = 7,
  UInt = 8,
  LLong = 9,
  ULLong = 10,
  Float = 11,
  Double = 12,
  Int3 = 20,
  UInt3 = 21,
  Float3 = 22,
  Double3 = 23,
};

}  // namespace sph::jbd
