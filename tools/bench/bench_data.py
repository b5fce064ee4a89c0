"""Reading a benchmark result folder written by tools/bench/run.sh: manifest.tsv, the runs'
run.json files and the calibration JSON. Every problem raises BenchError with a message that
names the file (and the manifest line) at fault."""
import json
import pathlib
import statistics

MANIFEST = "manifest.tsv"
COLUMNS = ["group", "case", "strategy", "precision", "dp", "repeat", "status", "file", "reason"]
STATUSES = {"ok", "not-run", "oom", "failed"}
GROUPS = ("sort", "list", "interaction", "other")
# Keys report.py reads from every run.json; a file without them is not a run report.
REQUIRED = {"case": str, "strategy": str, "precision": str, "status": str, "particles": dict, "steps": int,
            "wall_seconds": (int, float), "ns_per_particle_step": (int, float), "peak_device_bytes": int,
            "phases": list, "strategy_stats": dict, "excluded": dict}


class BenchError(Exception):
    pass


def load_json(path, what):
    try:
        text = pathlib.Path(path).read_text()
    except OSError as e:
        raise BenchError(f"{path}: cannot read the {what}: {e.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise BenchError(f"{path}: the {what} is not valid JSON: {e}") from None


def load_run(path):
    d = load_json(path, "run report")
    if not isinstance(d, dict):
        raise BenchError(f"{path}: the run report is not a JSON object")
    for key, kind in REQUIRED.items():
        if key not in d:
            raise BenchError(f"{path}: the run report has no '{key}'")
        if not isinstance(d[key], kind) or isinstance(d[key], bool):
            raise BenchError(f"{path}: '{key}' in the run report has the wrong type ({type(d[key]).__name__})")
    for k, p in enumerate(d["phases"]):
        if not isinstance(p, dict) or not {"name", "group", "seconds", "calls"} <= p.keys():
            raise BenchError(f"{path}: phase {k} in the run report lacks name, group, seconds or calls")
    return d


class Run:
    """One planned run: the manifest's fields plus, when it produced one, its run.json."""

    def __init__(self, fields, data, where):
        self.group, self.case, self.strategy, self.precision = (fields[k] for k in COLUMNS[:4])
        self.dp = float(fields["dp"]) if fields["dp"] else None
        self.repeat = int(fields["repeat"] or 0)
        self.status, self.reason, self.where = fields["status"], fields["reason"], where
        self.data = data or {}

    @property
    def ok(self):
        return self.status == "ok"

    def get(self, key, default=None):
        return self.data.get(key, default)

    def stat(self, key, default=None):
        return self.data.get("strategy_stats", {}).get(key, default)

    @property
    def particles(self):
        return self.data["particles"]["total"]

    @property
    def active_particles(self):
        """Particles still in the simulation at the end (the strategy statistics describe them)."""
        return self.particles - self.data["excluded"].get("total", 0)

    def group_seconds(self):
        g = dict.fromkeys(GROUPS, 0.0)
        for p in self.data["phases"]:
            g[p["group"] if p["group"] in g else "other"] += p["seconds"]
        return g

    def untimed_seconds(self):
        return max(0.0, self.data["wall_seconds"] - sum(p["seconds"] for p in self.data["phases"]))

    def phase(self, name):
        return next((p for p in self.data["phases"] if p["name"] == name), None)

    def calls(self, name):
        p = self.phase(name)
        return p["calls"] if p else 0

    @property
    def fallback(self):
        return (self.stat("fallback_events") or 0) > 0


def read_manifest(folder):
    folder = pathlib.Path(folder)
    path = folder / MANIFEST
    try:
        lines = path.read_text().splitlines()
    except OSError as e:
        raise BenchError(f"{path}: cannot read the bench manifest: {e.strerror} (is {folder} a tools/bench/run.sh "
                         "result folder?)") from None
    meta, runs, header = {}, [], None
    for n, line in enumerate(lines, 1):
        if line.startswith("#"):
            key, _, value = line[1:].strip().partition(" ")
            meta[key] = value.strip()
            continue
        if not line.strip():
            continue
        cells = line.split("\t")
        if header is None:
            if cells != COLUMNS:
                raise BenchError(f"{path}:{n}: expected the header {' '.join(COLUMNS)}")
            header = cells
            continue
        if len(cells) != len(COLUMNS):
            raise BenchError(f"{path}:{n}: {len(cells)} columns, expected {len(COLUMNS)}")
        fields = dict(zip(COLUMNS, cells))
        where = f"{path}:{n}"
        if fields["status"] not in STATUSES:
            raise BenchError(f"{where}: unknown status '{fields['status']}'")
        try:
            float(fields["dp"] or 0), int(fields["repeat"] or 0)
        except ValueError:
            raise BenchError(f"{where}: dp or repeat is not a number") from None
        data = None
        if fields["file"]:
            data = load_run(folder / fields["file"])
        elif fields["status"] == "ok":
            raise BenchError(f"{where}: a run with status ok names no run.json")
        runs.append(Run(fields, data, where))
    if header is None:
        raise BenchError(f"{path}: no header line")
    return meta, runs


def read_calibration(folder):
    """The calibration measured before and after the runs: the best of each figure, or None."""
    found = []
    for name in ("calibration-start.json", "calibration-end.json"):
        p = pathlib.Path(folder) / name
        if p.exists():
            d = load_json(p, "calibration")
            for key in ("fp32_flops_per_second", "fp64_flops_per_second", "copy_bytes_per_second"):
                if not isinstance(d.get(key), (int, float)) or d[key] <= 0:
                    raise BenchError(f"{p}: the calibration has no positive '{key}'")
            found.append(d)
    if not found:
        return None
    best = dict(found[0])
    for d in found[1:]:
        for key in ("fp32_flops_per_second", "fp64_flops_per_second", "copy_bytes_per_second"):
            best[key] = max(best[key], d[key])
    best["samples"] = len(found)
    return best


def load(folders):
    """Merges several result folders (a full bench split over sessions)."""
    meta, runs, calibration = {}, [], None
    for f in folders:
        m, r = read_manifest(f)
        for k, v in m.items():
            meta.setdefault(k, v)
        runs += r
        calibration = calibration or read_calibration(f)
    return meta, runs, calibration


def mean(values):
    values = [v for v in values if v is not None]
    return statistics.fmean(values) if values else None
