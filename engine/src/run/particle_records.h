// Particles that travel between ranks (run/rank_domain.h) as records of bytes, packed and
// unpacked where the particles live (a CUDA kernel in GPU runs, so that one copy moves a whole
// exchange's particles to the host): a record holds the particle's coordinate along the slab
// axis (a double, first, as parallel/halo_exchange.h's checkArrivals reads it), then the
// element of every array the run has, in the order of ReorderArrays.
#pragma once

#include <cstdint>
#include <cstring>

#include "physics/position_split.h"
#include "sph/plugin/hd.h"
#include "sph/plugin/particle_code.h"
#include "sph/plugin/real4.h"
#include "sph/plugin/sps_physics.h"

namespace sph {

template <typename T>
struct ReorderArrays;

// The arrays of ReorderArrays, in record order.
enum RecordField {
  kRecPos,
  kRecVelrho,
  kRecVelrhoPre,
  kRecPosPre,
  kRecCode,
  kRecId,
  kRecSpsTau,
  kRecNormal,
  kRecTangent,
  kRecMotionAce,
  kRecPosLo,
  kRecordFields
};

struct RecordLayout {
  uint32_t bytes = 0;              // a record; a multiple of 8, so that every record's coordinate is aligned
  int axis = 0;                    // the slab axis
  int32_t at[kRecordFields] = {};  // where each array's element starts in a record; -1: the run has none
};

// Copies `bytes` (a multiple of 4, at 4-byte aligned addresses): word by word on the device,
// where memcpy would go byte by byte.
SPH_HD SPH_FORCEINLINE void copyRecordWords(void* dst, const void* src, uint32_t bytes) {
#if defined(__CUDA_ARCH__)
  for (uint32_t j = 0; j < bytes / 4; ++j) static_cast<uint32_t*>(dst)[j] = static_cast<const uint32_t*>(src)[j];
#else
  std::memcpy(dst, src, bytes);
#endif
}

template <typename E>
SPH_HD SPH_FORCEINLINE void putRecordField(uint8_t* rec, int32_t at, const E* array, uint32_t i) {
  if (at >= 0) copyRecordWords(rec + at, array + i, sizeof(E));
}
template <typename E>
SPH_HD SPH_FORCEINLINE void getRecordField(const uint8_t* rec, int32_t at, E* array, uint32_t i) {
  if (at >= 0) copyRecordWords(array + i, rec + at, sizeof(E));
}

// Record k of `out` = particle perm[k] of `a`, its coordinate along the axis moved by `shift`,
// without this rank's exchange mark.
template <typename T>
SPH_HD SPH_FORCEINLINE void packParticleRecord(uint32_t k, const ReorderArrays<T>& a, const uint32_t* perm,
                                               const RecordLayout& L, double shift, uint8_t* out) {
  const uint32_t i = perm[k];
  uint8_t* rec = out + size_t(k) * L.bytes;
  double x[3];
  loadPosition(a.pos[i], positionLo(a.posLo, i), x);
  const double along = x[L.axis] + shift;
  copyRecordWords(rec, &along, sizeof along);
  putRecordField(rec, L.at[kRecPos], a.pos, i);
  putRecordField(rec, L.at[kRecVelrho], a.velrho, i);
  putRecordField(rec, L.at[kRecVelrhoPre], a.velrhoPre, i);
  putRecordField(rec, L.at[kRecPosPre], a.posPre, i);
  const uint32_t c = a.code[i] & ~code::kRankSendBit;
  putRecordField(rec, L.at[kRecCode], &c, 0);
  putRecordField(rec, L.at[kRecId], a.id, i);
  putRecordField(rec, L.at[kRecSpsTau], a.spsTau, i);
  putRecordField(rec, L.at[kRecNormal], a.normal, i);
  putRecordField(rec, L.at[kRecTangent], a.tangent, i);
  putRecordField(rec, L.at[kRecMotionAce], a.motionAce, i);
  putRecordField(rec, L.at[kRecPosLo], a.posLo, i);
}

// Particle first + k of `a` (slots[k] when slots is not null) = record k of `in`, placed at the
// record's coordinate along the axis (across a periodic seam it differs by the period: the
// half-step position moves with it) and flagged a halo copy or this rank's own.
template <typename T>
SPH_HD SPH_FORCEINLINE void unpackParticleRecord(uint32_t k, const uint8_t* in, const RecordLayout& L,
                                                 const ReorderArrays<T>& a, uint32_t first, const uint32_t* slots,
                                                 bool halo) {
  const uint8_t* rec = in + size_t(k) * L.bytes;
  const uint32_t i = slots ? slots[k] : first + k;
  getRecordField(rec, L.at[kRecPos], a.pos, i);
  getRecordField(rec, L.at[kRecVelrho], a.velrho, i);
  getRecordField(rec, L.at[kRecVelrhoPre], a.velrhoPre, i);
  getRecordField(rec, L.at[kRecPosPre], a.posPre, i);
  getRecordField(rec, L.at[kRecCode], a.code, i);
  getRecordField(rec, L.at[kRecId], a.id, i);
  getRecordField(rec, L.at[kRecSpsTau], a.spsTau, i);
  getRecordField(rec, L.at[kRecNormal], a.normal, i);
  getRecordField(rec, L.at[kRecTangent], a.tangent, i);
  getRecordField(rec, L.at[kRecMotionAce], a.motionAce, i);
  getRecordField(rec, L.at[kRecPosLo], a.posLo, i);
  double to;
  copyRecordWords(&to, rec, sizeof to);
  double x[3];
  loadPosition(a.pos[i], positionLo(a.posLo, i), x);
  if (to != x[L.axis]) {
    const double shift = to - x[L.axis];
    x[L.axis] = to;
    storePosition(a.pos[i], positionLo(a.posLo, i), x);
    if (a.posPre) {
      Real4<T>& p = a.posPre[i];
      (L.axis == 0 ? p.x : L.axis == 1 ? p.y : p.z) += T(shift);
    }
  }
  a.code[i] = halo ? (a.code[i] | code::kHaloBit) : (a.code[i] & ~code::kHaloBit);
}

}  // namespace sph
