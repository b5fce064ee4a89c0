#include "case/unsupported_elements.h"

#include <algorithm>
#include <iterator>

namespace sph {
namespace {

struct Unsupported {
  std::string_view parent, child, what;
};

// From DualSPHysics 5.4's format reference (GenCase_CaseTemplate.xml and _FmtXML_*.xml); the
// coverage table (docs/format-coverage.md) lists them as refused.
constexpr Unsupported kUnsupported[] = {
    {"casedef", "vres", "variable resolution (VRes) buffer zones"},
    {"drawfilestl", "depth", "a depth of surface particles for a mesh"},
    {"drawfileply", "depth", "a depth of surface particles for a mesh"},
    {"drawfilevtk", "depth", "a depth of surface particles for a mesh"},
    {"drawfilestl", "drawcenter", "a mesh drawn about its centre"},
    {"drawfileply", "drawcenter", "a mesh drawn about its centre"},
    {"drawfilevtk", "drawcenter", "a mesh drawn about its centre"},
    {"drawfilestl", "clipdomain", "a mesh clipped to a box"},
    {"drawfileply", "clipdomain", "a mesh clipped to a box"},
    {"drawfilevtk", "clipdomain", "a mesh clipped to a box"},
    {"drawfilevtk", "polyselec", "a selection of a VTK mesh's polygons"},
    {"initials", "densitymesh", "an initial density from a mesh file"},
    {"initials", "velmesh", "an initial velocity from a mesh file"},
    {"normals", "norparts", "mDBC normals from the particles (GenCase's method is not published)"},
    {"special", "nnphases", "multiphase non-Newtonian flow"},
    {"initialize", "boundnormal_parts", "mDBC normals from the particles (refused by DualSPHysics 5.4 too)"},
    // GenCase's geometry commands (in <mainlist> or a <list>).
    {"mainlist", "clipbox", "clipping of the shapes drawn to a box"},
    {"mainlist", "clipdomain", "clipping of the shapes drawn to the domain"},
    {"mainlist", "clipplane", "clipping of the shapes drawn by a plane"},
    {"mainlist", "drawbathymetry", "a bathymetry from points"},
    {"mainlist", "drawfigure", "a figure of triangles"},
    {"drawfilecsv", "drawcenter", "a mesh drawn about its centre"},
    {"mainlist", "drawfilevtm", "surfaces from a VTM file"},
    {"mainlist", "fillfigure", "a fill bounded by a figure of triangles"},
    {"mainlist", "setfrdrawmode", "the draw mode of figures"},
    {"mainlist", "setmknextauto", "automatic next mk numbers"},
};

}  // namespace

std::string_view unsupportedElement(std::string_view parent, std::string_view child) {
  if (parent == "list") parent = "mainlist";  // a <list> holds the same commands
  const auto it = std::find_if(std::begin(kUnsupported), std::end(kUnsupported),
                               [&](const Unsupported& u) { return u.parent == parent && u.child == child; });
  return it == std::end(kUnsupported) ? std::string_view() : it->what;
}

}  // namespace sph
