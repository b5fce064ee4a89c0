"""Which official DualSPHysics example cases our engine loads, runs or refuses, as a markdown table.

  python3 tools/dualsphysics/examples_table.py [--sph BIN] [--gencase BIN] [--reference DIR]
          [--out FILE] [--jobs N] [--steps N] [--cases GLOB ...]

For every `*_Def.xml` of REFERENCE/dualsphysics-examples/main/*/ and
REFERENCE/dualsphysics-benchmark/Spheric2Dam_*_Def.xml (GLOB filters on "folder/case", e.g.
'14_DEM/*' or '*Dambreak*'), in a temporary copy of the case's folder:
1. a coarse dp: the case's own `<definition dp>`, doubled until GenCase makes at most --max-np
   particles (the doublings are estimated from the last count, at most 8 GenCase runs);
   the copy's `<definition dp>` is rewritten, so GenCase and our engine read the same file;
2. GenCase's per-mk counts (`<fixed|moving|floating|fluid mk= count=>` of its CASE.xml) and
   `sph info`'s (`  mk N  boundary|fluid  COUNT`), or our refusal ("line N: <element>: message");
3. if ours loads, `sph run --device cpu --steps N --no-vtk --quiet` on cpu_count/jobs threads;
4. the same run of GenCase's output (out/CASE.xml with CASE.bi4), when GenCase made it.
Writes the table (folder, case, dp, GenCase and our particles, per-mk counts equal, the run, the
refusal) under a summary with the date, the engine commit and this command. Folder names (NN_Name)
that the examples' README.md files mention but the reference copy lacks are listed as "not in the
reference copy". Needs Python 3 (standard library) and GenCase_linux64 (with its libgomp).
"""
import argparse, collections, concurrent.futures, datetime, fnmatch, glob, json, math, os, re
import shlex, shutil, subprocess, sys, tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DP_RE = re.compile(r'(<definition\b[^>]*?\bdp=")([^"]*)(")')
GC_RE = re.compile(r'<(fixed|moving|floating|fluid)\b([^>]*)>')
ATTR_RE = re.compile(r'(\w+)="([^"]*)"')
MK_RE = re.compile(r'^\s+mk\s+(\d+)\s+(boundary|fluid)\s+(\d+)\s*$', re.M)
TEMPLATE_HEADING = "## GenCase's commands of the format reference"
ERR_RE = re.compile(r'sph: error: (?:(.*?):(\d+): )?(.*)')


def cases(ref, globs):
    found = sorted(glob.glob(os.path.join(ref, "dualsphysics-examples", "main", "*", "*_Def.xml")))
    found += sorted(glob.glob(os.path.join(ref, "dualsphysics-benchmark", "Spheric2Dam_*_Def.xml")))
    out = []
    for path in found:
        key = os.path.basename(os.path.dirname(path)) + "/" + os.path.basename(path)[:-len("_Def.xml")]
        if not globs or any(fnmatch.fnmatch(key, g) for g in globs):
            out.append((key, path))
    return out


def missing_folders(ref):
    """NN_Name folders the examples' README.md files mention that the reference copy lacks."""
    base = os.path.join(ref, "dualsphysics-examples")
    have = set(os.listdir(os.path.join(base, "main")))
    named = set()
    for readme in (os.path.join(base, "README.md"), os.path.join(base, "main", "README.md")):
        if os.path.isfile(readme):
            named |= set(re.findall(r"\b\d\d_[A-Za-z]\w*", open(readme).read()))
    return sorted(named - have)


def sh(cmd, cwd, timeout, env=None):
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return -1, f"timed out after {timeout} s"


def gencase(args, work, name, dp, text):
    """Writes the case at dp, runs GenCase: (total, {mk: count}, data2d) or an error string."""
    with open(os.path.join(work, name + "_Def.xml"), "w") as f:
        f.write(DP_RE.sub(lambda m: m.group(1) + f"{dp:.10g}" + m.group(3), text, count=1))
    shutil.rmtree(os.path.join(work, "out"), ignore_errors=True)
    env = dict(os.environ)
    libs = [d for d in (os.path.dirname(args.gencase), os.path.join(REPO, ".devcarry", "dsph")) if os.path.isdir(d)]
    env["LD_LIBRARY_PATH"] = ":".join(libs + [env.get("LD_LIBRARY_PATH", "")]).rstrip(":")
    rc, log = sh([args.gencase, name + "_Def", "out/" + name, f"-ompthreads:{args.threads}"], work, 1800, env)
    xml = os.path.join(work, "out", name + ".xml")
    if rc != 0 or not os.path.isfile(xml):
        text = re.search(r"^Text: (.*)$", log, re.M)
        row = re.search(r"^File: .*\(row:(\d+)\)", log, re.M)
        lines = [l.strip() for l in log.splitlines() if re.search(r"exception|error", l, re.I)]
        msg = text.group(1) if text else lines[0] if lines else (log.strip().splitlines() or [f"exit {rc}"])[-1]
        return ((f"line {row.group(1)}: " if row else "") + msg.strip())[:200]
    out = open(xml).read()
    counts = {}
    for _, attrs in GC_RE.findall(out):
        a = dict(ATTR_RE.findall(attrs))
        if "mk" in a and "count" in a:
            counts[int(a["mk"])] = counts.get(int(a["mk"]), 0) + int(a["count"])
    np_ = re.search(r'<particles\b[^>]*\bnp="(\d+)"', out)
    return (int(np_.group(1)) if np_ else sum(counts.values())), counts, 'data2d value="true"' in out


def one_case(args, key, path):
    r = {"key": key, "folder": key.split("/")[0], "case": key.split("/")[1]}
    name = os.path.basename(path)[:-len(".xml")][:-len("_Def")]
    text = open(path).read()
    m = DP_RE.search(text)
    with tempfile.TemporaryDirectory(prefix="extable_") as tmp:
        work = os.path.join(tmp, "case")
        shutil.copytree(os.path.dirname(path), work, copy_function=shutil.copyfile)
        for d, _, _ in os.walk(work):
            os.chmod(d, 0o755)
        if not m:
            r["refusal"] = "no <definition dp> in the case"
            return r
        dp0 = dp = float(m.group(2))
        for attempt in range(8):  # coarsen until GenCase's count fits
            gc = gencase(args, work, name, dp, text)
            if isinstance(gc, str) or gc[0] <= args.max_np or attempt == 7:
                break
            doublings = max(1, int(math.log2(gc[0] / args.max_np) / (2 if gc[2] else 3)))
            dp *= 2 ** doublings
        r["dp"], r["factor"], r["gc"] = dp, round(dp / dp0), gc
        if isinstance(gc, tuple):  # GenCase's output itself, as a DualSPHysics user has it
            r["gc_run"] = run_steps(args, work, os.path.join("out", name + ".xml"), "run-gencase")
        rc, log = sh([args.sph, "info", name + "_Def.xml"], work, 600)
        if rc != 0:
            e = ERR_RE.search(log)
            msg = (f"line {e.group(2)}: " if e and e.group(2) else "") + (e.group(3) if e else log.strip()[-200:])
            el = re.match(r"\s*(<[^>]+>)", e.group(3)) if e else None
            r["refusal"], r["feature"] = msg.strip(), (el.group(1) if el else msg.strip()[:80])
            return r
        r["ours"] = {int(mk): int(n) for mk, _, n in MK_RE.findall(log)}
        tot = re.search(r"^particles\s+(\d+)", log, re.M)
        r["ours_np"] = int(tot.group(1)) if tot else sum(r["ours"].values())
        r["run"] = run_steps(args, work, name + "_Def.xml", "run")
    return r


def run_steps(args, work, case_file, out):
    """`sph run` of a case for --steps steps on the CPU: "ok", "ok (N steps)", "refused: ..." or "failed: ..."."""
    rc, log = sh([args.sph, "run", case_file, "--device", "cpu", "--steps", str(args.steps),
                  "--threads", str(args.threads), "--no-vtk", "--quiet", "--out", out], work, 3600)
    rep = {}
    if os.path.isfile(os.path.join(work, out, "run.json")):
        rep = json.load(open(os.path.join(work, out, "run.json")))
    if rc == 0 and rep.get("status") == "completed":
        return "ok" if rep.get("steps") == args.steps else f"ok ({rep.get('steps')} steps)"
    e = ERR_RE.search(log)
    why = rep.get("error") or (e.group(3) if e else (log.strip().splitlines() or [f"exit {rc}"])[-1])
    return (f"refused: {why}" if rc == 2 else f"failed: {why}")[:200]


# Elements and keys of the physics a refusal may name (the methods this engine does not have);
# any other refusal is a gap in reading GenCase's geometry or the case format.
PHYSICS = ("<wavepaddles>", "<accinputs>", "<damping>", "<inout>", "<mvrotfile>", "<mvfile>", "<mvrectfile>",
           "<mvpredef>", "<mvrotace>", "<mvrectace>", "<mvnull>", "<mvcir", "PeriodicInc", "<chrono>", "<moorings>",
           "<flexstruc>", "Boundary", "ViscoTreatment", "Shifting", "DensityDT", "RigidAlgorithm")


def is_physics(refusal):
    return any(p in refusal for p in PHYSICS)


def md(s):
    return str(s).replace("|", "\\|").replace("\n", " ")


def compare(r):
    gc, ours = r.get("gc"), r.get("ours")
    if not isinstance(gc, tuple) or ours is None:
        return "-"
    for mk in sorted(set(gc[1]) | set(ours)):
        if gc[1].get(mk) != ours.get(mk):
            return f"no (mk {mk}: {gc[1].get(mk, 0)} vs {ours.get(mk, 0)})"
    return "yes"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    default_sph = os.path.join(REPO, "build-cpu", "bin", "sph")
    ap.add_argument("--sph", default=default_sph if os.path.exists(default_sph) else os.path.join(REPO, "build", "bin", "sph"))
    ap.add_argument("--gencase", default=shutil.which("GenCase_linux64") or "/work/shared/tools/GenCase_linux64")
    ap.add_argument("--reference", default="/work/shared/reference", help="holds dualsphysics-examples/ and dualsphysics-benchmark/")
    ap.add_argument("--out", default=os.path.join(REPO, "docs", "examples.md"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--max-np", type=int, default=150000, help="largest GenCase particle count for the coarse dp")
    ap.add_argument("--cases", nargs="*", default=[], metavar="GLOB", help="only these folder/case names")
    args = ap.parse_args()
    args.sph, args.gencase = os.path.abspath(args.sph), os.path.abspath(args.gencase)
    for exe in (args.sph, args.gencase):
        if not os.access(exe, os.X_OK):
            sys.exit(f"examples_table: not an executable: {exe}")
    args.threads = max(1, (os.cpu_count() or 1) // max(1, args.jobs))
    todo = cases(args.reference, args.cases)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(one_case, args, key, path) for key, path in todo]
        rows = []
        for f, (key, _) in zip(futures, todo):
            rows.append(f.result())
            print(f"{key}: {rows[-1].get('run') or rows[-1].get('refusal')}", file=sys.stderr)

    loaded = [r for r in rows if "ours" in r]
    refused = [r for r in rows if "refusal" in r]
    groups = collections.Counter(r.get("feature", r["refusal"]) for r in refused)
    commit = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", REPO, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    L = ["# DualSPHysics examples in this engine", "",
         f"Made {datetime.date.today().isoformat()} with engine commit {commit or 'unknown'}"
         + (" (with uncommitted changes)" if dirty else "") + " by",
         "", "```", shlex.join(["python3"] + sys.argv), "```", "",
         f"Cases: {len(rows)}. GenCase made {sum(isinstance(r.get('gc'), tuple) for r in rows)}; ours loads "
         f"{len(loaded)}, runs {args.steps} steps of {sum(r.get('run', '').startswith('ok') for r in rows)}, "
         f"gives GenCase's per-mk counts in {sum(compare(r) == 'yes' for r in rows)} and refuses {len(refused)}; "
         f"from GenCase's output it runs {sum(r.get('gc_run', '').startswith('ok') for r in rows)}.", ""]
    physics = sum(is_physics(r["refusal"]) for r in refused)
    L += [f"Of the refusals, {physics} name a physics feature this engine does not have and "
          f"{len(refused) - physics} something else (a case element, a data file, a geometry command).", ""]
    if groups:
        L += ["Refusals by the element named:", ""]
        L += [f"- `{md(k)}`: {n}" for k, n in sorted(groups.items(), key=lambda kv: (-kv[1], kv[0]))] + [""]
    L += [f"dp: the coarse spacing run (the case's own dp times the factor shown), the first at which GenCase "
          f"makes at most {args.max_np:,} particles. Counts compared per mk (GenCase's mk = mkbound + 10 for boundaries).", "",
          f"The last column runs GenCase's own output (`CASE.xml` + `CASE.bi4`) {args.steps} steps.", "",
          f"| folder | case | dp | GenCase | ours | per-mk equal | {args.steps} steps | refusal | GenCase output, {args.steps} steps |",
          "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in sorted(rows, key=lambda r: r["key"]):
        gc = r.get("gc")
        gcs = f"{gc[0]:,}" if isinstance(gc, tuple) else f"failed: {md(gc)}" if gc else "-"
        dps = f"{r['dp']:.6g} (x{r['factor']})" if "dp" in r else "-"
        ours = f"{r['ours_np']:,}" if "ours" in r else "refused" if "refusal" in r else "-"
        ref = f"`{md(r['refusal'])}`" if "refusal" in r else ""
        gcr = md(r["gc_run"]).replace("refused: ", "refused: `", 1) + "`" if r.get("gc_run", "").startswith("refused") \
            else md(r.get("gc_run", "-"))
        L.append(f"| {r['folder']} | {r['case']} | {dps} | {gcs} | {ours} | {compare(r)} | {md(r.get('run', '-'))} | {ref} | {gcr} |")
    L += [f"| {m} | - | - | - | - | - | - | not in the reference copy | - |" for m in missing_folders(args.reference)]
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    # The format reference's section (template_table.py) stays as it is.
    kept = ""
    if os.path.exists(args.out):
        old = open(args.out).read()
        at = old.find(TEMPLATE_HEADING)
        if at >= 0:
            kept = "\n" + old[at:]
    with open(args.out, "w") as f:
        f.write("\n".join(L) + "\n" + kept)
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
