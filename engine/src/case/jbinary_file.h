// Reader of DualSPHysics' JBinaryData files: GenCase's CASE.bi4 (the particles of a case) and
// DualSPHysics' Part_NNNN.bi4. The format, as DualSPHysics' JBinaryData class writes it, all
// little endian, strings as a uint32 length and the bytes:
//
//   head   64 bytes: "#FileJBD <code>", blank padding, '\n', a byte-order byte, zeros
//   item   uint32 size of its definition, "\nITEM\n", name, hide (uint32), hide values (uint32),
//          float format ("%.7E"), double format, number of arrays, number of child items, size
//          of the values block (uint32 each), the values block, the arrays, the child items
//   values "\nVALUES" (with padding), uint32 count, then per value: name, type (uint32), data
//          (text: a string; bool: int32; otherwise the type's bytes)
//   array  uint32 size of its definition, "\nARRAY", name, hide (uint32), type, count, bytes
//          (uint32 each), the data
//
// A list file (DualSPHysics' SaveFileListApp: mesh data, .mbi4) holds more items after the first,
// each appended as the run went on; they are read as the root's siblings (appended()).
//
// Only the item tree and the values are read when the file is opened; an array's data stays in
// the file until readArray() asks for it, so a case of hundreds of millions of particles is read
// once, straight into its destination. Every failure throws InputError naming the file and what
// is wrong (truncated where, which array has the wrong type or length).
#pragma once

#include <cstdint>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "model/jbinary_types.h"

namespace sph::jbd {

// Bytes of one value of `type` (0 for text and unknown codes).
uint32_t typeSize(DataType type);
const char* typeName(DataType type);

struct Value {
  DataType type = DataType::Text;
  std::string text;          // Text
  double number[3] = {0, 0, 0};  // every numeric type, converted; 3 components for the *3 types
};

struct ArrayInfo {
  std::string name;
  DataType type = DataType::Text;
  uint64_t count = 0;   // values (a Double3 value is one)
  uint64_t offset = 0;  // of the data in the file
};

struct Item {
  std::string name;
  std::map<std::string, Value> values;
  std::vector<ArrayInfo> arrays;
  std::vector<Item> items;

  const Value* value(const std::string& key) const;
  const ArrayInfo* array(const std::string& key) const;
  // The first item of this subtree (this one included), breadth first, whose name starts with
  // `prefix`; nullptr when none.
  const Item* find(const std::string& prefix) const;
};

class File {
 public:
  // Opens `path` and reads its item tree; `what` names the file's role in messages ("particle
  // file"); `list`: the items appended after the first too.
  explicit File(std::string path, const std::string& what = "particle file", bool list = false);

  const std::string& path() const { return path_; }
  const std::string& code() const { return code_; }  // "JPartDataBi4" for GenCase's output
  const Item& root() const { return root_; }
  const std::vector<Item>& appended() const { return appended_; }

  // Reads an array of `type` (element bytes typeSize(type)) into `out`, which is resized to
  // count * components values of T. T must be the C++ type of one component of `type`.
  template <typename T>
  void readArray(const ArrayInfo& a, DataType type, std::vector<T>& out);

 private:
  void readRaw(uint64_t offset, void* dst, uint64_t bytes, const std::string& what);
  [[noreturn]] void fail(const std::string& what) const;

  std::string path_;
  std::string code_;
  uint64_t size_ = 0;
  std::ifstream in_;
  Item root_;
  std::vector<Item> appended_;

  friend class TreeParser;
};

}  // namespace sph::jbd
