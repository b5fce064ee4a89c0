"""Tests of tools/bench/run.sh without a GPU: the --dry-run plan (what CI can check of the real
bench), the recording of every outcome with a stand-in sph (fake_sph.sh), and, when CTest gives
SPH_BIN, a tiny real bench on the CPU. Needs matplotlib for the report step (exit 77 otherwise)."""
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

try:
    import matplotlib  # noqa: F401  (only whether it is there)
except ImportError:
    print(f"skipped: {sys.executable} has no matplotlib (Debian: apt-get install python3-matplotlib)")
    sys.exit(77)

HERE = pathlib.Path(__file__).resolve().parent
RUN_SH = HERE.parent / "run.sh"
CASES = ("DamBreak2D", "DamBreak", "WaveMake", "Solids")
# Variables of the caller's environment that would change the plan.
PLAN_VARS = ("CASES", "STRATEGIES", "PRECISIONS", "STEPS", "WARMUP_STEPS", "REPEATS", "LADDER_DP", "LADDER_STEPS",
             "CELL_ARGS", "VERLET_ARGS", "DEVICE", "RUN_TIMEOUT", "SPH_BIN", "SPH_CALIBRATE", "SPH_BUILD_DIR")


def bench(args, **env):
    e = {k: v for k, v in os.environ.items() if k not in PLAN_VARS}
    e.update(PYTHON=sys.executable, **env)
    return subprocess.run(["bash", str(RUN_SH)] + args, env=e, capture_output=True, text=True, timeout=300)


def manifest(folder):
    lines = [l for l in (folder / "manifest.tsv").read_text().splitlines() if not l.startswith("#")]
    head = lines[0].split("\t")
    return [dict(zip(head, l.split("\t"))) for l in lines[1:]]


class DryRun(unittest.TestCase):
    def test_quick_plan_covers_every_case_strategy_and_precision(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = pathlib.Path(tmp) / "never-written"
            p = bench(["--dry-run", "--out", str(out)])
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertFalse(out.exists(), "a dry run must write nothing")
        text = p.stdout
        for case in CASES:
            for precision in ("single", "double"):
                for strategy in ("cell", "verlet"):
                    for r in (1, 2):
                        # A case file that is not there yet is planned as skipped, with the reason.
                        self.assertRegex(text, rf"(run  |skip ) matrix-{case}-{strategy}-{precision}-r{r}[: ]")
        for m in re.finditer(r"^run   matrix-\S+: (.*)$", text, re.M):
            self.assertIn("--steps 500", m.group(1))
            self.assertIn("--device gpu", m.group(1))
        for dp in ("0.0085", "0.00454", "0.00281", "0.00175"):
            for strategy in ("cell", "verlet"):
                self.assertRegex(text, rf"run   ladder-DamBreak-{strategy}-single-dp{dp}-r1: .*--dp {dp}")
        self.assertIn("calibration-start.json", text)
        self.assertIn("calibration-end.json", text)
        self.assertIn("tools/bench/report.py", text)

    def test_strategies_alternate_in_abba_order_after_warmup(self):
        p = bench(["--dry-run"], CASES="DamBreak", PRECISIONS="single")
        ids = re.findall(r"^run   (\S+):", p.stdout, re.M)
        self.assertEqual(ids[:6], ["warmup-DamBreak-cell-single-r0", "warmup-DamBreak-verlet-single-r0",
                                   "matrix-DamBreak-cell-single-r1", "matrix-DamBreak-verlet-single-r1",
                                   "matrix-DamBreak-verlet-single-r2", "matrix-DamBreak-cell-single-r2"])

    def test_full_plan_runs_whole_cases_and_a_longer_ladder(self):
        p = bench(["--dry-run", "--full"], CASES="DamBreak")
        self.assertEqual(p.returncode, 0, p.stderr)
        matrix = re.findall(r"^run   matrix-\S+: (.*)$", p.stdout, re.M)
        self.assertTrue(matrix)
        self.assertTrue(all("--steps" not in m for m in matrix))
        self.assertIn("ladder-DamBreak-verlet-single-dp0.00087-r1", p.stdout)

    def test_a_case_file_path_is_a_case_named_after_its_file(self):
        # DualSPHysics' benchmark case: the engine's own test copy, as a user would pass any _Def.xml.
        path = HERE.parents[2] / "engine/tests/data/gencase/Spheric2Dam_100K_Def.xml"
        p = bench(["--dry-run"], CASES=f"{path} /nowhere/Missing_Def.xml", PRECISIONS="single")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertRegex(p.stdout, r"run   matrix-Spheric2Dam_100K-cell-single-r1: .*run \S*Spheric2Dam_100K_Def.xml ")
        self.assertIn("skip  matrix-Missing-verlet-single-r1: case file /nowhere/Missing_Def.xml not found", p.stdout)

    def test_bad_argument_is_refused(self):
        p = bench(["--fast"])
        self.assertEqual(p.returncode, 2)
        self.assertIn("unknown argument '--fast'", p.stderr)


class WithFakeSph(unittest.TestCase):
    """Every outcome is recorded and none stops the bench (fake_sph.sh says which run does what)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = pathlib.Path(tempfile.mkdtemp())
        cls.out = cls.tmp / "bench"
        cls.calls = cls.tmp / "calls.txt"
        calibrate = cls.tmp / "calibrate.sh"
        calibrate.write_text(f"#!/bin/sh\ncat '{HERE / 'fixtures/h200-sample/calibration-start.json'}'\n")
        calibrate.chmod(0o755)
        cls.p = bench(["--out", str(cls.out)], SPH_BIN=str(HERE / "fake_sph.sh"), SPH_CALIBRATE=str(calibrate),
                      CASES="DamBreak2D DamBreak NoSuchCase", LADDER_DP="0.0085 0.00281 0.00175",
                      FAKE_SPH_LOG=str(cls.calls))
        cls.rows = manifest(cls.out) if (cls.out / "manifest.tsv").exists() else []

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def rows_of(self, **match):
        return [r for r in self.rows if all(r[k] == v for k, v in match.items())]

    def test_bench_completes_and_reports(self):
        self.assertEqual(self.p.returncode, 0, self.p.stdout + self.p.stderr)
        self.assertTrue((self.out / "report" / "report.md").exists())
        self.assertTrue((self.out / "calibration-start.json").exists())
        self.assertIn("## Floors", (self.out / "report" / "report.md").read_text())

    def test_completed_runs_keep_their_run_json(self):
        ok = self.rows_of(group="matrix", case="DamBreak", status="ok")
        self.assertEqual(len(ok), 8)  # 2 strategies x 2 precisions x 2 repeats
        for r in ok:
            self.assertTrue((self.out / r["file"]).exists(), r["file"])
        self.assertFalse(list((self.out / "runs").glob("warmup-*")), "warm-up runs leave no files")

    def test_input_error_marks_the_configuration_not_run(self):
        rows = self.rows_of(case="DamBreak2D", precision="double")
        self.assertEqual(len(rows), 4)
        for r in rows:
            self.assertEqual(r["status"], "not-run")
            self.assertIn("input error: sph: error:", r["reason"])
            self.assertIn("fake rejection of double precision", r["reason"])
        # After the warm-ups failed, the measured runs were recorded without being run.
        calls = self.calls.read_text().splitlines()
        self.assertEqual(sum(1 for c in calls if c.startswith("DamBreak2D") and "double" in c), 2)

    def test_missing_case_file_is_not_run(self):
        rows = self.rows_of(case="NoSuchCase")
        self.assertEqual(len(rows), 8)
        self.assertTrue(all(r["status"] == "not-run" for r in rows))
        self.assertEqual(rows[0]["reason"], "case file testcases/NoSuchCase.xml not found")

    def test_out_of_memory_and_failure_are_recorded_and_the_ladder_goes_on(self):
        oom = self.rows_of(group="ladder", dp="0.00175", strategy="verlet")[0]
        self.assertEqual(oom["status"], "oom")
        self.assertIn("out of memory", oom["reason"])
        failed = self.rows_of(group="ladder", dp="0.00281", strategy="cell")[0]
        self.assertEqual(failed["status"], "failed")
        self.assertIn("illegal memory access", failed["reason"])
        self.assertTrue((self.out / failed["file"]).exists())  # its run.json is kept
        self.assertEqual(self.rows_of(group="ladder", dp="0.00175", strategy="cell")[0]["status"], "ok")

    def test_a_second_bench_into_the_same_folder_is_refused(self):
        p = bench(["--out", str(self.out), "--no-report"], SPH_BIN=str(HERE / "fake_sph.sh"), CASES="DamBreak")
        self.assertEqual(p.returncode, 1)
        self.assertIn("exists", p.stderr)


@unittest.skipUnless(os.access(os.environ.get("SPH_BIN", ""), os.X_OK), "SPH_BIN (the built sph) not given")
class TinyCpuBench(unittest.TestCase):
    """The real sph on the CPU, a few steps: run.sh's options and paths match the CLI's."""

    def test_cpu_bench_end_to_end(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = pathlib.Path(tmp) / "bench"
            p = bench(["--out", str(out)], SPH_BIN=os.environ["SPH_BIN"], SPH_CALIBRATE="/nonexistent",
                      DEVICE="cpu", CASES="DamBreak2D", PRECISIONS="single", REPEATS="1", STEPS="2",
                      WARMUP_STEPS="1", LADDER_DP="0.03", LADDER_STEPS="1")
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            rows = manifest(out)
            self.assertEqual([(r["group"], r["strategy"], r["status"]) for r in rows],
                             [("matrix", "cell", "ok"), ("matrix", "verlet", "ok"),
                              ("ladder", "cell", "ok"), ("ladder", "verlet", "ok")])
            md = (out / "report" / "report.md").read_text()
            self.assertIn("no floors", md)
            self.assertRegex(md, r"\| DamBreak2D \| single \| [0-9.]+ \| [0-9.]+ \| [0-9.]+x \|")


if __name__ == "__main__":
    unittest.main()
