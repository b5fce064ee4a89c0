// DualSPHysics' mesh gauge (JGaugeMesh): the gauge interpolations on a grid of points, and the free
// surface in each column of the grid.
//
// At each grid point x, from the sums over the fluid within 2h (gauges/gauge_sampler.h):
//   vel, rhop   sum V W v and sum V W rho, divided by sum V W where sum V W >= kclimit (the kernel
//               correction); below it the <kcdummy> value, or the raw sums when kcdummy is none;
//               the raw sums everywhere when kclimit is none
//   veldir      vel . dirdat
//   mass        m sum V W
// and in each column (a point of the first two axes, walking the third from its start), zsurf is
// the z where the mass first falls below the mass limit after having been above it, linear between
// the two points around the crossing: the column's start when no point is above the limit, its end
// when the mass never falls below it again. Only the crossing's z is written (the grid's third
// axis need not be vertical).
//
// The CSV files are DualSPHysics' (JMeshTDatasSave::SaveCsv): per output, a header of the grid, then
// a row per sample time with a value per point (the first axis fastest), or per column for zsurf.
// The binary file (<outputfmt> bin) is its .mbi4 (JMeshTDatasSave::SaveDataTime, a JBinaryData
// list file): a first item with the grid and the outputs (name, type, size, tag 12 for zsurf's
// per-column values), then a hidden item TIME_nnnnnn per sample with its number (Ctime), its time
// (TimeStep) and an array per output, in single precision.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gauges/gauge_sampler.h"
#include "model/case_gauges.h"

namespace sph {

// The grid (DualSPHysics JMeshData::MakeMeshPt).
struct MeshGrid {
  GaugePoint origin;
  GaugePoint step[3];         // from a point to the next along each axis; zero for an axis not used
  uint64_t n[3] = {1, 1, 1};  // points along each axis
  uint64_t count() const { return n[0] * n[1] * n[2]; }
  uint64_t columns() const { return n[0] * n[1]; }
  GaugePoint at(uint64_t i, uint64_t j, uint64_t k) const;
};

MeshGrid meshGaugeGrid(const GaugeSpec& g);
// The grid's points, the first axis fastest, then the second, then the third.
std::vector<GaugePoint> meshGridPoints(const MeshGrid& m);

// One sample of a mesh gauge, each output sized to the grid (zsurf to its columns) when asked for.
struct MeshGaugeValues {
  std::vector<double> vel;  // 3 per point
  std::vector<double> velDir, rho, zsurf;
};

// The values from the samples at the grid's points; massFluid and massLimit in kg.
MeshGaugeValues meshGaugeValues(const GaugeSpec& g, const MeshGrid& m, const PointSample* samples, double massFluid,
                                double massLimit);

// The outputs a mesh gauge writes, in DualSPHysics' order: "Vel", "VelDir", "Rhop", "Zsurf".
std::vector<std::string> meshGaugeOutputs(const GaugeSpec& g);
// The CSV header (three lines) and a data row of one output.
std::string meshGaugeCsvHeader(const GaugeSpec& g, const MeshGrid& m, const std::string& output);
std::string meshGaugeCsvRow(const MeshGaugeValues& v, const std::string& output, double time);
// The .mbi4 file's head and first item, and the item of sample number `ctime`.
std::string meshGaugeBinHeader(const GaugeSpec& g, const MeshGrid& m);
std::string meshGaugeBinItem(const GaugeSpec& g, const MeshGaugeValues& v, uint32_t ctime, double time);

}  // namespace sph
