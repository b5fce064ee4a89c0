// Reading a file that a user names (the case, GenCase's particles, motion and acceleration tables,
// materials, meshes, checkpoints): only regular files are read. Opening a FIFO for reading waits
// for a writer that may never come, and a device such as /dev/zero never ends; both are refused
// before anything is read, with the file and what it was meant to be.
#pragma once

#include <string>

namespace sph {

// InputError "PATH: the WHAT is not a regular file (a FIFO)" (or a directory, a device...), or
// "PATH: cannot open the WHAT: <reason>" when it cannot be opened (missing, unreadable, a
// symbolic-link loop). `what` names the file's role: "case file", "particle file", ...
void requireRegularFile(const std::string& path, const std::string& what);

// The whole file, after the checks of requireRegularFile.
std::string readInputFile(const std::string& path, const std::string& what);

}  // namespace sph
