// GenCase's variables and numeric expressions. A case defines variables with <newvarcte>
// (constants), <newvar> and <setvar> (changeable), each attribute name="expression", and uses them
// in any numeric attribute written as "#expression" (<point x="#Tankpx1+2*Dp" />). GenCase defines
// Dp, H, Rhop0, Gravity_x/y/z, PosMin_x/y/z, PosMax_x/y/z, Data2D, Data2DPosy, MassBound and
// MassFluid itself.
//
// Expressions: numbers, variables, + - * / (GenCase has no power operator: pow()), unary minus,
// parentheses, conditions (< <= > >= == != && || !, true and false: 1 when they hold, else 0,
// with C's precedence), and GenCase's functions: pi(), e(), float, int, floor, ceil, round, min and max (2
// or 3 arguments), abs, fmod, fmodr (the remainder rounded), sqrt, exp, log, log10, pow, sin, cos, tan, asin, acos,
// atan, atan2, sindg, cosdg, tandg (degrees), sinh, cosh, tanh, eval(condition, a, b) (a when condition is not zero),
// wavelength(gravity, depth, period) (linear waves), roundpos(pos, posmin, dp) and roundposx/y/z(pos) (the lattice node
// nearest pos on that axis, as the generator snaps). Names are case-sensitive, as in GenCase.
//
// Text variables (<newvarstrcte>, <newvarstr>, <setvarstr>) hold text, in which "[x]" is replaced
// by the text variable x or by the value of the expression x (printf's %g, as GenCase prints
// numbers), innermost brackets first ("[Value[c]]" is Value31 when c is 31). GenCase defines
// CaseName, the case's name. A text variable is not a number: an expression naming it is an error.
// They place no particle: GenCase prints them and writes them into its output (<exportvar>).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace sph {

class CaseVariables {
 public:
  // Defines or replaces a variable. Throws std::invalid_argument for a bad name, a constant
  // redefined, or (replace == false) a name already taken.
  void define(const std::string& name, double value, bool constant, bool replace = false);
  // Changes a variable made by define(..., constant = false); throws std::invalid_argument when it
  // does not exist or is constant.
  void set(const std::string& name, double value);
  bool has(const std::string& name) const { return vars_.count(name) != 0; }

  // Text variables: as define() and set(), for text (set() and setText() refuse a variable of
  // the other kind).
  void defineText(const std::string& name, std::string value, bool constant);
  void setText(const std::string& name, std::string value);
  // The text of a text variable; throws std::invalid_argument when there is none of that name.
  const std::string& text(const std::string& name) const;
  // `text` with its "[...]" replaced (above); "[]" and brackets left open stay as they are.
  std::string expand(std::string_view text) const;

  // The value of `text`; throws std::invalid_argument saying what is wrong and where.
  double evaluate(std::string_view text) const;

  // <delvar vars="a,b*,c?">: removes the variables each name or pattern (* any text, ? one
  // character) matches, constants too; returns how many. GenCase's own (Dp, ...) stay.
  size_t remove(std::string_view patterns);
  // <varssave> and <varsload>: the variables as they are now, and back to them (the last saved).
  void save() { saved_ = vars_; }
  bool restore();

 private:
  struct Var {
    double value = 0;
    bool constant = false;
    bool isText = false;
    std::string text;
  };
  std::map<std::string, Var> vars_;
  std::optional<std::map<std::string, Var>> saved_;
};

}  // namespace sph
