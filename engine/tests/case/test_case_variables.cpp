// GenCase's variables and "#expression" attributes (case/variables.h): the arithmetic, GenCase's
// functions, <newvarcte>/<newvar>/<setvar> in a case, and the errors, which name the file, line
// and element.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "case/loader.h"
#include "case/variables.h"
#include "model/case_model.h"
#include "sph/plugin/errors.h"
#include "test_support.h"

namespace {

using sph::CaseVariables;

CaseVariables withDp() {
  CaseVariables v;
  v.define("Dp", 0.01, true);
  v.define("PosMin_x", -0.1, true);
  v.define("PosMin_y", -0.1, true);
  v.define("PosMin_z", -0.1, true);
  return v;
}

TEST(CaseVariables, Arithmetic) {
  const CaseVariables v = withDp();
  EXPECT_DOUBLE_EQ(v.evaluate("-10*Dp"), -0.1);
  EXPECT_DOUBLE_EQ(v.evaluate("3.22+5*Dp"), 3.27);
  EXPECT_DOUBLE_EQ(v.evaluate("(1 + 2) * 3 - 4 / 2"), 7);
  EXPECT_DOUBLE_EQ(v.evaluate("2*-3"), -6);
  EXPECT_DOUBLE_EQ(v.evaluate("1-2-3"), -4);
  EXPECT_DOUBLE_EQ(v.evaluate("8/2/2"), 2);
  EXPECT_DOUBLE_EQ(v.evaluate("--2"), 2);
  EXPECT_DOUBLE_EQ(v.evaluate("1.5e-2 * 2"), 0.03);
  EXPECT_DOUBLE_EQ(v.evaluate(" Dp / 2 "), 0.005);
}

TEST(CaseVariables, GenCaseFunctions) {
  const CaseVariables v = withDp();
  EXPECT_DOUBLE_EQ(v.evaluate("pi()"), std::numbers::pi);
  EXPECT_DOUBLE_EQ(v.evaluate("sqrt(16) + abs(-1) + min(3, 1, 2) + max(1, 5)"), 11);
  EXPECT_DOUBLE_EQ(v.evaluate("sindg(90) + cosdg(0)"), 2);
  EXPECT_DOUBLE_EQ(v.evaluate("int(-2.7) + floor(-2.7) + ceil(2.1) + round(2.5)"), -2 - 3 + 3 + 3);
  // Values GenCase 5.0 gives (its <uservars>).
  EXPECT_DOUBLE_EQ(v.evaluate("fmod(-7, 3)"), -1);
  EXPECT_DOUBLE_EQ(v.evaluate("fmodr(7.5, 2)"), 2);
  EXPECT_DOUBLE_EQ(v.evaluate("fmodr(-7.5, 2)"), -2);
  EXPECT_DOUBLE_EQ(v.evaluate("fmodr(5.3, 1)"), 0);
  EXPECT_DOUBLE_EQ(v.evaluate("round(-2.5)"), -3);
  EXPECT_DOUBLE_EQ(v.evaluate("eval(1, 4, 5) + eval(0, 4, 5)"), 9);
  EXPECT_DOUBLE_EQ(v.evaluate("pow(2, 10)"), 1024);
  // roundpos: the node nearest, half-way going up, from pointmin -0.1 with dp 0.01.
  EXPECT_NEAR(v.evaluate("roundposx(0.0149)"), 0.01, 1e-15);
  EXPECT_NEAR(v.evaluate("roundposy(0.3333)"), 0.33, 1e-15);
  EXPECT_NEAR(v.evaluate("roundpos(0.3, 0.05, 0.1)"), 0.35, 1e-15);
  // Linear waves: deep water L = g T^2 / (2 pi); shallow water L = T sqrt(g d).
  EXPECT_NEAR(v.evaluate("wavelength(9.81, 100, 2)"), 9.81 * 4 / (2 * std::numbers::pi), 1e-9);
  EXPECT_NEAR(v.evaluate("wavelength(9.81, 0.5, 2)"), 4.05643, 5e-6);  // GenCase's value
  EXPECT_NEAR(v.evaluate("wavelength(9.81, 0.01, 20)"), 20 * std::sqrt(9.81 * 0.01), 0.01);
}

// Conditions (GenCase's <abort if> and eval()): 1 when they hold, else 0, with C's precedence.
TEST(CaseVariables, Conditions) {
  const CaseVariables v = withDp();
  EXPECT_EQ(v.evaluate("Dp < 0.1"), 1);
  EXPECT_EQ(v.evaluate("Dp > 0.1"), 0);
  EXPECT_EQ(v.evaluate("Dp <= 0.01 && Dp >= 0.01"), 1);
  EXPECT_EQ(v.evaluate("Dp != 0.1 == (true || false)"), 1);  // the format reference's example
  EXPECT_EQ(v.evaluate("1 + 1 == 2"), 1);
  EXPECT_EQ(v.evaluate("0 || 0 && 1"), 0);
  EXPECT_EQ(v.evaluate("1 || 0 && 0"), 1);                   // && before ||
  EXPECT_EQ(v.evaluate("!(Dp < 0.1)"), 0);
  EXPECT_EQ(v.evaluate("!0 + 1"), 2);
  EXPECT_EQ(v.evaluate("eval(Dp < 0.1, 4, 5)"), 4);
  EXPECT_THROW(v.evaluate("Dp <"), std::invalid_argument);
  EXPECT_THROW(v.evaluate("Dp = 1"), std::invalid_argument);
}

TEST(CaseVariables, DefineAndSet) {
  CaseVariables v;
  v.define("A", 1, false);
  v.set("A", 2);
  EXPECT_DOUBLE_EQ(v.evaluate("A"), 2);
  v.define("B", 3, true);
  EXPECT_THROW(v.set("B", 4), std::invalid_argument);           // constant
  EXPECT_THROW(v.define("B", 4, true), std::invalid_argument);  // constant
  EXPECT_THROW(v.define("A", 4, false), std::invalid_argument); // exists
  EXPECT_THROW(v.set("C", 1), std::invalid_argument);           // missing
  EXPECT_THROW(v.define("2x", 1, false), std::invalid_argument);
  EXPECT_THROW(v.define("a-b", 1, false), std::invalid_argument);
}

TEST(CaseVariables, ErrorsSayWhatIsWrong) {
  const CaseVariables v = withDp();
  auto message = [&](const char* text) {
    try {
      v.evaluate(text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("Dpx * 2").find("the variable 'Dpx' does not exist"), std::string::npos);
  EXPECT_NE(message("foo(1)").find("function foo() with 1 argument does not exist"), std::string::npos);
  EXPECT_NE(message("1 / (Dp - Dp)").find("division by zero"), std::string::npos);
  EXPECT_NE(message("").find("empty"), std::string::npos);
  EXPECT_NE(message("(1 + 2").find("')' is missing"), std::string::npos);
  EXPECT_NE(message("1 + 2 )").find("unexpected ')'"), std::string::npos);
  EXPECT_NE(message("sqrt(-1)").find("sqrt() gives"), std::string::npos);
  EXPECT_NE(message("rand(1)").find("random numbers"), std::string::npos);
  EXPECT_NE(message("2^2").find("unexpected '^'"), std::string::npos);  // GenCase has no power operator
}

// In a case: <newvarcte> in the commands and "#..." attributes give the same particles as the
// numbers written out.
TEST(CaseVariables, TextVariables) {
  CaseVariables v = withDp();
  v.define("c", 31, false);
  v.define("Value31", 7.25, false);
  v.defineText("Text1", "Hello", true);
  v.defineText("Text2", "bye", false);
  // Text variables and expressions (%g), innermost brackets first; "[]" and open brackets stay.
  EXPECT_EQ(v.expand("[Text1][Text2]_[Dp*100]"), "Hellobye_1");
  EXPECT_EQ(v.expand("[Value[c]] == [c+0.5]"), "7.25 == 31.5");
  EXPECT_EQ(v.expand("[1/3]|[1e-7]|[123456789.5]"), "0.333333|1e-07|1.23457e+08");
  EXPECT_EQ(v.expand("[] a]b [abc"), "[] a]b [abc");
  v.setText("Text2", v.expand("[Text1] again"));
  EXPECT_EQ(v.text("Text2"), "Hello again");
  EXPECT_THROW(v.setText("Text1", "x"), std::invalid_argument);   // constant
  EXPECT_THROW(v.setText("c", "x"), std::invalid_argument);       // numeric
  EXPECT_THROW(v.set("Text2", 1), std::invalid_argument);         // text
  EXPECT_THROW(v.evaluate("Text2 + 1"), std::invalid_argument);   // not a number
  EXPECT_THROW(v.expand("[Value[c+1]]"), std::invalid_argument);  // Value32 does not exist
  EXPECT_THROW(v.defineText("c", "x", false), std::invalid_argument);
  EXPECT_EQ(v.remove("Text*"), 2u);
  EXPECT_FALSE(v.has("Text1"));
}

TEST(CaseVariables, ExpressionsInACase) {
  const std::string def =
      R"(<definition dp="0.1"><pointmin x="#-10*Dp" y="-1" z="#-1" /><pointmax x="2" y="2" z="2" /></definition>)";
  const std::string withVars = R"(<newvarcte Side="1" Half="Side/2" _rem="a remark" />
<newvar Top="Side" />
<setvar Top="Top + Half" />
<setmkfluid mk="0" />
<drawbox><boxfill>solid</boxfill><point x="0" y="0" z="0" /><size x="#Side" y="#Side" z="#Top" /></drawbox>)";
  const std::string literal = R"(<setmkfluid mk="0" />
<drawbox><boxfill>solid</boxfill><point x="0" y="0" z="0" /><size x="1" y="1" z="1.5" /></drawbox>)";
  const auto dir = sph::test::tempDir("case_variables");
  const sph::CaseDefinition a =
      sph::loadCase(sph::test::writeFile(dir / "vars.xml", sph::test::caseXml(def, withVars, "")));
  const sph::CaseDefinition b =
      sph::loadCase(sph::test::writeFile(dir / "literal.xml", sph::test::caseXml(def, literal, "")));
  EXPECT_EQ(a.nFluid, 11u * 11u * 16u);
  EXPECT_EQ(a.nFluid, b.nFluid);
  EXPECT_DOUBLE_EQ(a.pointMin.x, -1);
  // An <abort> whose condition does not hold lets the case load.
  const sph::CaseDefinition c = sph::loadCase(sph::test::writeFile(
      dir / "abort.xml", sph::test::caseXml(def, "<abort if=\"Dp &lt; 0.01\" text=\"too fine\" />\n" + literal, "")));
  EXPECT_EQ(c.nFluid, b.nFluid);

  struct Bad {
    std::string commands, marker, text;
  };
  const Bad bad[] = {
      {"<newvarcte A=\"B + 1\" />\n" + literal, "<newvarcte", "the variable 'B' does not exist"},
      {"<newvarcte A=\"1\" />\n<setvar A=\"2\" />\n" + literal, "<setvar", "the variable 'A' is constant"},
      {"<newvarstrcte Name=\"x\" />\n<setvarstr Name=\"y\" />\n" + literal, "<setvarstr",
       "Name=\"y\": the variable 'Name' is constant"},
      {"<newvarstr Name=\"x\" />\n<newvarstr Name=\"y\" />\n" + literal, "<newvarstr Name=\"y\"",
       "the variable 'Name' already exists"},
      {"<newvarstr Name=\"x\" />\n<newvar N=\"Name + 1\" />\n" + literal, "<newvar N",
       "the variable 'Name' is not a numeric variable"},
      {"<newvarstr Name=\"[Nope]\" />\n" + literal, "<newvarstr", "the variable 'Nope' does not exist"},
      {"<setvarstr Dp=\"x\" />\n" + literal, "<setvarstr", "the variable 'Dp' is constant"},
      {"<newvarcte Small=\"Dp &lt; 0.5\" />\n<abort if=\"Small &amp;&amp; Dp &gt; 0.05\" text=\"dp [Dp] is too "
       "coarse\\n here\" />\n" +
           literal,
       "<abort", "the case stops here (GenCase's <abort>): dp [Dp] is too coarse\n here"},
      {"<abort />\n" + literal, "<abort", "the case stops here (GenCase's <abort>)"},
      {"<abort if=\"Dp &lt;\" />\n" + literal, "<abort", "attribute if: expression \"Dp <\""},
      {literal + "\n<drawbox><point x=\"#Nope\" y=\"0\" z=\"0\" /><size x=\"1\" y=\"1\" z=\"1\" /></drawbox>",
       "<point x=\"#Nope\"", "attribute x=\"#Nope\": expression \"Nope\": the variable 'Nope' does not exist"},
  };
  for (const Bad& t : bad) {
    SCOPED_TRACE(t.marker);
    const std::string xml = sph::test::caseXml(def, t.commands, "");
    const std::string path = sph::test::writeFile(dir / "bad.xml", xml);
    try {
      sph::loadCase(path);
      ADD_FAILURE() << "no error";
    } catch (const sph::InputError& e) {
      const std::string msg = e.what();
      EXPECT_EQ(msg.rfind(path + ":" + std::to_string(sph::test::lineOf(xml, t.marker)) + ":", 0), 0u) << msg;
      EXPECT_NE(msg.find(t.text), std::string::npos) << msg;
    }
  }
}

}  // namespace

// <delvar> with GenCase's patterns, and <varssave>/<varsload>.
TEST(CaseVariables, DeleteSaveAndRestore) {
  CaseVariables v = withDp();
  v.define("Size1", 1, false);
  v.define("Size2", 2, false);
  v.define("SizeAll", 3, true);
  v.define("Text", 4, false);
  v.save();
  EXPECT_EQ(v.remove("Size?"), 2u);
  EXPECT_FALSE(v.has("Size1"));
  EXPECT_TRUE(v.has("SizeAll"));
  EXPECT_EQ(v.remove(" Tex* , SizeAll"), 2u);
  EXPECT_EQ(v.remove("D*"), 0u);  // GenCase's own stay
  EXPECT_TRUE(v.has("Dp"));
  EXPECT_TRUE(v.restore());
  EXPECT_DOUBLE_EQ(v.evaluate("Size1+Size2+SizeAll+Text"), 10);
}

// Variables before <definition> (<predefinition>), used in it and in the commands, and the
// commands' variables used in <execution>: parameters (as GenCase writes them, evaluated) and
// <special> elements.
TEST(CaseVariables, ScopesAcrossTheCase) {
  const std::string xml = R"(<?xml version="1.0" ?>
<case><casedef><constantsdef /><mkconfig boundcount="240" fluidcount="9" /><geometry>
<predefinition><newvarcte Len="0.5" /><newvar Tmp="1" /><delvar vars="Tmp" /></predefinition>
<definition dp="#Len/10"><pointmin x="-1" y="0" z="-1" /><pointmax x="2" y="0" z="2" /></definition>
<commands><mainlist><setdrawmode mode="full" />
<newvar Tmax="0.7" Gx="0.3" /><varssave /><setvar Tmax="9" /><varsload />
<setmkfluid mk="0" /><drawbox><boxfill>solid</boxfill><point x="0" y="-1" z="0" /><size x="#Len" y="2" z="#Len" /></drawbox>
<setmkbound mk="0" /><drawbox><boxfill>bottom</boxfill><point x="0" y="-1" z="0" /><size x="1" y="2" z="1" /></drawbox>
</mainlist></commands></geometry></casedef>
<execution><special><gauges><velocity name="g1"><point x="#Gx" y="0" z="0.1" /></velocity></gauges></special>
<parameters><parameter key="TimeMax" value="#Tmax" /><parameter key="TimeOut" value="#Tmax/7" /></parameters></execution>
</case>
)";
  const sph::CaseDefinition c = sph::loadCase(sph::test::writeFile(sph::test::tempDir("variable_scopes") / "V_Def.xml", xml));
  EXPECT_DOUBLE_EQ(c.dp, 0.05);
  EXPECT_EQ(c.nFluid, 110u);  // GenCase 5.0's count for this case
  EXPECT_EQ(std::stod(c.parameters.at("TimeMax").value), 0.7);
  EXPECT_DOUBLE_EQ(std::stod(c.parameters.at("TimeOut").value), 0.1);
  ASSERT_EQ(c.gauges.items.size(), 1u);
  EXPECT_DOUBLE_EQ(c.gauges.items[0].point.x, 0.3);
  // A variable <delvar> removed is gone.
  std::string bad = xml;
  bad.replace(bad.find("size x=\"#Len\""), 13, "size x=\"#Tmp\"");
  EXPECT_THROW(sph::loadCase(sph::test::writeFile(sph::test::tempDir("variable_scopes") / "Bad_Def.xml", bad)),
               sph::InputError);
}
