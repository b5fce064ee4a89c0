// Runs the gauges of a case during a simulation: decides when each one is evaluated (every
// computedt inside computetime, DualSPHysics' rule: at the first step at or after each multiple
// of computedt) and when a row is written (every outputdt inside outputtime), and writes
// OUT/gauges/<name>.csv (a mesh gauge: <name>_<output>.csv per output and <name>.mbi4,
// gauges/mesh_gauge.h). Rows are appended to .part files while the run goes on and each is renamed
// when the run ends (completed or failed), so a run that is killed leaves only .part files, never
// a half-written file that looks complete.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "gauges/gauge_sampler.h"
#include "gauges/mesh_gauge.h"
#include "model/case_gauges.h"
#include "model/sim_parameters.h"
#include "output/checkpoint.h"
#include "output/output.h"

namespace sph {

// A gauge with every setting resolved for one run.
struct ResolvedGauge {
  GaugeSpec spec;
  double computeDt = 0, computeStart = 0, computeEnd = 0;
  double outputDt = 0, outputStart = 0, outputEnd = 0;
  double pointDp = 0;    // swl, m
  double massLimit = 0;  // swl, kg
  double massFluid = 0;  // swl: its kernel-summed mass is the Shepard sum times this
  double distLimit = 0;  // maxz, m
  // maxz: what it writes when no fluid is near its line, the domain's lowest z (DualSPHysics
  // writes its DomPosMin.z).
  double floorZ = 0;
  double massBound = 0;  // force: the gauge writes this times the summed acceleration
  MeshGrid grid;         // mesh
};

// DualSPHysics' defaults: compute and output every TimeOut from 0 to the end of the run, output
// off; swl
// mass limit 0.4 m (2D) or 0.5 m (3D) of a fluid particle's mass m (DualSPHysics
// _FmtXML_Gauges.xml: "default=0.5 on 3D and 0.4 on 2D"). A force gauge must have been attached
// to its mk (attachGauges, case/gauges_reader.h): InputError naming the gauge otherwise.
ResolvedGauge resolveGauge(const GaugeSpec& g, const SimParameters& p);

// The points a gauge is evaluated at: one for velocity and pressure, the swlPoints() of its
// line for swl, its grid's for mesh, none for maxz and force; and how many there are. Both throw
// InputError (naming the gauge and its line) for a line of over a million pieces or a grid of over
// ten million points. A recorder refuses gauges of over ten million points in all.
std::vector<GaugePoint> gaugePoints(const ResolvedGauge& g);
size_t gaugePointCount(const ResolvedGauge& g);
// What a maxz gauge asks of a GaugeSource (its sizes in metres), and a force gauge.
MaxZLine gaugeMaxZLine(const ResolvedGauge& g);
ForceTarget gaugeForceTarget(const ResolvedGauge& g);

// The files a gauge writes in OUT/gauges: NAME.csv, or for a mesh gauge one CSV per output
// (NAME_Vel.csv, NAME_VelDir.csv, NAME_Rhop.csv, NAME_Zsurf.csv) and NAME.mbi4 as its <outputfmt>
// asks.
std::vector<std::string> gaugeFileNames(const GaugeSpec& g);
// Those of all the case's gauges: the files in OUT/gauges that belong to the engine.
std::vector<std::string> gaugeFileNames(const CaseGauges& gauges);

// The start (a CSV's header with units, a .mbi4's head and first item) and one sample's part of
// each of a gauge's files, in the order of gaugeFileNames, from results whose part for this gauge
// starts at `first`: its first point in r.points (gaugePoints(g)), its line in r.maxZ or its
// target in r.ace; `sample` counts the gauge's samples written before (a .mbi4 numbers its items).
std::vector<std::string> gaugeFileHeaders(const ResolvedGauge& g);
std::vector<std::string> gaugeFileRows(const ResolvedGauge& g, const GaugeResults& r, size_t first, double time,
                                       uint32_t sample);
// The same for the gauges of one file (all but mesh).
std::string gaugeCsvHeader(GaugeKind kind);
std::string gaugeCsvRow(const ResolvedGauge& g, const GaugeResults& r, size_t first, double time);

class GaugeRecorder {
 public:
  // Gauges whose output is off are dropped (this engine has no other use for their values).
  // `dir` empty: no gauge is run (--no-output). An earlier run's files of these gauges are
  // replaced (output/output_folder.h says when the others go). A follower (a rank other than 0
  // of a run over several) samples at the same times, its sources answering rank 0 (which holds
  // the particles gathered from every rank), and writes nothing.
  GaugeRecorder(const CaseGauges& gauges, const SimParameters& p, std::filesystem::path dir, bool follower = false);

  bool empty() const { return items_.empty(); }
  bool due(double t) const;        // some gauge is to be evaluated at time t
  bool forcesDue(double t) const;  // and written, a force gauge among them (GaugeKind::Force)
  // Evaluates the gauges due at time t: all of them in one call of `source`.
  void sample(double t, GaugeSource& source);
  void sample(const ParticleSnapshot& s);  // the same from a host snapshot taken at s.time
  void flush();                            // appends the buffered rows to the .part files
  void finish();                           // flush, then drop each .part's suffix (once)

  // Checkpoints: each gauge's schedule and the length of its files, flushed first (so before
  // finish()).
  void save(CheckpointWriter& w);
  // A resumed run: the schedules, and each file (.part, or .csv when the run that stopped ended
  // it) cut back to its length at the checkpoint and reopened as .part. InputError naming the
  // file when it is missing or shorter, thrown before any file is touched (checkResumable).
  void resume(const CheckpointReader& r);
  // The checks of resume() alone: every gauge's file is there and at least as long as at the
  // checkpoint. Changes nothing.
  void checkResumable(const CheckpointReader& r) const;

 private:
  struct File {
    std::string name;          // OUT/gauges/<name>
    std::string header;
    std::string rows;          // not yet written
    bool started = false;      // the .part file exists (with its header)
  };
  struct Item {
    ResolvedGauge g;
    std::vector<GaugePoint> points;  // gaugePoints(g)
    double nextCompute = 0, nextOutput = 0;
    uint32_t samples = 0;            // rows made so far
    std::vector<File> files;         // gaugeFileNames(g.spec)
  };
  bool computeDue(const Item& it, double t) const;
  bool writesAt(const Item& it, double t) const;  // its output is due at t (once computed)

  GaugeKernel kernel_;
  GaugeRequest request_;  // of the gauges due, storage kept between samples
  GaugeResults results_;
  std::filesystem::path dir_;
  std::vector<Item> items_;
  bool follower_ = false;
  bool finished_ = false;
};

}  // namespace sph
