#include "case/variables.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

namespace sph {
namespace {

// Wavelength of a linear wave of `period` in water of `depth`: the root of
// L = g T^2 / (2 pi) tanh(2 pi d / L), by fixed-point iteration from the deep-water length.
double wavelength(double g, double depth, double period) {
  const double deep = g * period * period / (2 * std::numbers::pi);
  double l = deep;
  for (int i = 0; i < 200; ++i) {
    const double next = deep * std::tanh(2 * std::numbers::pi * depth / l);
    if (std::abs(next - l) <= 1e-14 * l) return next;
    l = 0.5 * (l + next);  // damped: the plain iteration oscillates in shallow water
  }
  return l;
}

class Parser {
 public:
  // lookupFn(ctx, name, found) gives a variable's value.
  Parser(std::string_view text, double (*lookupFn)(const void*, const std::string&, bool&), const void* ctx)
      : s_(text), lookupFn_(lookupFn), ctx_(ctx) {}

  double parse() {
    skip();
    if (pos_ >= s_.size()) fail("the expression is empty");
    const double v = either();
    skip();
    if (pos_ < s_.size()) fail(fmt::format("unexpected '{}' at position {}", s_[pos_], pos_ + 1));
    if (!std::isfinite(v)) fail(fmt::format("the result {} is not a finite number", v));
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw std::invalid_argument(fmt::format("expression \"{}\": {}", s_, why));
  }
  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool accept(char c) {
    skip();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  // GenCase's conditions, as in C: || over && over == and != over < <= > >= over the sums; true is
  // 1, false 0 (a number is true when not zero).
  bool acceptPair(const char* two) {
    skip();
    if (s_.compare(pos_, 2, two) == 0) {
      pos_ += 2;
      return true;
    }
    return false;
  }
  double either() {
    double v = both();
    while (acceptPair("||")) {
      const double w = both();
      v = (v != 0 || w != 0) ? 1 : 0;
    }
    return v;
  }
  double both() {
    double v = equality();
    while (acceptPair("&&")) {
      const double w = equality();
      v = (v != 0 && w != 0) ? 1 : 0;
    }
    return v;
  }
  double equality() {
    double v = relation();
    for (;;) {
      if (acceptPair("==")) v = v == relation() ? 1 : 0;
      else if (acceptPair("!=")) v = v != relation() ? 1 : 0;
      else return v;
    }
  }
  double relation() {
    double v = sum();
    for (;;) {
      if (acceptPair("<=")) v = v <= sum() ? 1 : 0;
      else if (acceptPair(">=")) v = v >= sum() ? 1 : 0;
      else if (!followedBy("<=") && accept('<')) v = v < sum() ? 1 : 0;
      else if (!followedBy(">=") && accept('>')) v = v > sum() ? 1 : 0;
      else return v;
    }
  }
  bool followedBy(const char* two) {
    skip();
    return s_.compare(pos_, 2, two) == 0;
  }

  double sum() {
    double v = product();
    for (;;) {
      if (accept('+')) v += product();
      else if (accept('-')) v -= product();
      else return v;
    }
  }
  double product() {
    double v = unary();
    for (;;) {
      if (accept('*')) {
        v *= unary();
      } else if (accept('/')) {
        const double d = unary();
        if (d == 0) fail("division by zero");
        v /= d;
      } else {
        return v;
      }
    }
  }
  double unary() {
    if (accept('-')) return -unary();
    if (accept('+')) return unary();
    if (!followedBy("!=") && accept('!')) return unary() == 0 ? 1 : 0;
    return primary();
  }
  double primary() {
    skip();
    if (pos_ >= s_.size()) fail("the expression ends too early");
    if (accept('(')) {
      const double v = either();
      if (!accept(')')) fail(fmt::format("a ')' is missing at position {}", pos_ + 1));
      return v;
    }
    const char c = s_[pos_];
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      const size_t start = pos_;
      while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
      const std::string name(s_.substr(start, pos_ - start));
      if (accept('(')) return call(name);
      if (name == "true") return 1;
      if (name == "false") return 0;
      bool found = false;
      const double v = lookupFn_(ctx_, name, found);
      if (!found) fail(fmt::format("the variable '{}' does not exist", name));
      return v;
    }
    fail(fmt::format("unexpected '{}' at position {}", c, pos_ + 1));
  }
  double number() {
    const size_t start = pos_;
    while (pos_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '.')) ++pos_;
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      size_t p = pos_ + 1;
      if (p < s_.size() && (s_[p] == '+' || s_[p] == '-')) ++p;
      if (p < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p]))) {
        pos_ = p;
        while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      }
    }
    const std::string text(s_.substr(start, pos_ - start));
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size()) fail(fmt::format("the number at position {} is invalid", start + 1));
    return v;
  }

  double call(const std::string& f) {
    std::vector<double> a;
    if (!accept(')')) {
      do a.push_back(either());
      while (accept(','));
      if (!accept(')')) fail(fmt::format("a ')' is missing after the arguments of {}()", f));
    }
    const size_t n = a.size();
    auto is = [&](const char* name, size_t args) { return f == name && n == args; };
    constexpr double kDeg = std::numbers::pi / 180;
    if (is("pi", 0)) return std::numbers::pi;
    if (is("e", 0)) return std::numbers::e;
    if (is("float", 1)) return a[0];
    if (is("int", 1)) return std::trunc(a[0]);
    if (is("floor", 1)) return std::floor(a[0]);
    if (is("ceil", 1)) return std::ceil(a[0]);
    if (is("round", 1)) return std::round(a[0]);
    if (f == "min" && (n == 2 || n == 3)) return n == 2 ? std::min(a[0], a[1]) : std::min({a[0], a[1], a[2]});
    if (f == "max" && (n == 2 || n == 3)) return n == 2 ? std::max(a[0], a[1]) : std::max({a[0], a[1], a[2]});
    if (is("abs", 1)) return std::abs(a[0]);
    if (is("fmod", 2) || is("fmodr", 2)) {
      if (a[1] == 0) fail(f + "(): division by zero");
      const double r = std::fmod(a[0], a[1]);
      return f == "fmodr" ? std::round(r) : r;  // fmodr: GenCase rounds the remainder
    }
    if (is("sqrt", 1)) return checked(f, std::sqrt(a[0]));
    if (is("exp", 1)) return checked(f, std::exp(a[0]));
    if (is("log", 1)) return checked(f, std::log(a[0]));
    if (is("log10", 1)) return checked(f, std::log10(a[0]));
    if (is("pow", 2)) return checked(f, std::pow(a[0], a[1]));
    if (is("sin", 1)) return std::sin(a[0]);
    if (is("cos", 1)) return std::cos(a[0]);
    if (is("tan", 1)) return checked(f, std::tan(a[0]));
    if (is("sindg", 1)) return std::sin(a[0] * kDeg);
    if (is("cosdg", 1)) return std::cos(a[0] * kDeg);
    if (is("tandg", 1)) return checked(f, std::tan(a[0] * kDeg));
    if (is("sinh", 1)) return checked(f, std::sinh(a[0]));
    if (is("cosh", 1)) return checked(f, std::cosh(a[0]));
    if (is("tanh", 1)) return std::tanh(a[0]);
    if (is("asin", 1)) return checked(f, std::asin(a[0]));
    if (is("acos", 1)) return checked(f, std::acos(a[0]));
    if (is("atan", 1)) return std::atan(a[0]);
    if (is("atan2", 2)) return std::atan2(a[0], a[1]);
    if (is("eval", 3)) return a[0] != 0 ? a[1] : a[2];
    if (is("wavelength", 3)) {
      if (!(a[0] > 0 && a[1] > 0 && a[2] > 0)) fail("wavelength(gravity, depth, period) needs positive values");
      return wavelength(a[0], a[1], a[2]);
    }
    if (is("roundpos", 3)) return roundPos(a[0], a[1], a[2]);
    if (f.size() == 9 && f.compare(0, 8, "roundpos") == 0 && n == 1 && (f[8] == 'x' || f[8] == 'y' || f[8] == 'z')) {
      const char axis[2] = {f[8], '\0'};
      bool found = false, foundDp = false;
      const double pmin = lookupFn_(ctx_, std::string("PosMin_") + axis, found);
      const double dp = lookupFn_(ctx_, "Dp", foundDp);
      if (!found || !foundDp) fail(f + "() needs the case's pointmin and dp");
      return roundPos(a[0], pmin, dp);
    }
    if (f == "rand" || f == "randint" || f == "randinit")
      fail(fmt::format("{}(): GenCase's random numbers are not reproduced (give the values)", f));
    fail(fmt::format("function {}() with {} argument{} does not exist", f, n, n == 1 ? "" : "s"));
  }

  // The lattice node nearest pos, as the generator snaps (half-way away from zero).
  double roundPos(double pos, double posMin, double dp) {
    if (!(dp > 0)) fail("roundpos(): dp must be positive");
    return posMin + std::round((pos - posMin) / dp) * dp;
  }

  double checked(const std::string& f, double v) {
    if (!std::isfinite(v)) fail(fmt::format("{}() gives {}", f, v));
    return v;
  }

  std::string_view s_;
  size_t pos_ = 0;
  double (*lookupFn_)(const void*, const std::string&, bool&);
  const void* ctx_;
};

bool validName(const std::string& name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_')) return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

}  // namespace

void CaseVariables::define(const std::string& name, double value, bool constant, bool replace) {
  if (!validName(name)) throw std::invalid_argument(fmt::format("the variable name '{}' is invalid", name));
  const auto it = vars_.find(name);
  if (it != vars_.end()) {
    if (it->second.constant) throw std::invalid_argument(fmt::format("the variable '{}' is constant", name));
    if (!replace) throw std::invalid_argument(fmt::format("the variable '{}' already exists", name));
  }
  vars_[name] = {value, constant, false, {}};
}

void CaseVariables::set(const std::string& name, double value) {
  const auto it = vars_.find(name);
  if (it == vars_.end()) throw std::invalid_argument(fmt::format("the variable '{}' does not exist", name));
  if (it->second.constant) throw std::invalid_argument(fmt::format("the variable '{}' is constant", name));
  if (it->second.isText) throw std::invalid_argument(fmt::format("the variable '{}' is not a numeric variable", name));
  it->second.value = value;
}

void CaseVariables::defineText(const std::string& name, std::string value, bool constant) {
  if (!validName(name)) throw std::invalid_argument(fmt::format("the variable name '{}' is invalid", name));
  if (vars_.count(name)) throw std::invalid_argument(fmt::format("the variable '{}' already exists", name));
  vars_[name] = {0, constant, true, std::move(value)};
}

void CaseVariables::setText(const std::string& name, std::string value) {
  const auto it = vars_.find(name);
  if (it == vars_.end()) throw std::invalid_argument(fmt::format("the variable '{}' does not exist", name));
  if (it->second.constant) throw std::invalid_argument(fmt::format("the variable '{}' is constant", name));
  if (!it->second.isText) throw std::invalid_argument(fmt::format("the variable '{}' is not a text variable", name));
  it->second.text = std::move(value);
}

const std::string& CaseVariables::text(const std::string& name) const {
  const auto it = vars_.find(name);
  if (it == vars_.end() || !it->second.isText)
    throw std::invalid_argument(fmt::format("there is no text variable '{}'", name));
  return it->second.text;
}

namespace {

// Thrown by a lookup that found a text variable where a number is wanted; evaluate() names the
// expression.
struct NotNumeric : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

}  // namespace

double CaseVariables::evaluate(std::string_view text) const {
  auto lookup = [](const void* ctx, const std::string& name, bool& found) {
    const auto& vars = static_cast<const CaseVariables*>(ctx)->vars_;
    const auto it = vars.find(name);
    found = it != vars.end();
    if (found && it->second.isText) throw NotNumeric(fmt::format("the variable '{}' is not a numeric variable", name));
    return found ? it->second.value : 0.0;
  };
  try {
    return Parser(text, lookup, this).parse();
  } catch (const NotNumeric& err) {
    throw std::invalid_argument(fmt::format("expression \"{}\": {}", text, err.what()));
  }
}

std::string CaseVariables::expand(std::string_view text) const {
  std::string out;
  std::vector<size_t> open;  // where each '[' not yet closed lies in `out`
  for (const char ch : text) {
    if (ch == '[') {
      open.push_back(out.size());
      out += ch;
    } else if (ch == ']' && !open.empty() && out.size() > open.back() + 1) {
      const size_t at = open.back();
      open.pop_back();
      const std::string inner = out.substr(at + 1);
      const auto it = vars_.find(inner);
      std::string value;
      if (it != vars_.end() && it->second.isText) {
        value = it->second.text;
      } else {
        char number[64];
        std::snprintf(number, sizeof number, "%g", evaluate(inner));
        value = number;
      }
      out.replace(at, std::string::npos, value);
    } else {
      if (ch == ']' && !open.empty()) open.pop_back();  // "[]" stays as it is
      out += ch;
    }
  }
  return out;
}

namespace {

// Whether `name` matches `pattern` (* any text, ? one character).
bool matches(std::string_view pattern, std::string_view name) {
  if (pattern.empty()) return name.empty();
  if (pattern[0] == '*')
    return matches(pattern.substr(1), name) || (!name.empty() && matches(pattern, name.substr(1)));
  if (name.empty()) return false;
  return (pattern[0] == '?' || pattern[0] == name[0]) && matches(pattern.substr(1), name.substr(1));
}

}  // namespace

size_t CaseVariables::remove(std::string_view patterns) {
  static const char* const kOwn[] = {"Dp",       "H",          "Rhop0",     "Gravity_x", "Gravity_y", "Gravity_z",
                                     "PosMin_x", "PosMin_y",   "PosMin_z",  "PosMax_x",  "PosMax_y",  "PosMax_z",
                                     "Data2D",   "Data2DPosy", "MassBound", "MassFluid", "CaseName"};
  size_t removed = 0;
  size_t at = 0;
  while (at <= patterns.size()) {
    const size_t comma = std::min(patterns.find(',', at), patterns.size());
    std::string_view p = patterns.substr(at, comma - at);
    while (!p.empty() && (p.front() == ' ' || p.front() == '\t')) p.remove_prefix(1);
    while (!p.empty() && (p.back() == ' ' || p.back() == '\t')) p.remove_suffix(1);
    for (auto it = vars_.begin(); !p.empty() && it != vars_.end();) {
      bool own = false;
      for (const char* o : kOwn) own = own || it->first == o;
      if (!own && matches(p, it->first)) {
        it = vars_.erase(it);
        ++removed;
      } else {
        ++it;
      }
    }
    at = comma + 1;
  }
  return removed;
}

bool CaseVariables::restore() {
  if (!saved_) return false;
  vars_ = *saved_;
  return true;
}

}  // namespace sph
