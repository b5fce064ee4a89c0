// Wave paddles of a case's <special><wavepaddles> (DualSPHysics XML guide, "Wave paddles"): a
// piston or a flap of boundary particles driven so as to make regular waves of a given height
// and period in water of a given depth (<piston>, <flap>), or a piston pushing one or a few
// solitary waves (<piston_solitary>). Times are seconds, lengths metres, angles radians.
//
// The paddle's particles are a moving object of <motion> (its <objreal ref=...>, whose movement
// is usually a lone <mvnull>); the paddle's law is added to whatever that object's chain does.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "model/vec3d.h"

namespace sph {

enum class PaddleType { Piston, Flap };

// What the paddle makes: regular waves (<piston>, <flap>), solitary waves (<piston_solitary>,
// always a piston) or irregular waves of a spectrum (<piston_spectrum>, <flap_spectrum>, and the
// focused group of <piston_focused>).
enum class PaddleWaves { Regular, Solitary, Irregular };

// A focused wave group (DualSPHysics' <piston_focused>, its "NewWave" group after Whittaker et
// al. 2017): the spectrum's waves, with amplitudes shaped by the spectrum and phases that bring
// every crest to x in front of the paddle at one time (motion/paddle_irregular_law.h).
struct FocusedWaves {
  bool on = false;
  double x = 0;             // <xf>: the focus location (m in front of the paddle)
  double phase = 0;         // <fphase>, radians: 0 a crest at the focus, pi a trough
  double preTime = 5;       // <fpretime>: time added before the group reaches the focus
  double moveTime = 0;      // <fmovtime>: the paddle goes back to rest this long after the start (0: never)
  double moveRamp = 0;      // <fmovramp>: the motion ramps down over this time before moveTime
  double maxWaves = 1000;   // <maxwaveh nwaves>: the maximum wave height is that of this many waves
  double maxWavesTime = 0;  // <maxwaveh time>: or of the waves in this time (> 0 wins)
};

// The sea state of an irregular-wave paddle (DualSPHysics' <piston_spectrum>/<flap_spectrum>):
// the paddle's WavePaddle::height is the significant wave height Hs and its period the peak
// period Tp.
struct IrregularWaves {
  enum class Spectrum { Jonswap, PiersonMoskowitz } spectrum = Spectrum::Jonswap;
  // How the spectrum's frequency range is cut into the waves' bands (DualSPHysics' names):
  // equal bands (regular), bands of random widths (random), bands of about equal energy
  // (stretched) or frequencies clustered at the peak by a cosine (cosstretched).
  enum class Discretization { Regular, Random, Stretched, CosStretched } discretization = Discretization::Stretched;
  double peakCoef = 3.3;   // JONSWAP's peak enhancement gamma
  int waves = 50;          // number of component waves
  uint32_t seed = 0;       // <randomseed>: the phases (and random bands)
  double serieIni = 0;     // the time of the wave series the paddle starts from
  bool autofit = false;    // move serieIni on to where the paddle's position crosses zero
  double rampTime = 0;     // seconds over which the motion grows from zero
  // <saveserie>: the series (elevation at xpos, paddle position) from timeMin to timeMax every
  // timeDt, written to WavePaddle_mkbNNNN_Serie.csv; timeDt = 0: not asked for.
  double serieTimeMin = 0, serieTimeMax = 0, serieTimeDt = 0, serieX = 0;
  // <saveseriewaves>: the series' individual waves (zero up-crossing) at wavesX from wavesTimeMin
  // to wavesTimeMax, written to WavePaddle_mkbNNNN_SerieWaves_o1.csv and _o2.csv; wavesTimeMax = 0:
  // not asked for.
  double wavesTimeMin = 0, wavesTimeMax = 0, wavesX = 0;
  // <calcserielength>: how many waves the series holds from 0 to lengthTime; 0: not asked for.
  double lengthTime = 0;
  FocusedWaves focus;  // <piston_focused>
};

// The theory whose solitary wave the piston makes (<theory>; DualSPHysics' numbering).
enum class SolitaryTheory { Rayleigh = 1, Boussinesq = 2, KdV = 3 };

// One wave of a <piston_solitary>: the first wave's values come from <waveheight> and
// <durationcoef>, wave n's (n >= 2) from <waveheightN>, <durationcoefN>, <startcoefN>.
struct SolitaryWave {
  double height = 0;        // H
  double durationCoef = 1;  // multiplies the generation time of the theory
  double startCoef = 1;     // this wave starts startCoef generation times of the previous wave after it
};

// Where a length of the case file is measured from: metres (value=), or multiples of h
// (valueh=) or of dp (valuedp=), which DualSPHysics resolves once h and dp are known.
struct CaseLength {
  enum class Unit { Metres, H, Dp } unit = Unit::Metres;
  double value = 0;
  double metres(double h, double dp) const { return unit == Unit::H ? value * h : unit == Unit::Dp ? value * dp : value; }
};

// Active wave absorption of a piston (<awas_zsurf>, DualSPHysics' AWAS-Zsurf; Altomare et al.
// 2017): the free surface is measured every step just in front of the piston, and the piston's
// velocity gets sqrt(g/d) times the difference between the target elevation there (the theory of
// the waves the piston makes) and the measured one, so that waves coming back to the piston are
// absorbed instead of reflected.
struct PaddleAwas {
  int line = 0;                 // of <awas_zsurf>
  double start = -1;            // <startawas>; the reader's default: the end of the ramp
  double swl = 0;               // still-water level (z of the free surface at rest)
  int elevationOrder = 2;       // <elevation>: the order of the target elevation
  CaseLength gaugeX{CaseLength::Unit::Dp, 5};  // from the piston's front, along its direction
  double gaugeY = 0;
  std::optional<double> gaugeZMin, gaugeZMax;  // default: the domain's z limits
  double gaugeDp = 0.1;         // the gauge's points are gaugeDp x dp apart
  std::optional<double> massLimitCoef;         // default 0.5 (3D), 0.4 (2D) of a fluid particle's mass
  double limitAce = 2;          // the piston's acceleration is capped at limitAce x the theory's peak; 0: no cap
  int saveData = 0;             // <savedata>: 0 none, 1 a row per output part, 2 more, 3 a row per step
  // <correction>: DualSPHysics' drift correction. When the piston would pass coefStroke x the
  // first harmonic's amplitude S/2 from its rest position (for irregular waves, S/2 of a regular
  // wave of height Hs and period Tp), it is brought back by that distance over coefPeriod wave
  // periods, D(s) = limit (1 - (1 - s/Tc)^powerFunc).
  struct DriftCorrection {
    double coefStroke = 0;  // >= 1
    double coefPeriod = 0;  // > 0
    double powerFunc = 1;   // >= 1
  };
  std::optional<DriftCorrection> correction;  // none: no drift correction
};

// One <savemotion>: the paddle's law from its start, every `dt` seconds for `time` seconds.
// DualSPHysics' defaults: time the run's TimeMax, dt its TimeOut (for regular waves, periods and
// periodsteps give them in wave periods). xpos and zpos place DualSPHysics' columns of
// theoretical elevation and velocity, which the file here does not have.
struct PaddleSaveMotion {
  std::optional<double> time, dt;
  double xpos = 0;
  std::optional<double> zpos;
  int line = 0;
  // The span and interval with the run's TimeMax and TimeOut for what the case left out.
  double timeOr(double timeMax) const { return time.value_or(timeMax); }
  double dtOr(double timeOut) const { return dt.value_or(timeOut); }
  // One that gives both (as a case's time and timedt).
  static PaddleSaveMotion spanning(double time, double dt) {
    PaddleSaveMotion m;
    m.time = time;
    m.dt = dt;
    return m;
  }
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
  // Each <savemotion>: a file of the paddle's law sampled (paddle_output.h).
  std::vector<PaddleSaveMotion> saveMotions;
  // Pistons of regular or irregular waves only: active absorption.
  std::optional<PaddleAwas> awas;
  // Irregular waves (waves == Irregular): the spectrum and its discretization.
  IrregularWaves irregular;
};

}  // namespace sph
