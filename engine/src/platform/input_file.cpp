#include "platform/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "sph/plugin/errors.h"

namespace sph {
namespace {

const char* fileKind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a plain file";
}

// Opens `path` for reading without blocking (a FIFO would wait for a writer in open(2)) and checks
// that it is a regular file; returns the descriptor, in blocking mode.
int openRegular(const std::string& path, const std::string& what) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw InputError(fmt::format("{}: cannot open the {}: {}", path, what, std::strerror(errno)));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    throw InputError(fmt::format("{}: cannot open the {}: {}", path, what, std::strerror(err)));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    throw InputError(fmt::format("{}: the {} is not a regular file ({})", path, what, fileKind(st.st_mode)));
  }
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

}  // namespace

void requireRegularFile(const std::string& path, const std::string& what) { ::close(openRegular(path, what)); }

std::string readInputFile(const std::string& path, const std::string& what) {
  const int fd = openRegular(path, what);
  std::string data;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      throw InputError(fmt::format("{}: cannot read the {}: {}", path, what, std::strerror(err)));
    }
    data.append(buffer, size_t(n));
  }
  ::close(fd);
  return data;
}

}  // namespace sph
