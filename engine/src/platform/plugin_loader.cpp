#include "platform/plugin_loader.h"

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "platform/install_paths.h"
#include "sph/plugin/errors.h"
#include "sph/plugin/plugin_abi.h"

namespace sph {
namespace fs = std::filesystem;
std::string pluginAbiTag();
namespace {

// "<headers hash>-<layout hash>", as the messages print it.
std::string abiTag(const char* headersHash, uint64_t layoutHash) {
  return fmt::format("{}-{:016x}", headersHash, layoutHash);
}

// Loads `path` and returns its descriptor, or null with `why` set. Libraries stay loaded for the
// life of the process: strategies may own CUDA resources that must not outlive their code.
const SphPluginDescriptor* openPlugin(const std::string& path, std::string* why) {
  void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    *why = fmt::format("{}: cannot load: {}", path, dlerror());
    return nullptr;
  }
  auto entry = reinterpret_cast<SphPluginEntryFn>(dlsym(h, SPH_PLUGIN_ENTRY_SYMBOL));
  if (!entry) {
    *why = fmt::format("{}: no {} symbol (not an sph plugin)", path, SPH_PLUGIN_ENTRY_SYMBOL);
    dlclose(h);
    return nullptr;
  }
  const SphPluginDescriptor* d = entry();
  if (!d || d->descriptorVersion != SPH_PLUGIN_DESCRIPTOR_VERSION) {
    *why = fmt::format("{}: plugin descriptor version {} but this sph reads version {} (rebuild the plugin)", path,
                       d ? d->descriptorVersion : 0u, SPH_PLUGIN_DESCRIPTOR_VERSION);
    dlclose(h);
    return nullptr;
  }
  const std::string theirs = abiTag(d->headersHash ? d->headersHash : "?", d->layoutHash);
  const std::string ours = pluginAbiTag();
  if (theirs != ours) {
    *why = fmt::format("{}: plugin '{}' was built with ABI tag {} but this sph has {}: it was built from other "
                       "engine headers (or other compiler settings); rebuild it with this sph",
                       path, d->name ? d->name : "?", theirs, ours);
    dlclose(h);
    return nullptr;
  }
  return d;
}

// A library that any user could have written is not loaded: loading runs its code. "" when `lib`
// may be loaded, else why not. (Group-writable is left alone: with user-private groups, the usual
// umask 002 makes every file so.)
std::string untrustedLibrary(const fs::path& lib) {
  struct stat st {};
  if (::stat(lib.c_str(), &st) != 0) return fmt::format("{}: cannot be read", lib.string());
  if (st.st_mode & S_IWOTH)
    return fmt::format("{}: writable by every user (mode {:03o}); not loaded", lib.string(), st.st_mode & 0777);
  return {};
}

// The directories the user named (--plugin-path) must exist: a typo would otherwise quietly run
// the built-in plugin.
void requireNamedDirs(const std::vector<std::string>& explicitDirs) {
  for (const std::string& d : explicitDirs) {
    std::error_code ec;
    if (d.empty()) throw InputError("--plugin-path: an empty directory name");
    if (!fs::is_directory(d, ec)) throw InputError(fmt::format("--plugin-path {}: no such directory", d));
  }
}

std::map<std::string, const SphPluginDescriptor*>& loadedDescriptors() {
  static std::map<std::string, const SphPluginDescriptor*> m;
  return m;
}

}  // namespace

std::string pluginAbiTag() { return abiTag(SPH_PLUGIN_HEADERS_HASH, abi::kLayoutHash); }

std::vector<std::string> pluginSearchDirs(const std::vector<std::string>& explicitDirs) {
  std::vector<std::string> dirs = explicitDirs;
  if (const std::string installed = besideExecutable("lib/sph/plugins"); !installed.empty()) dirs.push_back(installed);
  if (const char* env = std::getenv("SPH_PLUGIN_PATH")) {
    std::string s = env;
    size_t start = 0;
    while (start <= s.size()) {
      const size_t colon = s.find(':', start);
      const std::string part = s.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
      if (!part.empty()) dirs.push_back(part);
      if (colon == std::string::npos) break;
      start = colon + 1;
    }
  }
  // A directory named twice (--plugin-path and SPH_PLUGIN_PATH) is searched once.
  std::vector<std::string> unique;
  for (const std::string& d : dirs)
    if (std::find(unique.begin(), unique.end(), d) == unique.end()) unique.push_back(d);
  return unique;
}

std::vector<PluginInfo> discoverPlugins(std::vector<std::string>* problems, const std::vector<std::string>& explicitDirs) {
  requireNamedDirs(explicitDirs);
  std::vector<PluginInfo> found;
  std::map<std::string, bool> seenPath;
  for (const std::string& dir : pluginSearchDirs(explicitDirs)) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    std::vector<fs::path> libs;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      const std::string file = e.path().filename().string();
      if (file.rfind("libsph_", 0) == 0 && e.path().extension() == ".so") libs.push_back(e.path());
    }
    std::sort(libs.begin(), libs.end());
    for (const fs::path& lib : libs) {
      const std::string canon = fs::weakly_canonical(lib, ec).string();
      if (seenPath[canon]) continue;
      seenPath[canon] = true;
      std::string why = untrustedLibrary(canon);
      const SphPluginDescriptor* d = why.empty() ? openPlugin(canon, &why) : nullptr;
      if (!d) {
        if (problems) problems->push_back(why);
        continue;
      }
      bool dup = false;
      for (const auto& p : found) dup |= p.name == d->name;
      if (dup) continue;
      found.push_back({d->name, d->description ? d->description : "", canon});
      loadedDescriptors()[d->name] = d;
    }
  }
  return found;
}

StrategyPtr createStrategy(const std::string& name, PluginInfo* info, const std::vector<std::string>& explicitDirs) {
  requireNamedDirs(explicitDirs);
  if (name.empty()) throw InputError("no neighbour-search plugin named: the name is empty");
  std::vector<std::string> problems;
  auto create = [&](const SphPluginDescriptor* d, const std::string& path) {
    if (info) *info = {d->name, d->description ? d->description : "", path};
    return StrategyPtr(d->create(), StrategyDeleter{d->destroy});
  };
  // The plugin's own file first: nothing else is loaded.
  const bool plainName = !name.empty() && name.find_first_of("/\\") == std::string::npos;
  for (const std::string& dir : plainName ? pluginSearchDirs(explicitDirs) : std::vector<std::string>{}) {
    std::error_code ec;
    const fs::path lib = fs::path(dir) / ("libsph_" + name + ".so");
    if (!fs::is_regular_file(lib, ec)) continue;
    const std::string canon = fs::weakly_canonical(lib, ec).string();
    std::string why = untrustedLibrary(canon);
    const SphPluginDescriptor* d = why.empty() ? openPlugin(canon, &why) : nullptr;
    if (d && name == d->name) {
      loadedDescriptors()[d->name] = d;
      return create(d, canon);
    }
    // The first file of the plugin's name is the one asked for: running another plugin of that
    // name from a later directory instead would run something else than the user chose.
    throw InputError(fmt::format("neighbour-search plugin '{}': {}", name,
                                 d ? fmt::format("{}: declares plugin '{}', not '{}'", canon, d->name, name) : why));
  }
  std::vector<std::string> discovery;
  const std::vector<PluginInfo> plugins = discoverPlugins(&discovery, explicitDirs);
  for (const PluginInfo& p : plugins)
    if (p.name == name) return create(loadedDescriptors()[name], p.path);
  for (const std::string& w : discovery)
    if (std::find(problems.begin(), problems.end(), w) == problems.end()) problems.push_back(w);
  std::string msg = fmt::format("no neighbour-search plugin named '{}'.\n  searched:", name);
  for (const auto& d : pluginSearchDirs(explicitDirs)) msg += "\n    " + d;
  msg += "\n  found:";
  if (plugins.empty()) msg += " none";
  for (const auto& p : plugins) msg += fmt::format("\n    {} ({})", p.name, p.path);
  for (const auto& w : problems) msg += "\n  skipped: " + w;
  throw InputError(msg);
}

std::vector<PluginOptions> discoverPluginOptions(const std::vector<std::string>& explicitDirs) {
  std::vector<PluginOptions> all;
  for (const PluginInfo& p : discoverPlugins(nullptr, explicitDirs))
    all.push_back({p.name, createStrategy(p.name, nullptr, explicitDirs)->options()});
  return all;
}

}  // namespace sph
