#include "case/wave_paddles_reader.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <utility>
#include <string_view>

#include <fmt/format.h>

#include "motion/paddle_solitary_law.h"
#include "sph/plugin/errors.h"

namespace sph {
namespace {

// DualSPHysics paddles this engine does not make yet: refused by name.
constexpr std::string_view kUnsupportedPaddles[] = {"flap_solitary", "flap_focused"};

// Bounds on <waves> of a spectrum: DualSPHysics' examples take 1024; the paddle's law sums every
// wave each step, and at second order keeps a term per pair of waves (24 bytes each: 200 MB at
// 4096 waves).
constexpr int kMaxSpectrumWaves = 100000;
constexpr int kMaxSecondOrderWaves = 4096;

// A bound on <waves>, so that a typing slip cannot ask for a billion waves.
constexpr int kMaxSolitaryWaves = 1000;

// "waveheight3" -> ("waveheight", 3); wave numbers start at 2. Other names: ("", 0).
std::pair<std::string_view, int> numberedWaveElement(std::string_view name) {
  for (std::string_view base : {"waveheight", "durationcoef", "startcoef"}) {
    if (name.size() <= base.size() || name.substr(0, base.size()) != base) continue;
    const std::string_view digits = name.substr(base.size());
    if (digits.size() > 6 || digits.front() == '0' ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
      continue;
    const int n = std::stoi(std::string(digits));
    if (n >= 2) return {base, n};
  }
  return {"", 0};
}

class PaddleReader {
 public:
  explicit PaddleReader(const XmlReader& xml) : x_(xml) {}

  WavePaddle read(const XMLElement* e) {
    const bool flap = std::string_view(e->Name()) == "flap";
    if (flap)
      x_.onlyChildren(e, {"mkbound", "waveorder", "start", "duration", "depth", "variabledraft", "flapaxis0",
                          "flapaxis1", "waveheight", "waveperiod", "phase", "ramp", "gainstroke", "savemotion",
                          "awas_zsurf"});
    else
      x_.onlyChildren(e, {"mkbound", "waveorder", "start", "duration", "depth", "pistondir", "waveheight",
                          "waveperiod", "phase", "ramp", "gainstroke", "savemotion", "awas_zsurf", "fixeddepth"});
    if (const XMLElement* a = active(e, "awas_zsurf"); a && flap)
      x_.fail(a, "active wave absorption (AWAS) is for pistons (as in DualSPHysics)");
    if (const XMLElement* f = active(e, "fixeddepth"))
      x_.fail(f, "a depth at the paddle different from the flume's is not supported by this engine");
    WavePaddle p = readCommon(e, flap, PaddleWaves::Regular, "must be positive", "must be positive");
    p.phase = optional(e, "phase", 0) * std::numbers::pi;
    p.rampPeriods = optional(e, "ramp", 0);
    if (p.rampPeriods < 0) failValue(e, "ramp", "must not be negative");
    // DualSPHysics' second harmonic of a flap divides by d + 2 variabledraft.
    if (flap && p.order == 2 && std::abs(p.depth + 2 * p.draft) <= 1e-9 * p.depth)
      failValue(e, "variabledraft",
                fmt::format("-{:g} (half the depth) leaves the second order (waveorder 2) of the flap undefined",
                            p.depth / 2));
    readSaveMotions(e, p);
    if (const XMLElement* a = active(e, "awas_zsurf")) p.awas = readAwas(a, p);
    return p;
  }

  // <piston_spectrum> and <flap_spectrum>: irregular waves of a JONSWAP or Pierson-Moskowitz
  // spectrum, with DualSPHysics' defaults (stretched bands, 50 waves, gamma 3.3, seed 0). The
  // elements in the order of _FmtXML_WavePaddles.xml, each read and checked where it stands.
  WavePaddle readSpectrum(const XMLElement* e) {
    const bool flap = std::string_view(e->Name()) == "flap_spectrum";
    if (flap)
      x_.onlyChildren(e, {"mkbound", "start", "duration", "depth", "variabledraft", "flapaxis0", "flapaxis1",
                          "spectrum", "discretization", "waveorder", "waveheight", "waveperiod", "gainstroke",
                          "peakcoef", "waves", "randomseed", "serieini", "ramptime", "savemotion", "saveserie",
                          "saveseriewaves", "calcserielength", "awas_zsurf"});
    else
      x_.onlyChildren(e, {"mkbound", "start", "duration", "depth", "pistondir", "spectrum", "discretization",
                          "waveorder", "waveheight", "waveperiod", "gainstroke", "peakcoef", "waves", "randomseed",
                          "serieini", "ramptime", "savemotion", "saveserie", "saveseriewaves", "calcserielength",
                          "awas_zsurf"});
    if (const XMLElement* a = active(e, "awas_zsurf"); a && flap)
      x_.fail(a, "active wave absorption (AWAS) is for pistons (as in DualSPHysics)");
    WavePaddle p = readCommon(e, flap, PaddleWaves::Irregular, "must be positive: the significant wave height",
                              "must be positive: the peak period");
    readSeaState(e, p);
    IrregularWaves& w = p.irregular;
    // The second order's lever is depth + variabledraft (motion/paddle_second_order.h).
    if (flap && p.order == 2 && !(p.draft > -p.depth))
      failValue(e, "variabledraft",
                fmt::format("must be above minus the depth (-{:g}) with waveorder 2: the second order's lever is "
                            "depth + variabledraft",
                            p.depth));
    readSaveMotions(e, p);
    if (const XMLElement* s = active(e, "saveserie")) {
      x_.onlyChildren(s, {});
      w.serieTimeMin = x_.real(s, "timemin", 0);
      w.serieTimeMax = x_.real(s, "timemax");
      w.serieTimeDt = x_.real(s, "timedt");
      w.serieX = x_.real(s, "xpos", 0);
      if (!(w.serieTimeDt > 0) || !(w.serieTimeMax > w.serieTimeMin) || w.serieTimeMin < 0)
        x_.fail(s, "timedt must be positive and timemax above timemin (>= 0)");
      if ((w.serieTimeMax - w.serieTimeMin) / w.serieTimeDt > 1e7)
        x_.fail(s, "more than ten million samples: raise timedt or narrow timemin-timemax");
    }
    // Both analyse the series sampled every Tp/1000 (motion/paddle_irregular_serie.h).
    if (const XMLElement* s = active(e, "saveseriewaves")) {
      x_.onlyChildren(s, {});
      w.wavesTimeMin = x_.real(s, "timemin", 0);
      w.wavesTimeMax = x_.real(s, "timemax");
      w.wavesX = x_.real(s, "xpos", 0);
      if (!(w.wavesTimeMax > w.wavesTimeMin) || w.wavesTimeMin < 0) x_.fail(s, "timemax must be above timemin (>= 0)");
      if ((w.wavesTimeMax - w.wavesTimeMin) / (p.period / 1000) > 1e8)
        x_.fail(s, "more than 100 million samples of the series (one every waveperiod/1000): narrow timemin-timemax");
    }
    if (const XMLElement* s = active(e, "calcserielength")) {
      x_.onlyChildren(s, {});
      w.lengthTime = x_.real(s, "timemax");
      if (!(w.lengthTime > 0)) x_.fail(s, "timemax must be positive");
      if (w.lengthTime / (p.period / 1000) > 1e8)
        x_.fail(s, "more than 100 million samples of the series (one every waveperiod/1000): lower timemax");
    }
    if (const XMLElement* a = active(e, "awas_zsurf")) {
      p.awas = readAwas(a, p);
      // The second-order target sums every pair of waves each step, as the second-order motion does.
      if (p.awas->elevationOrder == 2 && w.waves > kMaxSecondOrderWaves)
        failValue(e, "waves", fmt::format("must be at most {} with a second-order absorption target (<elevation "
                                          "value=\"2\">, the default): it sums every pair of waves", kMaxSecondOrderWaves));
    }
    return p;
  }

  // <piston_focused>: a focused group of a spectrum's waves (model/case_wave_paddles.h), with
  // DualSPHysics' defaults (regular bands, 128 waves, fpretime 5, Nw 1000). As DualSPHysics,
  // <spectrum> and <randomseed> must be given; <maxwaveh> may appear twice, once with nwaves and
  // once with time.
  WavePaddle readFocused(const XMLElement* e) {
    if (const XMLElement* a = active(e, "awas_zsurf"))
      x_.fail(a, "active wave absorption (AWAS) is not available with focused waves (as in DualSPHysics)");
    x_.onlyChildren(e, {"mkbound", "depth", "start", "duration", "pistondir", "spectrum", "discretization",
                        "randomseed", "waveorder", "waveheight", "waveperiod", "gainstroke", "peakcoef", "waves", "xf",
                        "fphase", "maxwaveh", "ramptime", "fpretime", "fmovtime", "fmovramp", "savemotion"});
    WavePaddle p = readCommon(e, false, PaddleWaves::Irregular, "must be positive: the significant wave height",
                              "must be positive: the peak period");
    x_.child(e, "spectrum");
    x_.child(e, "randomseed");
    IrregularWaves& w = p.irregular;
    w.discretization = IrregularWaves::Discretization::Regular;
    readSeaState(e, p, 128);
    FocusedWaves& f = w.focus;
    f.on = true;
    f.x = required(e, "xf");
    f.phase = optional(e, "fphase", 0) * std::numbers::pi / 180;
    f.preTime = optional(e, "fpretime", 5);
    f.moveTime = optional(e, "fmovtime", 0);
    if (f.moveTime < 0) failValue(e, "fmovtime", "must not be negative (0: the paddle moves to the end)");
    f.moveRamp = optional(e, "fmovramp", 0);
    if (f.moveRamp < 0) failValue(e, "fmovramp", "must not be negative");
    for (const XMLElement* m = e->FirstChildElement("maxwaveh"); m; m = m->NextSiblingElement("maxwaveh")) {
      x_.onlyChildren(m, {});
      if (m->Attribute("nwaves")) f.maxWaves = x_.real(m, "nwaves");
      if (m->Attribute("time")) f.maxWavesTime = x_.real(m, "time");
      if (!m->Attribute("nwaves") && !m->Attribute("time")) x_.fail(m, "give nwaves or time");
    }
    const double count = f.maxWavesTime > 0 ? f.maxWavesTime / (p.period / 1.1) : f.maxWaves;
    if (!(count > 1))
      x_.fail(e->FirstChildElement("maxwaveh") ? e->FirstChildElement("maxwaveh") : e,
              fmt::format("the maximum wave height is that of {:g} waves: more than one is needed (Hmax = 0.706 Hs "
                          "sqrt(ln Nw))",
                          count));
    readSaveMotions(e, p);
    return p;
  }

  // The sea state of irregular waves, as paddles and relaxation zones give it: spectrum,
  // discretization, peakcoef, waves, randomseed, serieini and ramptime, with DualSPHysics'
  // defaults; p.order must be read before.
  void readSeaState(const XMLElement* e, WavePaddle& p, int defaultWaves = 50) {
    IrregularWaves& w = p.irregular;
    if (const XMLElement* s = active(e, "spectrum")) {
      const std::string_view v = x_.attr(s, "value");
      if (v == "jonswap") w.spectrum = IrregularWaves::Spectrum::Jonswap;
      else if (v == "pierson-moskowitz") w.spectrum = IrregularWaves::Spectrum::PiersonMoskowitz;
      else x_.fail(s, fmt::format("value=\"{}\" is not a spectrum: jonswap or pierson-moskowitz", v));
    }
    if (const XMLElement* s = active(e, "discretization")) {
      const std::string_view v = x_.attr(s, "value");
      using D = IrregularWaves::Discretization;
      if (v == "regular") w.discretization = D::Regular;
      else if (v == "random") w.discretization = D::Random;
      else if (v == "stretched") w.discretization = D::Stretched;
      else if (v == "cosstretched") w.discretization = D::CosStretched;
      else x_.fail(s, fmt::format("value=\"{}\" is not a discretization: regular, random, stretched or cosstretched", v));
    }
    w.peakCoef = optional(e, "peakcoef", 3.3);
    if (!(w.peakCoef >= 1)) failValue(e, "peakcoef", "must be at least 1 (1: Pierson-Moskowitz's shape)");
    const double waves = optional(e, "waves", defaultWaves);
    if (!(waves >= 1 && waves <= kMaxSpectrumWaves) || waves != std::floor(waves))
      failValue(e, "waves", fmt::format("must be a whole number between 1 and {}", kMaxSpectrumWaves));
    w.waves = int(waves);
    if (p.order == 2 && w.waves > kMaxSecondOrderWaves)
      failValue(e, "waves", fmt::format("must be at most {} with waveorder 2: the second order sums every pair of "
                                        "waves", kMaxSecondOrderWaves));
    const double seed = optional(e, "randomseed", 0);
    if (!(seed >= 0 && seed <= 4294967295.0) || seed != std::floor(seed))
      failValue(e, "randomseed", "must be a whole number between 0 and 4294967295");
    w.seed = uint32_t(seed);
    if (const XMLElement* s = active(e, "serieini")) {
      w.serieIni = x_.real(s, "value");
      w.autofit = x_.boolean(s, "autofit", false);
    }
    w.rampTime = optional(e, "ramptime", 0);
    if (w.rampTime < 0) failValue(e, "ramptime", "must not be negative");
  }

  // <piston_solitary>: one wave from <waveheight> and <durationcoef>, or <waves> of them, wave n
  // taking <waveheightN>, <durationcoefN> (both default to wave n-1's) and <startcoefN>
  // (default 1).
  WavePaddle readSolitary(const XMLElement* e) {
    WavePaddle p;
    p.type = PaddleType::Piston;
    p.waves = PaddleWaves::Solitary;
    p.line = e->GetLineNum();
    const double waves = optional(e, "waves", 1);
    if (!(waves >= 1 && waves <= kMaxSolitaryWaves) || waves != std::floor(waves))
      failValue(e, "waves", fmt::format("must be a whole number between 1 and {}", kMaxSolitaryWaves));
    const int count = int(waves);
    for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
      if (skipped(c)) continue;
      const std::string_view name = c->Name();
      constexpr std::string_view kFixed[] = {"mkbound",      "theory",    "start",      "depth", "waveheight",
                                             "durationcoef", "pistondir", "savemotion", "waves"};
      if (std::find(std::begin(kFixed), std::end(kFixed), name) != std::end(kFixed)) continue;
      const int n = numberedWaveElement(name).second;
      if (n == 0) x_.unknown(c, e);
      if (n > count) x_.fail(c, fmt::format("is for wave {}, but <waves> is {}", n, count));
    }
    p.mkbound = x_.integer(x_.child(e, "mkbound"), "value");
    const double theory = optional(e, "theory", 2);
    if (theory != 1 && theory != 2 && theory != 3)
      failValue(e, "theory", "must be 1 (Rayleigh), 2 (Boussinesq) or 3 (KdV)");
    p.theory = SolitaryTheory(int(theory));
    p.start = optional(e, "start", 0);
    if (p.start < 0) failValue(e, "start", "must not be negative");
    p.depth = required(e, "depth");
    if (!(p.depth > 0)) failValue(e, "depth", "must be positive: the still-water depth at the paddle");
    SolitaryWave w;
    w.height = required(e, "waveheight");
    w.durationCoef = optional(e, "durationcoef", 1);
    for (int n = 1; n <= count; ++n) {
      const std::string suffix = n == 1 ? "" : std::to_string(n);
      const std::string height = "waveheight" + suffix, duration = "durationcoef" + suffix;
      if (n > 1) {
        w.height = optional(e, height.c_str(), w.height);
        w.durationCoef = optional(e, duration.c_str(), w.durationCoef);
        const std::string start = "startcoef" + suffix;
        w.startCoef = optional(e, start.c_str(), 1);
        if (w.startCoef < 0) failValue(e, start.c_str(), "must not be negative");
      }
      if (!(w.height > 0)) failValue(e, height.c_str(), "must be positive");
      if (!(w.durationCoef > 0)) failValue(e, duration.c_str(), "must be positive");
      p.solitary.push_back(w);
    }
    if (const XMLElement* d = e->FirstChildElement("pistondir")) p.direction = unit(d);
    readSaveMotions(e, p);
    return p;
  }

 private:
  const XMLElement* active(const XMLElement* e, const char* name) const { return e->FirstChildElement(name); }

  Vec3d unit(const XMLElement* d) const {
    const Vec3d v = x_.vec(d);
    const double len = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
    if (!(len > 0)) x_.fail(d, "the direction is zero");
    return {v.x / len, v.y / len, v.z / len};
  }

  double required(const XMLElement* e, const char* name) const { return x_.real(x_.child(e, name), "value"); }
  double optional(const XMLElement* e, const char* name, double fallback) const {
    const XMLElement* c = e->FirstChildElement(name);
    return c ? x_.real(c, "value") : fallback;
  }
  [[noreturn]] void failValue(const XMLElement* e, const char* name, std::string_view why) const {
    const XMLElement* c = e->FirstChildElement(name);
    if (!c) x_.fail(e, fmt::format("<{}>: {}", name, why));
    x_.fail(c, fmt::format("value=\"{}\" {}", c->Attribute("value") ? c->Attribute("value") : "", why));
  }

  // What regular and irregular paddles share: mkbound, waveorder, start, duration, depth, the wave
  // height and period (whose messages say what they are), gainstroke, and the flap's hinge axis
  // and variabledraft or the piston's direction.
  WavePaddle readCommon(const XMLElement* e, bool flap, PaddleWaves waves, const char* heightRule,
                        const char* periodRule) const {
    WavePaddle p;
    p.type = flap ? PaddleType::Flap : PaddleType::Piston;
    p.waves = waves;
    p.line = e->GetLineNum();
    p.mkbound = x_.integer(x_.child(e, "mkbound"), "value");
    // Checked as read, before any conversion to an integer.
    const double order = optional(e, "waveorder", 1);
    if (order != 1 && order != 2) failValue(e, "waveorder", "must be 1 or 2");
    p.order = int(order);
    p.start = optional(e, "start", 0);
    if (p.start < 0) failValue(e, "start", "must not be negative");
    p.duration = optional(e, "duration", 0);
    if (p.duration < 0) failValue(e, "duration", "must not be negative (0: to the end of the run)");
    p.depth = required(e, "depth");
    if (!(p.depth > 0)) failValue(e, "depth", "must be positive: the still-water depth at the paddle");
    p.height = required(e, "waveheight");
    if (!(p.height > 0)) failValue(e, "waveheight", heightRule);
    p.period = required(e, "waveperiod");
    if (!(p.period > 0)) failValue(e, "waveperiod", periodRule);
    p.gainStroke = optional(e, "gainstroke", 1);
    if (!(p.gainStroke > 0)) failValue(e, "gainstroke", "must be positive");
    if (flap) {
      p.axis0 = x_.vec(x_.child(e, "flapaxis0"));
      p.axis1 = x_.vec(x_.child(e, "flapaxis1"));
      const Vec3d u{p.axis1.x - p.axis0.x, p.axis1.y - p.axis0.y, p.axis1.z - p.axis0.z};
      if (!(u.x * u.x + u.y * u.y + u.z * u.z > 0))
        x_.fail(x_.child(e, "flapaxis1"), "flapaxis0 and flapaxis1 are the same point: no hinge axis");
      p.draft = optional(e, "variabledraft", 0);
      if (!(p.draft < p.depth))
        failValue(e, "variabledraft", fmt::format("must be below the depth ({}): the hinge must be under water", p.depth));
    } else if (const XMLElement* d = e->FirstChildElement("pistondir")) {
      p.direction = unit(d);
    }
    return p;
  }

  // <awas_zsurf> with DualSPHysics' defaults.
  PaddleAwas readAwas(const XMLElement* a, const WavePaddle& p) const {
    x_.onlyChildren(a, {"startawas", "swl", "elevation", "gaugex", "gaugey", "gaugezmin", "gaugezmax", "gaugedp",
                        "coefmasslimit", "savedata", "limitace", "correction"});
    // The gauge stands in front of the piston along x, as in DualSPHysics.
    if (p.direction.x != 1 || p.direction.y != 0 || p.direction.z != 0)
      x_.fail(a, "active wave absorption needs a piston moving along x (<pistondir x=\"1\" y=\"0\" z=\"0\">)");
    PaddleAwas w;
    w.line = a->GetLineNum();
    const double rampEnd =
        p.start + (p.waves == PaddleWaves::Irregular ? p.irregular.rampTime : p.rampPeriods * p.period);
    w.start = optional(a, "startawas", rampEnd);
    // DualSPHysics refuses the same: the ramp's target elevation is not the theory's.
    if (w.start < rampEnd)
      failValue(a, "startawas", fmt::format("must not be before the end of the ramp ({:g} s): AWAS begins after the "
                                            "initial ramp of the waves, as in DualSPHysics", rampEnd));
    w.swl = required(a, "swl");
    const double elevation = optional(a, "elevation", 2);
    if (elevation != 1 && elevation != 2) failValue(a, "elevation", "must be 1 or 2");
    w.elevationOrder = int(elevation);
    if (const XMLElement* g = active(a, "gaugex")) w.gaugeX = length(g);
    if (!(w.gaugeX.value > 0)) x_.fail(x_.child(a, "gaugex"), "must be positive: the gauge is in front of the piston");
    w.gaugeY = optional(a, "gaugey", 0);
    if (const XMLElement* z = active(a, "gaugezmin")) w.gaugeZMin = x_.real(z, "value");
    if (const XMLElement* z = active(a, "gaugezmax")) w.gaugeZMax = x_.real(z, "value");
    if (w.gaugeZMin && w.gaugeZMax && !(*w.gaugeZMin < *w.gaugeZMax))
      failValue(a, "gaugezmax", fmt::format("must be above gaugezmin ({:g})", *w.gaugeZMin));
    w.gaugeDp = optional(a, "gaugedp", 0.1);
    if (!(w.gaugeDp > 0)) failValue(a, "gaugedp", "must be positive");
    if (const XMLElement* c = active(a, "coefmasslimit")) {
      w.massLimitCoef = x_.real(c, "value");
      if (!(*w.massLimitCoef > 0 && *w.massLimitCoef < 1)) failValue(a, "coefmasslimit", "must be between 0 and 1");
    }
    const double saveData = optional(a, "savedata", 0);
    if (saveData != 0 && saveData != 1 && saveData != 2 && saveData != 3)
      failValue(a, "savedata", "must be 0, 1, 2 or 3");
    w.saveData = int(saveData);
    w.limitAce = optional(a, "limitace", 2);
    if (w.limitAce < 0) failValue(a, "limitace", "must not be negative (0: no limit)");
    if (const XMLElement* c = active(a, "correction")) w.correction = readDriftCorrection(c);
    return w;
  }

  // <correction coefstroke coefperiod powerfunc>, with DualSPHysics' defaults and limits. As in
  // DualSPHysics, the element is off when it gives neither coefstroke nor coefperiod.
  std::optional<PaddleAwas::DriftCorrection> readDriftCorrection(const XMLElement* c) const {
    if (!c->Attribute("coefstroke") && !c->Attribute("coefperiod")) return std::nullopt;
    PaddleAwas::DriftCorrection d;
    d.coefStroke = x_.real(c, "coefstroke", 0);
    d.coefPeriod = x_.real(c, "coefperiod", 0);
    d.powerFunc = x_.real(c, "powerfunc", 1);
    if (!(d.coefStroke >= 1))
      x_.fail(c, fmt::format("coefstroke=\"{:g}\" must be at least 1: the piston is corrected only beyond its "
                             "stroke's half (coefstroke x S/2 from rest)", d.coefStroke));
    if (!(d.coefPeriod > 0))
      x_.fail(c, fmt::format("coefperiod=\"{:g}\" must be positive: the correction lasts coefperiod wave periods",
                             d.coefPeriod));
    if (!(d.powerFunc >= 1)) x_.fail(c, fmt::format("powerfunc=\"{:g}\" must be at least 1", d.powerFunc));
    return d;
  }

  // value="metres", valueh="multiples of h" or valuedp="multiples of dp".
  CaseLength length(const XMLElement* e) const {
    const int given = (e->Attribute("value") ? 1 : 0) + (e->Attribute("valueh") ? 1 : 0) + (e->Attribute("valuedp") ? 1 : 0);
    if (given != 1) x_.fail(e, "give exactly one of value (metres), valueh (times h) and valuedp (times dp)");
    if (e->Attribute("valueh")) return {CaseLength::Unit::H, x_.real(e, "valueh")};
    if (e->Attribute("valuedp")) return {CaseLength::Unit::Dp, x_.real(e, "valuedp")};
    return {CaseLength::Unit::Metres, x_.real(e, "value")};
  }

  // Either time="T" timedt="DT" or periods="N" periodsteps="M" (DualSPHysics; regular waves
  // only); xpos and zpos place DualSPHysics' theoretical elevation and velocity columns, which
  // are not written here.
  // Every <savemotion> (each its own file, as in DualSPHysics), with DualSPHysics' defaults: the
  // run's TimeMax and TimeOut where time, timedt (periods, periodsteps for regular waves) are
  // left out; they are resolved when the run starts.
  void readSaveMotions(const XMLElement* e, WavePaddle& p) const {
    for (const XMLElement* s = e->FirstChildElement("savemotion"); s; s = s->NextSiblingElement("savemotion")) {
      if (skipped(s)) continue;
      p.saveMotions.push_back(readSaveMotion(x_, s, p.period, p.waves == PaddleWaves::Regular));
    }
  }

  const XmlReader& x_;
};

}  // namespace

PaddleSaveMotion readSaveMotion(const XmlReader& x, const XMLElement* s, double period, bool regular) {
  x.onlyChildren(s, {});
  PaddleSaveMotion m;
  m.line = s->GetLineNum();
  if ((s->Attribute("periods") || s->Attribute("periodsteps")) && !regular)
    x.fail(s, "periods and periodsteps are for regular waves: give time and timedt");
  if (s->Attribute("periods")) {
    const double periods = x.real(s, "periods");
    if (!(periods > 0)) x.fail(s, "periods must be positive");
    m.time = periods * period;
  } else if (s->Attribute("time")) {
    m.time = x.real(s, "time");
    if (!(*m.time > 0)) x.fail(s, "time must be positive");
  }
  if (s->Attribute("periodsteps")) {
    const double steps = x.real(s, "periodsteps");
    if (!(steps >= 1)) x.fail(s, "periodsteps must be at least 1");
    m.dt = period / std::floor(steps);
  } else if (s->Attribute("timedt")) {
    m.dt = x.real(s, "timedt");
    if (!(*m.dt > 0)) x.fail(s, "timedt must be positive");
  }
  if (m.time && m.dt && *m.time / *m.dt > 1e7) x.fail(s, "more than ten million samples: raise timedt or lower time");
  m.xpos = x.real(s, "xpos", 0);
  if (s->Attribute("zpos")) m.zpos = x.real(s, "zpos");
  return m;
}

void readIrregularSeaState(const XmlReader& xml, const XMLElement* e, WavePaddle& p) {
  PaddleReader(xml).readSeaState(e, p);
}

void readWavePaddles(const XmlReader& xml, const XMLElement* wavepaddles, std::vector<WavePaddle>& out) {
  PaddleReader reader(xml);
  for (const XMLElement* e = wavepaddles->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string_view name = e->Name();
    if (skipped(e)) continue;
    if (name == "piston" || name == "flap") {
      out.push_back(reader.read(e));
    } else if (name == "piston_solitary") {
      out.push_back(reader.readSolitary(e));
    } else if (name == "piston_spectrum" || name == "flap_spectrum") {
      out.push_back(reader.readSpectrum(e));
    } else if (name == "piston_focused") {
      out.push_back(reader.readFocused(e));
    } else if (std::find(std::begin(kUnsupportedPaddles), std::end(kUnsupportedPaddles), name) !=
               std::end(kUnsupportedPaddles)) {
      xml.fail(e,
               "this wave paddle is not supported by this engine (supported: <piston> and <flap>, regular waves, "
               "<piston_spectrum> and <flap_spectrum>, irregular waves, <piston_focused> and <piston_solitary>)");
    } else {
      xml.unknown(e, wavepaddles);
    }
  }
}

void attachWavePaddles(const std::string& path, const std::vector<WavePaddle>& paddles, CaseDefinition& c) {
  const Vec3d& g = c.constants.gravity;
  const double gravity = std::sqrt(g.x * g.x + g.y * g.y + g.z * g.z);
  for (const WavePaddle& p : paddles) {
    const bool flap = p.type == PaddleType::Flap;
    const char* element = p.waves == PaddleWaves::Solitary    ? "piston_solitary"
                          : p.irregular.focus.on              ? "piston_focused"
                          : p.waves == PaddleWaves::Irregular ? (flap ? "flap_spectrum" : "piston_spectrum")
                          : flap                              ? "flap"
                                                              : "piston";
    MotionObject* object = motionObjectOf(c, p.mkbound);
    if (!object)
      throw InputError(
          fmt::format("{}:{}: <{}>: mkbound {} has no <motion> object: a paddle moves the particles of "
                      "an <objreal ref=\"{}\"> (with <mvnull>), as in DualSPHysics",
                      path, p.line, element, p.mkbound, p.mkbound));
    if (object->parent >= 0)
      throw InputError(fmt::format("{}:{}: <{}>: mkbound {} is nested in another motion object (line {}): a wave "
                                   "paddle on a nested object is not supported by this engine",
                                   path, p.line, element, p.mkbound, object->line));
    if (object->paddle)
      throw InputError(fmt::format("{}:{}: <{}>: mkbound {} already has the wave paddle of line {}", path, p.line,
                                   element, p.mkbound, object->paddle->line));
    if (!(gravity > 0))
      throw InputError(
          fmt::format("{}:{}: <{}>: a wave paddle needs gravity: the case's <gravity> is zero", path, p.line, element));
    object->paddle = p;
    object->paddle->gravity = gravity;
    if (p.waves == PaddleWaves::Solitary) {
      // The durations need gravity. As DualSPHysics, a wave may overlap the one before it only.
      const SolitaryPaddleLaw law(*object->paddle);
      const std::vector<SolitaryPaddleLaw::Wave>& w = law.waves();
      for (size_t i = 2; i < w.size(); ++i)
        if (w[i].start < w[i - 2].start + w[i - 2].duration)
          throw InputError(fmt::format(
              "{}:{}: <{}>: wave {} starts at {:.6g} s, before wave {} ends ({:.6g} s): "
              "three waves may not overlap (raise <startcoef{}> or <startcoef{}>)",
              path, p.line, element, i + 1, w[i].start, i - 1, w[i - 2].start + w[i - 2].duration, i, i + 1));
    }
  }
}

}  // namespace sph
