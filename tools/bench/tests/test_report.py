"""Tests of tools/bench/report.py on recorded run.json fixtures (fixtures/h200-sample: see README.md).
Run with an interpreter that has matplotlib (Debian: /usr/bin/python3 with python3-matplotlib);
exit code 77 (CTest: skipped) when there is none."""
import contextlib
import io
import json
import pathlib
import re
import shutil
import sys
import tempfile
import unittest

try:
    import matplotlib  # noqa: F401  (only whether it is there)
except ImportError:
    print(f"skipped: {sys.executable} has no matplotlib (Debian: apt-get install python3-matplotlib)")
    sys.exit(77)

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import bench_floors  # noqa: E402
import report  # noqa: E402

FIXTURE = HERE / "fixtures" / "h200-sample"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def run_json(name):
    return json.loads((FIXTURE / "runs" / name / "run.json").read_text())


def table_row(md, *cells):
    """The first Markdown table row that starts with the given cells, split into cells."""
    for line in md.splitlines():
        parts = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and parts[:len(cells)] == list(cells):
            return parts
    raise AssertionError(f"no table row starting with {cells}")


class ReportOnFixture(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = pathlib.Path(tempfile.mkdtemp())
        with contextlib.redirect_stdout(io.StringIO()):
            cls.status = report.main([str(FIXTURE), "--out", str(cls.tmp)])
        cls.md = (cls.tmp / "report.md").read_text()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_succeeds_and_writes_every_chart_as_png(self):
        self.assertEqual(self.status, 0)
        for png in ("phases-DamBreak.png", "phases-DamBreak2D.png", "speedup.png", "ladder.png"):
            data = (self.tmp / png).read_bytes()
            self.assertEqual(data[:8], PNG_SIGNATURE, png)
            self.assertGreater(len(data), 5000, f"{png} is too small to hold a chart")
            self.assertIn(f"]({png})", self.md)

    def test_phase_table_means_the_repeats_and_adds_untimed_time_to_other(self):
        runs = [run_json(f"matrix-DamBreak-cell-single-r{k}") for k in (1, 2)]
        sort = sum(sum(p["seconds"] for p in r["phases"] if p["group"] == "sort") for r in runs) / 2
        wall = sum(r["wall_seconds"] for r in runs) / 2
        timed_other = sum(sum(p["seconds"] for p in r["phases"] if p["group"] == "other") for r in runs) / 2
        untimed = sum(r["wall_seconds"] - sum(p["seconds"] for p in r["phases"]) for r in runs) / 2
        section = self.md.split("### DamBreak\n", 1)[1]
        row = table_row(section, "sort")
        self.assertEqual(row[1], f"{sort:.3f}")  # cell single seconds (3 decimals as printed)
        self.assertEqual(row[2], f"{100 * sort / wall:.1f}")
        self.assertEqual(table_row(section, "other")[1], f"{timed_other + untimed:.3f} ({untimed:.3f})")
        self.assertEqual(table_row(section, "total")[1], f"{wall:.3f}")
        self.assertEqual(table_row(section, "list build")[1], "0.000")  # the cell plugin builds no lists

    def test_speedup_is_the_mean_of_per_repeat_ratios(self):
        ratios = [run_json(f"matrix-DamBreak-cell-single-r{k}")["ns_per_particle_step"]
                  / run_json(f"matrix-DamBreak-verlet-single-r{k}")["ns_per_particle_step"] for k in (1, 2)]
        row = table_row(self.md.split("## Speed-up", 1)[1], "DamBreak", "single")
        self.assertEqual(row[4], f"{sum(ratios) / 2:.2f}x")
        self.assertEqual(row[5], f"{min(ratios):.2f}-{max(ratios):.2f}")
        self.assertEqual(row[6], "1.01x")  # the seed paper's DamBreak figure

    def test_table6_lists_verlet_statistics_and_memory_ratio(self):
        v = [run_json(f"matrix-DamBreak-verlet-single-r{k}") for k in (1, 2)]
        c = [run_json(f"matrix-DamBreak-cell-single-r{k}") for k in (1, 2)]
        row = table_row(self.md, "DamBreak", "single", "verlet")
        self.assertEqual(row[3], f"{sum(r['strategy_stats']['mean_list_length'] for r in v) / 2:.1f}")
        self.assertEqual(row[4], f"{sum(r['strategy_stats']['rebuilds'] for r in v) / 2:.0f}")
        ratio = sum(r["peak_device_bytes"] for r in v) / sum(r["peak_device_bytes"] for r in c)
        self.assertEqual(row[10], f"{ratio:.2f}x")

    def test_floors_use_calibration_pairs_and_counted_flops(self):
        calibration = json.loads((FIXTURE / "calibration-start.json").read_text())
        r = run_json("matrix-DamBreak-cell-single-r1")
        calls = next(p["calls"] for p in r["phases"] if p["name"] == "CF-Forces")
        active = r["particles"]["total"] - r["excluded"]["total"]
        pairs = r["strategy_stats"]["neighbours_per_particle"] * active * calls
        # DamBreak.xml: cubic kernel, DensityDT=2 (Fourtakas): 83 flops as counted in bench_floors.
        floor = pairs * 83 / calibration["fp32_flops_per_second"]
        interaction = next(p["seconds"] for p in r["phases"] if p["name"] == "CF-Forces")
        row = table_row(self.md.split("## Floors", 1)[1], "DamBreak", "single", "cell")
        self.assertEqual(row[3], "cubic, Fourtakas")
        self.assertEqual(row[4], "83")
        self.assertEqual(row[8], f"{floor:.4f}")
        self.assertEqual(row[9], f"{interaction / floor:.1f}x")
        sort_floor = calls * active * 160 / calibration["copy_bytes_per_second"]  # 160 B per particle per sort
        self.assertEqual(row[11], f"{sort_floor:.4f}")
        self.assertEqual(row[14], "n/a")  # no list phases, no list floor

    def test_runs_not_run_and_out_of_memory_are_reported(self):
        self.assertIn("case file testcases/WaveMake.xml not found", self.md)
        self.assertIn("input error: testcases/Solids.xml:12", self.md)
        ladder = self.md.split("## Scaling ladder", 1)[1]
        self.assertEqual(table_row(ladder, "0.00175", "~15,721,741", "verlet")[3], "oom")
        self.assertRegex(ladder, r"- verlet: the largest that fitted: 171,496 particles \(1265 bytes per particle\); "
                                 r"~15,721,741 did not fit")


class FlopCount(unittest.TestCase):
    def test_counts_per_physics_option(self):
        # Sums of the hand count in bench_floors.FLOP_TERMS (documented there, term by term).
        self.assertEqual(bench_floors.flops_per_pair("cubic", 2), 83)
        self.assertEqual(bench_floors.flops_per_pair("wendland", 2), 73)
        self.assertEqual(bench_floors.flops_per_pair("cubic", 0), 62)
        self.assertEqual(bench_floors.flops_per_pair("cubic", 1), 70)

    def test_density_diffusion_read_from_case_or_bundled_case(self):
        self.assertEqual(bench_floors.case_density_diffusion("/nonexistent/testcases/DamBreak.xml"), 2)
        self.assertIsNone(bench_floors.case_density_diffusion("/nonexistent/NoSuchCase.xml"))


class BadInput(unittest.TestCase):
    def setUp(self):
        self.tmp = pathlib.Path(tempfile.mkdtemp())
        self.dir = self.tmp / "bench"
        shutil.copytree(FIXTURE, self.dir)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def run_report(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            status = report.main([str(self.dir), "--out", str(self.tmp / "report")])
        return status, err.getvalue()

    def test_missing_run_file_is_named(self):
        victim = self.dir / "runs" / "matrix-DamBreak-verlet-single-r2" / "run.json"
        victim.unlink()
        status, err = self.run_report()
        self.assertEqual(status, 1)
        self.assertIn(str(victim), err)
        self.assertIn("cannot read", err)

    def test_malformed_run_file_is_named(self):
        victim = self.dir / "runs" / "matrix-DamBreak2D-cell-single-r1" / "run.json"
        victim.write_text(victim.read_text()[:300])
        status, err = self.run_report()
        self.assertEqual(status, 1)
        self.assertIn(str(victim), err)
        self.assertIn("not valid JSON", err)

    def test_run_file_without_phases_is_named(self):
        victim = self.dir / "runs" / "matrix-DamBreak-cell-single-r1" / "run.json"
        d = json.loads(victim.read_text())
        del d["phases"]
        victim.write_text(json.dumps(d))
        status, err = self.run_report()
        self.assertEqual(status, 1)
        self.assertRegex(err, re.escape(str(victim)) + r": the run report has no 'phases'")

    def test_missing_manifest_is_named(self):
        (self.dir / "manifest.tsv").unlink()
        status, err = self.run_report()
        self.assertEqual(status, 1)
        self.assertIn(str(self.dir / "manifest.tsv"), err)

    def test_bad_manifest_status_names_the_line(self):
        m = self.dir / "manifest.tsv"
        m.write_text(m.read_text().replace("\tnot-run\t", "\tskipped\t", 1))
        status, err = self.run_report()
        self.assertEqual(status, 1)
        self.assertRegex(err, re.escape(str(m)) + r":\d+: unknown status 'skipped'")

    def test_malformed_calibration_is_named(self):
        c = self.dir / "calibration-start.json"
        c.write_text('{"fp32_flops_per_second": 1}')
        status, err = self.run_report()
        self.assertEqual(status, 1)
        self.assertIn(str(c), err)


if __name__ == "__main__":
    unittest.main()
