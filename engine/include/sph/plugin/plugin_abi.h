// The boundary between the engine and a neighbour-search plugin, in one place.
//
// A plugin is a shared library (lib<name>.so in a plugin directory, platform/plugin_loader.h) that exports
// one C function, `sph_plugin_descriptor`, returning a SphPluginDescriptor. Through it the engine
// creates a sph::NeighbourStrategy (neighbour_strategy.h) and from then on talks to the plugin
// only through that C++ interface. What crosses the boundary is therefore C++: the strategy's
// vtable and, passed by value or through pointers, StrategyContext, ParticleView<T>,
// PhysicsConstants<T> (with its PeriodicBox and FloatingPairTable) and ForceOutputs<T>. Plugins
// also compile the physics (pair_physics.h and the headers it includes) into their own force
// passes, so a plugin built from other headers would compute other physics even where every
// layout agrees.
//
// So the engine accepts a plugin only when both halves of its ABI tag equal the engine's own:
//  - SPH_PLUGIN_HEADERS_HASH, generated at build time (cmake/plugin_abi_tag.cmake) from the
//    contents of every header of the plugin surface, engine/include/sph/plugin and
//    engine/neighbours: any edit of a header a plugin compiles against changes it, and no other
//    (these headers include nothing of the engine outside them);
//  - sph::abi::kLayoutHash, computed by the compiler from the sizes, alignments and member offsets
//    of the types above: it catches the same headers compiled with other flags or another
//    standard library.
// SphPluginDescriptor's own layout is fixed by SPH_PLUGIN_DESCRIPTOR_VERSION (its first member),
// so that the engine can read a stale plugin's tag and say what is wrong with it.
//
// Writing a plugin: implement NeighbourStrategy and add, in one source file of the library,
//   SPH_DEFINE_PLUGIN(MyStrategy, "name", "one line for `sph plugins`")
// (docs/plugin-guide.md walks through plugins/allpairs, the smallest one).
#pragma once

#include <cstddef>
#include <cstdint>

#include "sph/plugin/neighbour_strategy.h"
#include "sph/plugin_abi_tag.h"  // generated: SPH_PLUGIN_HEADERS_HASH

// The layout of SphPluginDescriptor below; change it only together with that layout.
#define SPH_PLUGIN_DESCRIPTOR_VERSION 14u

namespace sph::abi {

constexpr uint64_t kFnvOffset = 14695981039346656037ull;
constexpr uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 1099511628211ull; }

#define SPH_ABI_SIZE(T) h = mix(mix(h, sizeof(T)), alignof(T))
#define SPH_ABI_FIELD(T, m) h = mix(h, offsetof(T, m))

template <typename T>
constexpr uint64_t layoutOf() {
  uint64_t h = mix(kFnvOffset, sizeof(T));
  SPH_ABI_SIZE(Real4<T>);
  SPH_ABI_SIZE(SymTensor<T>);
  using View = ParticleView<T>;
  SPH_ABI_SIZE(View);
  SPH_ABI_FIELD(View, pos);
  SPH_ABI_FIELD(View, velrho);
  SPH_ABI_FIELD(View, code);
  SPH_ABI_FIELD(View, id);
  SPH_ABI_FIELD(View, n);
  SPH_ABI_FIELD(View, nBound);
  SPH_ABI_FIELD(View, spsTau);
  SPH_ABI_FIELD(View, normal);
  SPH_ABI_FIELD(View, tangent);
  SPH_ABI_FIELD(View, motionAce);
  using Out = ForceOutputs<T>;
  SPH_ABI_SIZE(Out);
  SPH_ABI_FIELD(Out, ace);
  SPH_ABI_FIELD(Out, viscdt);
  SPH_ABI_FIELD(Out, contacts);
  SPH_ABI_FIELD(Out, shift);
  SPH_ABI_FIELD(Out, spsStrain);
  using Consts = PhysicsConstants<T>;
  SPH_ABI_SIZE(Consts);
  SPH_ABI_FIELD(Consts, kernel);
  SPH_ABI_FIELD(Consts, support2);
  SPH_ABI_FIELD(Consts, massFluid);
  SPH_ABI_FIELD(Consts, viscosity);
  SPH_ABI_FIELD(Consts, ddt);
  SPH_ABI_FIELD(Consts, boundary);
  SPH_ABI_FIELD(Consts, gx);
  SPH_ABI_FIELD(Consts, shifting);
  SPH_ABI_FIELD(Consts, periodic);
  SPH_ABI_FIELD(Consts, floating);
  SPH_ABI_SIZE(PeriodicBox<T>);
  SPH_ABI_SIZE(FloatingPairTable<T>);
  return h;
}

constexpr uint64_t layoutHash() {
  uint64_t h = mix(layoutOf<float>(), layoutOf<double>());
  // StrategyContext holds a std::map (not standard-layout, so no offsetof): its size changes with
  // any member and with the standard library's map.
  SPH_ABI_SIZE(StrategyContext);
  SPH_ABI_SIZE(NeighbourStrategy);
  SPH_ABI_SIZE(StrategyStats);
  SPH_ABI_SIZE(StrategyOption);
  SPH_ABI_SIZE(MemoryQuery);
  SPH_ABI_SIZE(MemoryNeed);
  return h;
}

#undef SPH_ABI_SIZE
#undef SPH_ABI_FIELD

inline constexpr uint64_t kLayoutHash = layoutHash();

}  // namespace sph::abi

extern "C" {

struct SphPluginDescriptor {
  uint32_t descriptorVersion;  // SPH_PLUGIN_DESCRIPTOR_VERSION
  const char* headersHash;     // SPH_PLUGIN_HEADERS_HASH of the headers the plugin was built from
  uint64_t layoutHash;         // sph::abi::kLayoutHash as the plugin's compiler computed it
  const char* name;            // the --neighbours value, e.g. "cell"
  const char* description;     // one line for `sph plugins`
  sph::NeighbourStrategy* (*create)();
  void (*destroy)(sph::NeighbourStrategy*);
};

typedef const SphPluginDescriptor* (*SphPluginEntryFn)();
}

#define SPH_PLUGIN_ENTRY_SYMBOL "sph_plugin_descriptor"

// The entry point of a plugin whose strategy is the default-constructible class STRATEGY.
#define SPH_DEFINE_PLUGIN(STRATEGY, NAME, DESCRIPTION)                                                     \
  extern "C" __attribute__((visibility("default"))) const SphPluginDescriptor* sph_plugin_descriptor() {  \
    static const SphPluginDescriptor descriptor{                                                           \
        SPH_PLUGIN_DESCRIPTOR_VERSION,                                                                      \
        SPH_PLUGIN_HEADERS_HASH,                                                                            \
        sph::abi::kLayoutHash,                                                                              \
        NAME,                                                                                               \
        DESCRIPTION,                                                                                        \
        []() -> sph::NeighbourStrategy* { return new STRATEGY(); },                                        \
        [](sph::NeighbourStrategy* s) { delete s; }};                                                      \
    return &descriptor;                                                                                    \
  }
