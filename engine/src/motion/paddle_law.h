// The law of any wave paddle (model/case_wave_paddles.h): regular waves (motion/paddle_regular_law.h),
// solitary waves (motion/paddle_solitary_law.h) or irregular waves (motion/paddle_irregular_law.h), chosen by the
// paddle's `waves`. A value type, so that the
// motion kinematics can copy it.
#pragma once

#include <limits>
#include <variant>

#include "motion/paddle_irregular_law.h"
#include "motion/paddle_regular_law.h"
#include "motion/paddle_solitary_law.h"

namespace sph {

class PaddleLaw {
 public:
  explicit PaddleLaw(const WavePaddle& p) : law_(make(p)) {}

  // The piston's displacement along its direction (m) or the flap's angle (rad) at time t.
  double at(double t) const {
    return std::visit([t](const auto& l) { return l.at(t); }, law_);
  }
  // When the paddle stops for good (infinity: it moves to the end of the run).
  double end() const {
    return std::visit([](const auto& l) { return l.end(); }, law_);
  }

  const RegularPaddleLaw* regular() const { return std::get_if<RegularPaddleLaw>(&law_); }
  const SolitaryPaddleLaw* solitary() const { return std::get_if<SolitaryPaddleLaw>(&law_); }
  const IrregularPaddleLaw* irregular() const { return std::get_if<IrregularPaddleLaw>(&law_); }

 private:
  using Law = std::variant<RegularPaddleLaw, SolitaryPaddleLaw, IrregularPaddleLaw>;
  static Law make(const WavePaddle& p) {
    if (p.waves == PaddleWaves::Solitary) return SolitaryPaddleLaw(p);
    if (p.waves == PaddleWaves::Irregular) return IrregularPaddleLaw(p);
    return RegularPaddleLaw(p);
  }

  Law law_;
};

}  // namespace sph
