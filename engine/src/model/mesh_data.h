// Mesh data: values on a grid of points at a series of times, as DualSPHysics' JMeshTDatas files
// hold them (CSV or .mbi4; case/mesh_data_file.h reads both). Inlets and outlets take velocities
// and zsurfs from them (<meshdata>), GenCase initial velocities and densities.
//
// The grid: npt[0] x npt[1] x npt[2] points origin + i vdp[0] + j vdp[1] + k vdp[2], point (i, j, k)
// at index i + npt[0] (j + npt[1] k). A "data12" variable (a zsurf) has a value per column,
// npt[0] npt[1] of them, not per point.
#pragma once

#include <cfloat>
#include <cstdint>
#include <string>
#include <vector>

#include "model/vec3d.h"
#include "physics/mesh_data_physics.h"

namespace sph {

struct MeshData {
  std::string file;
  std::string name;         // the variable: Vel, VelDir, Rhop, Zsurf, ...
  uint32_t components = 1;  // 1 or 3
  bool data12 = false;      // a value per column of the first two axes
  Vec3d origin;
  Vec3d vdp[3];
  uint32_t npt[3] = {1, 1, 1};
  Vec3d dirdat;               // the file's unit direction of its VelDir values (information)
  std::vector<double> times;  // increasing
  std::vector<float> values;  // per time: valuesPerTime() of them
  // <timeloop>: from loopEnd on, the time goes back by loopSpan (loopEnd - loopSpan is the time
  // of the frame nearest the loop's requested start); DBL_MAX: no loop.
  double loopEnd = DBL_MAX, loopSpan = 0;

  uint32_t points() const { return data12 ? npt[0] * npt[1] : npt[0] * npt[1] * npt[2]; }
  size_t valuesPerTime() const { return size_t(points()) * components; }
  const float* frame(size_t k) const { return values.data() + k * valuesPerTime(); }
};

// The two frames around time t and the weight of the second (DualSPHysics' JMeshTDatas::FindTime):
// within a loop the time is wrapped first; before the first frame the first alone, after the
// last the last alone.
struct MeshFrames {
  size_t a = 0, b = 0;
  float f = 0;
};
MeshFrames meshFramesAt(const MeshData& m, double t);

// The interpolation over the grid's axes of more than one point (physics/mesh_data_physics.h);
// a data12 variable over the first two only.
MeshInterp meshInterpolation(const MeshData& m);

// The value at position p and time t (out[0], or out[0..2] for vectors), on the host.
void meshValueAt(const MeshData& m, const MeshInterp& interp, double t, const Vec3d& p, float out[3]);

// Moves every point by `offset` (<setpos>, setx/sety/setz).
void meshShift(MeshData& m, const Vec3d& offset);

// <timeloop tbegin tend>: only the frames up to tend are kept; the last of them takes the values
// of the frame nearest tbegin, and from its time on the time goes back by the span between the
// two (DualSPHysics' JMeshTDatasLoad). Throws InputError when there is no such span.
void meshLoop(MeshData& m, double begin, double end);

}  // namespace sph
