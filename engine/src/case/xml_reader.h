// Typed, checked access to the elements of one XML file, shared by the readers of each part of a
// DualSPHysics case (geometry, motion, floatings, gauges). Every failure throws InputError naming
// the file, the line and the element. Elements whose name starts with '_' are DualSPHysics' way
// of commenting out: skipped() tells the readers to ignore them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <tinyxml2.h>

#include "case/variables.h"
#include "model/case_model.h"

namespace sph {

using tinyxml2::XMLElement;

inline bool skipped(const XMLElement* e) { return e->Name()[0] == '_'; }

// Splits "a | b | c" into lower-case, trimmed tokens (one empty token for an empty text).
std::vector<std::string> splitTokens(std::string_view text);

class XmlReader {
 public:
  explicit XmlReader(std::string path) : path_(std::move(path)) {}
  const std::string& path() const { return path_; }

  [[noreturn]] void fail(const XMLElement* e, std::string_view msg) const;
  // An element not expected inside `parent`: "not supported by this engine" with what it is for
  // when DualSPHysics' format has it there (case/unsupported_elements.h), else "unknown element".
  [[noreturn]] void unknown(const XMLElement* e, const XMLElement* parent) const;
  // Fails with the "not supported" error when `e` is such an element of DualSPHysics' format
  // inside an element named `parent`; returns otherwise.
  void refuseIfUnsupported(const XMLElement* e, std::string_view parent) const;
  // The first child of that name; fails when there is none.
  const XMLElement* child(const XMLElement* e, const char* name) const;
  // The one child of that name that is not skipped, or null; fails when there are two.
  const XMLElement* optionalChild(const XMLElement* e, const char* name) const;
  // Fails on any child element (not skipped) whose name is not in `allowed`.
  void onlyChildren(const XMLElement* e, std::initializer_list<std::string_view> allowed) const;
  const char* attr(const XMLElement* e, const char* name) const;
  double real(const XMLElement* e, const char* name) const;
  double real(const XMLElement* e, const char* name, double fallback) const;
  int integer(const XMLElement* e, const char* name) const;
  bool boolean(const XMLElement* e, const char* name, bool fallback) const;
  Vec3d vec(const XMLElement* e) const;
  // x, y, z attributes, each defaulting to `fallback` when absent.
  Vec3d vec(const XMLElement* e, double fallback) const;
  AutoValue autoValue(const XMLElement* e) const;

  // GenCase's variables: a numeric attribute written "#expression" is evaluated over them
  // (case/variables.h). Without them, such an attribute is an error.
  void useVariables(CaseVariables* vars) { vars_ = vars; }
  CaseVariables* variables() const { return vars_; }

 private:
  std::string path_;
  CaseVariables* vars_ = nullptr;
};

}  // namespace sph
