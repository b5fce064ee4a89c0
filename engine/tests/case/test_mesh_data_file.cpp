// DualSPHysics' mesh-data files (case/mesh_data_file.h). The fixture is DualSPHysics 5.4's own
// output: the slanted 9 x 4 mesh gauge "Raw" of MeshGauge2D_Def.xml written with
// <outputfmt value="csv,bin">, so the same five times of Vel (float3), Rhop (float) and Zsurf
// (float, one per column) are in MeshGauge2D_Raw.mbi4 and in its three CSV files. The CSV has 8
// significant digits, a float needs 9: the two agree within 1 ulp (1.2e-7 relative).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "case/mesh_data_file.h"
#include "platform/input_file.h"
#include "sph/plugin/errors.h"
#include "test_support.h"

namespace sph {
namespace {

const std::string kData = fmt::format("{}/engine/tests/data/meshdata/", SPH_SOURCE_DIR);

TEST(MeshDataFile, BinaryAndCsvOfOneGaugeAgree) {
  for (const char* var : {"Vel", "Rhop", "Zsurf"}) {
    SCOPED_TRACE(var);
    const MeshData bin = readMeshData(kData + "MeshGauge2D_Raw.mbi4", fmt::format("{}", var));
    const MeshData csv = readMeshData(kData + fmt::format("MeshGauge2D_Raw_{}.csv", var), "ignored");
    EXPECT_EQ(bin.name, var);
    EXPECT_EQ(csv.name, var);
    EXPECT_EQ(bin.components, std::string(var) == "Vel" ? 3u : 1u);
    EXPECT_EQ(csv.components, bin.components);
    EXPECT_EQ(bin.data12, std::string(var) == "Zsurf");
    EXPECT_EQ(csv.data12, bin.data12);
    for (int k = 0; k < 3; ++k) EXPECT_EQ(csv.npt[k], bin.npt[k]);
    EXPECT_EQ(bin.npt[0], 9u);
    EXPECT_EQ(bin.npt[1], 4u);
    EXPECT_NEAR(bin.origin.x, 0.3, 1e-15);
    EXPECT_NEAR(csv.vdp[1].z, bin.vdp[1].z, 1e-12);
    ASSERT_EQ(bin.times.size(), 5u);
    ASSERT_EQ(csv.times.size(), bin.times.size());
    for (size_t k = 0; k < bin.times.size(); ++k) EXPECT_NEAR(csv.times[k], bin.times[k], 1e-12);
    ASSERT_EQ(bin.values.size(), 5 * bin.valuesPerTime());
    ASSERT_EQ(csv.values.size(), bin.values.size());
    for (size_t k = 0; k < bin.values.size(); ++k)
      ASSERT_NEAR(csv.values[k], bin.values[k], 1.2e-7 * std::fabs(bin.values[k]) + 1e-30) << "value " << k;
  }
  // Names are matched as DualSPHysics matches them, whatever the case.
  EXPECT_EQ(readMeshData(kData + "MeshGauge2D_Raw.mbi4", "rhop").name, "Rhop");
}

std::string meshCsv(const std::string& head, const std::string& rows) {
  return "Format;DataName;DataUnits;DataType;Data12;Npt1;Npt2;Npt3;PtRef.x;PtRef.y;PtRef.z;Vec1.x;Vec1.y;Vec1.z;"
         "Vec2.x;Vec2.y;Vec2.z;Vec3.x;Vec3.y;Vec3.z;DirDat.x;DirDat.y;DirDat.z\n" +
         head + "\ntime [s];v0;v1\n" + rows;
}

// Bad files are refused with the file and the line.
TEST(MeshDataFile, BadFilesNameTheFileAndLine) {
  const auto dir = test::tempDir("meshdata_bad");
  const std::string good = "JMeshTDatas-200817;VelDir;m/s;float;false;2;1;1;0;0;0;0.1;0;0;0;0;0;0;0;0;1;0;0";
  const auto refused = [&](const std::string& name, const std::string& text, const std::string& what) {
    const std::string path = test::writeFile(dir / name, text);
    try {
      readMeshData(path, "VelDir");
      ADD_FAILURE() << name << " was read";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  EXPECT_EQ(readMeshData(test::writeFile(dir / "ok.csv", meshCsv(good, "0;1;2\n0.5;3;4\n")), "x").times.size(), 2u);
  refused("version.csv",
          meshCsv("JMeshTDatas-100;VelDir;m/s;float;false;2;1;1;0;0;0;0.1;0;0;0;0;0;0;0;0;1;0;0", "0;1;2\n"),
          ":2: format");
  refused("type.csv",
          meshCsv("JMeshTDatas-200817;VelDir;m/s;int;false;2;1;1;0;0;0;0.1;0;0;0;0;0;0;0;0;1;0;0", "0;1;2\n"),
          ":2: data type");
  refused("count.csv", meshCsv(good, "0;1;2\n0.5;3\n"), ":5: 2 values");
  refused("number.csv", meshCsv(good, "0;1;x2\n"), ":4: value 3");
  refused("order.csv", meshCsv(good, "0.5;1;2\n0.5;3;4\n"), ":5: time 0.5 is not after");
  refused("step.csv",
          meshCsv("JMeshTDatas-200817;VelDir;m/s;float;false;2;1;1;0;0;0;0;0;0;0;0;0;0;0;0;1;0;0", "0;1;2\n"),
          "no step");
  refused("short.csv", "Format;x\n", "lines of data");
  refused("grid.txt", "", ".csv or .mbi4");
  refused("empty.csv", "", "0 lines of data");
  refused("empty.mbi4", "", "shorter than the 64-byte head");
  // The binary file: a variable it does not hold, and a file cut short.
  try {
    readMeshData(kData + "MeshGauge2D_Raw.mbi4", "VelDir");
    ADD_FAILURE() << "VelDir was found";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no variable VelDir in the file (it has Vel, Rhop, Zsurf)"), std::string::npos)
        << e.what();
  }
  const std::string bytes = readInputFile(kData + "MeshGauge2D_Raw.mbi4", "test fixture");
  refused("cut.mbi4", bytes.substr(0, bytes.size() - 100), "truncated");
}

}  // namespace
}  // namespace sph
