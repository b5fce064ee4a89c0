// Fuzz target: any bytes as a motion data file (<mvfile>, <mvrotfile>), as an acceleration data
// file (<acctimesfile>) and as a mesh-data file (<meshdata>: a JMeshTDatas CSV when the bytes
// start with "Format", a .mbi4 when with "#FileJBD"), read as the case loader reads them. They
// must load or be refused with an InputError naming the file; a crash, a hang, an allocation of
// what a corrupt count claims or any other exception is a bug.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "case/mesh_data_file.h"
#include "case/motion_data_file.h"
#include "fuzz_target.h"
#include "sph/plugin/errors.h"

namespace fs = std::filesystem;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const fs::path file = [] {
    const fs::path d = fs::temp_directory_path() / ("sph_fuzz_data_" + std::to_string(getpid()));
    fs::create_directories(d);
    return d / "data.csv";
  }();
  std::ofstream(file, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), std::streamsize(size));
  const std::string head(reinterpret_cast<const char*>(data), std::min<size_t>(size, 8));
  if (head.rfind("Format", 0) == 0 || head == "#FileJBD") {
    const fs::path mesh = file.parent_path() / (head == "#FileJBD" ? "data.mbi4" : "mesh.csv");
    std::ofstream(mesh, std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(data), std::streamsize(size));
    try {
      (void)sph::readMeshData(mesh.string(), "Vel");
    } catch (const sph::InputError&) {
    }
    return 0;
  }
  // The first byte picks the reader's columns, so that every shape of row gets its inputs.
  const int pick = size > 0 ? data[0] % 4 : 0;
  try {
    if (pick == 0) {
      sph::MotionFileColumns position;
      position.fields = 4;
      position.x = 1;
      position.z = 3;
      (void)sph::readMotionTable(file.string(), position);
    } else if (pick == 1) {
      sph::MotionFileColumns rotation;
      rotation.angle = 1;
      rotation.angleFactor = 0.017453292519943295;
      (void)sph::readMotionTable(file.string(), rotation);
    } else {
      const sph::DataFileUse use{"acceleration data file", "the acceleration input", "an acceleration input"};
      (void)sph::readDataRows(file.string(), pick == 2 ? 7 : 3, pick == 2 ? 0 : 2, use);
    }
  } catch (const sph::InputError&) {
  }
  return 0;
}
