// The data files of DualSPHysics' file movements (<mvfile>/<mvrectfile>, <mvrotfile>) and of its
// acceleration inputs (<accinput><acctimesfile>): one row of numbers per line, a time and the
// values at that time.
//
// As DualSPHysics' reader: lines starting with '#' are comments; values are separated by tabs,
// spaces, ';' or ','. Blank lines are skipped. Stricter where DualSPHysics' reader silently reads
// something else: a value that is not a number (it takes 0), a row with more values than the
// movement reads (it takes the extra ones for the next row's) and times that go back are errors
// here, as are rows with fewer values; each message names the file and the line. A time given
// twice is allowed (DualSPHysics' own CaseWaveRunup starts so): the value jumps there.
#pragma once

#include <string>
#include <vector>

#include "model/case_motion.h"

namespace sph {

// Who reads a data file, for the messages.
struct DataFileUse {
  const char* file = "motion data file";  // "PATH: cannot open the motion data file"
  const char* reader = "the movement";    // "3 values on the row, the movement reads rows of 2"
  const char* needs = "a movement";       // "1 row of data, a movement needs at least two"
};

// Every row of the file `path`, each of `fields` numbers, column `timeColumn` a time that does
// not decrease; at least two rows. InputError "PATH:LINE: what is wrong" for a row that cannot
// be read, "PATH: ..." for a file that cannot be opened or has fewer than two rows.
std::vector<std::vector<double>> readDataRows(const std::string& path, int fields, int timeColumn,
                                              const DataFileUse& use = {});

// Which values of each row a movement reads, counted from 0 (DualSPHysics' <file fields=...
// fieldtime=... fieldx=...>).
struct MotionFileColumns {
  int fields = 2;  // values on each row
  int time = 0;
  int x = -1, y = -1, z = -1;  // mvfile: the position columns (-1: that component stays 0)
  int angle = -1;              // mvrotfile: the angle column
  int ang1 = -1, ang2 = -1, ang3 = -1;  // mvrotadvfile, mvpathfile: the three angles' columns
  double angleFactor = 1;      // radians per unit of the file's angles
};

// The rows of the file `path` for a movement (readDataRows' errors).
MotionTable readMotionTable(const std::string& path, const MotionFileColumns& columns);

}  // namespace sph
