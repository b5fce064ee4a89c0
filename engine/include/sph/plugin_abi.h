// The C entry point every strategy plugin exports. The engine dlopen()s each candidate library,
// looks up `sph_plugin_descriptor`, and refuses descriptors whose ABI version differs from its
// own (the NeighbourStrategy class layout is part of the ABI).
#pragma once

#include <cstdint>

#include "sph/neighbour_strategy.h"

// Bump whenever NeighbourStrategy, ParticleView, PhysicsConstants or StrategyContext change.
#define SPH_PLUGIN_ABI_VERSION 13u

extern "C" {

struct SphPluginDescriptor {
  uint32_t abiVersion;
  const char* name;         // the --neighbours value, e.g. "cell"
  const char* description;  // one line for `sph plugins`
  sph::NeighbourStrategy* (*create)();
  void (*destroy)(sph::NeighbourStrategy*);
};

typedef const SphPluginDescriptor* (*SphPluginEntryFn)();
}

#define SPH_PLUGIN_ENTRY_SYMBOL "sph_plugin_descriptor"
