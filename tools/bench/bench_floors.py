"""Lower bounds on the time of the interaction (arithmetic) and of the sort and list build
(memory traffic), from the counts in run.json and the rates sph_calibrate measured.

Flops per pair are counted by hand from engine/include/sph/plugin/pair_physics.h and
engine/include/sph/plugin/sph_kernels.h (FLOP_TERMS below). Counting rule:
  - each floating-point add, subtract and multiply counts 1, so an FMA counts 2, as the
    calibration counts it;
  - each division, reciprocal and square root counts 1 (on the GPU they are slower, multi-
    instruction or special-function operations, so the floor is optimistic: a true lower bound);
  - comparisons, selects and max count 0;
  - what depends only on particle a or on constants counts 0 (1/rho_a, a's tensile term, the
    folded kernel constants: the compiler hoists them out of the neighbour loop), and a
    subexpression used twice (q = r/h) counts once.
The pair counted is the costliest common one: fluid a, fluid b, approaching (artificial
viscosity applies), 1 <= q < 2 (7/8 of the support volume in 3D). A boundary a gathers only
continuity (35 flops: terms 1-10) and a fluid a skips the density diffusion for a boundary b
(unless DensityDT=3); run.json does not split in-range pairs by particle type, so every pair is
costed as fluid-fluid: the floor slightly overstates the work of cases with many boundary pairs.
"""
import pathlib
import xml.etree.ElementTree as ET

# (term, flops, applies(kernel, ddt)); ddt 0 none, 1 Molteni-Colagrossi, 2/3 Fourtakas.
ALWAYS = lambda k, d: True  # noqa: E731
FLOP_TERMS = [
    ("r_ab = r_a - r_b", 3, ALWAYS),
    ("r^2 (3 mul, 2 add)", 5, ALWAYS),
    ("r = sqrt(r^2)", 1, ALWAYS),
    ("gradient factor, cubic: q = r/h, s = 2-q, gradB s^2 / r", 5, lambda k, d: k == "cubic"),
    ("gradient factor, Wendland: q = r/h, s = 1-q/2, gradA s^3", 6, lambda k, d: k != "cubic"),
    ("grad W = F r_ab", 3, ALWAYS),
    ("v_ab", 3, ALWAYS),
    ("1/(r^2 + eta^2)", 2, ALWAYS),
    ("v_ab . r_ab", 5, ALWAYS),
    ("v_ab . r_ab / (r^2 + eta^2)", 1, ALWAYS),
    ("continuity m_b v_ab . grad W, accumulated", 7, ALWAYS),
    ("1/rho_b", 1, ALWAYS),
    ("(P_a + P_b)/(rho_a rho_b)", 3, ALWAYS),
    ("tensile correction (W/Wdp)^4 (f_a + f_b)", 11, lambda k, d: k == "cubic"),
    ("artificial viscosity Pi_ab", 4, ALWAYS),
    ("-m_b (prs + Pi) grad W, accumulated (3 components)", 8, ALWAYS),
    ("density diffusion (rho_b - rho_a) term, accumulated", 8, lambda k, d: d >= 1),
    ("Fourtakas hydrostatic difference (5-term series)", 13, lambda k, d: d >= 2),
]
DDT_NAMES = {0: "none", 1: "Molteni-Colagrossi", 2: "Fourtakas", 3: "Fourtakas (full)"}


def flops_per_pair(kernel, ddt):
    return sum(f for _, f, applies in FLOP_TERMS if applies(kernel, ddt))


def flop_terms(kernel, ddt):
    return [(t, f) for t, f, applies in FLOP_TERMS if applies(kernel, ddt)]


REPO = pathlib.Path(__file__).resolve().parents[2]


def case_density_diffusion(case_path):
    """DensityDT from the case XML (run.json does not record it): the file named in run.json,
    else the bundled case of that name (results read on another machine); None when unreadable."""
    root = None
    for path in (pathlib.Path(case_path), REPO / "testcases" / pathlib.Path(case_path).name):
        try:
            root = ET.parse(path).getroot()
            break
        except (OSError, ET.ParseError):
            continue
    if root is None:
        return None
    for p in root.iter("parameter"):
        if p.get("key") == "DensityDT":
            try:
                return int(float(p.get("value", "")))
            except ValueError:
                return None
    return 0


def real_bytes(precision):
    return 8 if precision == "double" else 4


def sort_bytes_per_particle(run):
    """Bytes one re-sort must move at least once, per particle (engine/src/run/particle_state.h):
    keys (read the position, write key and index), the radix sort (read and write key and
    index once; CUB's radix sort makes one such pass per 8 key bits, counted once here), the
    gather of every particle array (read the index, read and write pos, velrho, velrhoPre,
    posPre with the symplectic integrator, code, id) and the cell start table (read the keys)."""
    r4 = 4 * real_bytes(run.precision)
    arrays = (4 if run.get("extra", {}).get("step_algorithm") == "symplectic" else 3) * r4 + 4 + 4
    return (r4 + 8) + 16 + (4 + 2 * arrays) + 4


def list_bytes(run, phase, calls, n):
    """Bytes a list-group phase must move at least once over its calls (verlet/gpu kernels)."""
    r4 = 4 * real_bytes(run.precision)
    if phase == "VL-Skin":  # top speed: read every velocity
        return calls * n * r4
    if phase == "VL-Check":  # displacement since the build: read the position and the reference
        return calls * n * 2 * r4
    if phase == "VL-Build":  # write the entries and lengths, read the positions and keys once
        length = run.stat("mean_list_length") or 0
        position = 16 if run.precision == "single" else 24  # float4; or double2 + double (3.4)
        return calls * n * (4 * length + 4 + position + 4)
    return 0


def in_range_per_particle(run):
    """In-range neighbours per particle (self excluded) at the end of the run, or None."""
    if run.stat("neighbours_per_particle") is not None:  # cell plugin
        return run.stat("neighbours_per_particle")
    length, ratio = run.stat("mean_list_length_last"), run.stat("in_support_ratio_last_lists")
    if length is not None and ratio is not None:  # verlet plugin: lists exclude self
        return length * ratio
    return None


def floors(run, calibration, pairs_fallback=None):
    """The floors of one run (seconds) and what they were computed from; None entries when a
    count or the calibration is missing."""
    n = run.active_particles
    kernel = run.get("extra", {}).get("kernel", "cubic")
    ddt = case_density_diffusion(run.get("case_path", ""))
    ddt_known = ddt is not None
    ddt = 2 if ddt is None else ddt
    per_particle = in_range_per_particle(run)
    source = run.strategy
    if per_particle is None and pairs_fallback is not None:
        per_particle, source = pairs_fallback, "cell run"
    passes = run.calls("CF-Forces")
    flops = flops_per_pair(kernel, ddt)
    out = {"kernel": kernel, "ddt": ddt, "ddt_known": ddt_known, "flops_per_pair": flops,
           "neighbours": per_particle, "pairs_source": source, "pairs": None,
           "interaction_floor": None, "sort_floor": None, "list_floor": None}
    if per_particle is not None:
        out["pairs"] = per_particle * n * passes
    if calibration is None:
        return out
    rate = calibration["fp64_flops_per_second" if run.precision == "double" else "fp32_flops_per_second"]
    bandwidth = calibration["copy_bytes_per_second"]
    if out["pairs"] is not None:
        out["interaction_floor"] = out["pairs"] * flops / rate
    sorts = run.calls("NL-RadixSort")
    out["sort_floor"] = sorts * n * sort_bytes_per_particle(run) / bandwidth
    lb = sum(list_bytes(run, p["name"], p["calls"], n) for p in run.data["phases"] if p["group"] == "list")
    out["list_floor"] = lb / bandwidth if lb else None
    return out
