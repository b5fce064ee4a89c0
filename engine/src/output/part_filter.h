// <special><outputparts> applied to the parts a run writes (model/case_output_parts.h): which
// particles of a snapshot go into a part. Only the written parts change; the simulation, the
// gauges, floating.csv and excluded.csv do not.
#pragma once

#include <map>
#include <vector>

#include "model/case_model.h"
#include "output/output.h"

namespace sph {

class PartFilter {
 public:
  // `centres`: the floating bodies' centres (in c.floatings' order) at the start of the run, from
  // which a followed body's displacement counts.
  PartFilter(const CaseOutputParts& filters, const CaseDefinition& c, const std::vector<Vec3d>& centres);

  // Whether part number `part` is filtered: every part, or all but 0, N, 2N, ... with <ignore nparts="N">.
  bool filters(int part) const;
  // Keeps, in their order, the particles of `s` the filters select; `centres` are the floating
  // bodies' centres now.
  void apply(ParticleSnapshot& s, const std::vector<Vec3d>& centres) const;

 private:
  bool test(const OutputFilter& f, const double p[3], int mk, const std::vector<Vec3d>& moved) const;
  bool block(const OutputFilter& g, const double p[3], int mk, const std::vector<Vec3d>& moved) const;

  CaseOutputParts filters_;
  std::map<int, unsigned> typeOfMk_;     // global mk -> OutputFilter::kType*
  std::map<int, Vec3d> startCentre_;     // followed mkbound -> the body's centre at the start
  std::map<int, int> bodyOfMkBound_;     // mkbound -> index of its floating body
};

}  // namespace sph
