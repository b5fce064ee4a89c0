// Wave paddles of a case's <special><wavepaddles> (DualSPHysics XML guide, "Wave paddles"): a
// piston or a flap of boundary particles driven so as to make regular waves of a given height
// and period in water of a given depth (<piston>, <flap>), or a piston pushing one or a few
// solitary waves (<piston_solitary>). Times are seconds, lengths metres, angles radians.
//
// The paddle's particles are a moving object of <motion> (its <objreal ref=...>, whose movement
// is usually a lone <mvnull>); the paddle's law is added to whatever that object's chain does.
#pragma once

#include <vector>

#include "sph/vec3d.h"

namespace sph {

enum class PaddleType { Piston, Flap };

// What the paddle makes: regular waves (<piston>, <flap>) or solitary waves (<piston_solitary>,
// always a piston).
enum class PaddleWaves { Regular, Solitary };

// The theory whose solitary wave the piston makes (<theory>; DualSPHysics' numbering).
enum class SolitaryTheory { Rayleigh = 1, Boussinesq = 2, KdV = 3 };

// One wave of a <piston_solitary>: the first wave's values come from <waveheight> and
// <durationcoef>, wave n's (n >= 2) from <waveheightN>, <durationcoefN>, <startcoefN>.
struct SolitaryWave {
  double height = 0;        // H
  double durationCoef = 1;  // multiplies the generation time of the theory
  double startCoef = 1;     // this wave starts startCoef generation times of the previous wave after it
};

struct WavePaddle {
  PaddleType type = PaddleType::Piston;
  PaddleWaves waves = PaddleWaves::Regular;
  int mkbound = 0;
  int line = 0;              // line of <piston>/<flap>/<piston_solitary> in the case file (messages)
  int order = 1;             // 1: Biesel's linear theory; 2: plus the second harmonic
  double start = 0;          // when the paddle starts
  double duration = 0;       // how long it moves; 0: to the end of the run
  double depth = 0;          // still-water depth at the paddle
  double height = 0;         // wave height H
  double period = 0;         // wave period T
  double phase = 0;          // initial phase, radians (the XML gives it in units of pi)
  double rampPeriods = 0;    // the amplitude grows over this many periods from the start
  double gainStroke = 1;     // multiplies the first-order stroke
  double gravity = 9.81;     // |g| of the case, for the dispersion relation
  Vec3d direction{1, 0, 0};  // piston: unit direction of its motion
  Vec3d axis0, axis1;        // flap: hinge axis, positive angles turn right-handed about axis0 -> axis1
  double draft = 0;          // flap: DualSPHysics' <variabledraft>, the hinge's offset from the bottom
  // Solitary waves (waves == Solitary): the theory and the waves in order; of the fields above
  // only mkbound, line, start, depth, gravity and direction apply.
  SolitaryTheory theory = SolitaryTheory::Boussinesq;
  std::vector<SolitaryWave> solitary;
  // <savemotion>: the paddle's law sampled every `saveDt` seconds up to `saveTime` is written to
  // the output folder (WavePaddle_mkbNNNN.csv); saveTime = 0: not asked for.
  double saveTime = 0, saveDt = 0;
};

}  // namespace sph
