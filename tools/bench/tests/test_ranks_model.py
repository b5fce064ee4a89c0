"""Tests of tools/bench/ranks_scaling.sh (its dry run) and ranks_model.py (on the run reports of a
small CPU ladder, fixtures/ranks-cpu-sample: DamBreak at dp 0.05 and 0.04 on one and two ranks)."""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent
BENCH = HERE.parent
sys.path.insert(0, str(BENCH))
import ranks_model  # noqa: E402

RUNS = HERE / "fixtures" / "ranks-cpu-sample"


class RanksScript(unittest.TestCase):
    def test_dry_run_gives_one_launch_per_spacing_and_rank_count(self):
        env = {**os.environ, "DPS": "0.01 0.02", "RANKS": "1 3", "DEVICE": "cpu", "THREADS": "2"}
        out = subprocess.run(["bash", str(BENCH / "ranks_scaling.sh"), "--dry-run", "/tmp/x"], env=env, check=True,
                             capture_output=True, text=True).stdout.splitlines()
        self.assertEqual(len(out), 4)
        self.assertIn("-np 3", out[1])
        self.assertIn("--dp 0.01", out[1])
        self.assertIn("--out /tmp/x/DamBreak-dp0.02-r1", out[2])
        self.assertTrue(all("--threads 2" in l and "--device cpu" in l for l in out))

    def test_dry_run_passes_the_options_for_mpirun_and_sph(self):
        env = {**os.environ, "DPS": "0.01", "RANKS": "2", "MPI_OPTIONS": "--bind-to none",
               "SPH_OPTIONS": "--rank-exchange nccl --rank-rebalance off"}
        out = subprocess.run(["bash", str(BENCH / "ranks_scaling.sh"), "--dry-run", "/tmp/x"], env=env, check=True,
                             capture_output=True, text=True).stdout.splitlines()
        self.assertEqual(len(out), 1)
        self.assertIn("-np 2 --oversubscribe --bind-to none ", out[0])
        self.assertIn(" --rank-exchange nccl --rank-rebalance off --no-vtk", out[0])


class RanksModel(unittest.TestCase):
    def test_measurements_come_from_the_reports(self):
        runs = ranks_model.load(str(RUNS))
        self.assertEqual(len(runs), 4)
        two = next(r for r in runs if r["ranks"] == 2 and r["dp"] == 0.04)
        with open(RUNS / "DamBreak-dp0.04-r2.json") as f:
            report = json.load(f)
        halo = next(p for p in report["phases"] if p["name"] == "MPI-Halo")
        self.assertAlmostEqual(two["exchange_s"], halo["seconds"] / halo["calls"])
        self.assertAlmostEqual(two["bytes"], int(report["extra"]["rank0_bytes_sent"]) / halo["calls"])
        self.assertEqual(two["particles"], report["particles"]["total"])

    def test_fit_is_the_least_squares_line_of_non_negative_costs(self):
        runs = ranks_model.load(str(RUNS))
        a, b = ranks_model.fit(runs)
        self.assertGreaterEqual(a, 0)
        self.assertGreaterEqual(b, 0)
        pts = [(r["bytes"], r["exchange_s"]) for r in runs if r["ranks"] > 1]

        def squares(a, b):
            return sum((a + b * x - y) ** 2 for x, y in pts)

        best = squares(a, b)
        for da in (-1e-4, 0, 1e-4):
            for db in (-1e-10, 0, 1e-10):
                if a + da >= 0 and b + db >= 0:
                    self.assertGreaterEqual(squares(a + da, b + db), best * (1 - 1e-12))

    def test_projection_is_whole_on_one_rank_and_falls_with_ranks(self):
        runs = ranks_model.load(str(RUNS))
        a, b = ranks_model.fit(runs)
        big, c, h, p, rows = ranks_model.projection(runs, a, b)
        self.assertEqual(big["particles"], 3302)
        self.assertAlmostEqual(rows[0]["strong_eff"], 1.0)
        strong = [r["strong_eff"] for r in rows]
        self.assertEqual(strong, sorted(strong, reverse=True))
        # Weak scaling: a rank's halo does not grow with the ranks, only the link changes.
        weak = [r["weak_eff"] for r in rows[1:] if r["link"] == "NVLink 4"]
        self.assertAlmostEqual(min(weak), max(weak))
        self.assertGreater(rows[-1]["exchange_s"], rows[1]["exchange_s"])  # IB NDR is slower than NVLink

    def test_table_without_chart(self):
        with tempfile.TemporaryDirectory() as out:
            done = subprocess.run([sys.executable, str(BENCH / "ranks_model.py"), str(RUNS), "--out", out, "--no-chart"],
                                  capture_output=True, text=True)
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertIn("| DamBreak-dp0.05-r2.json | 1830 | 2 |", done.stdout)
            self.assertTrue(os.path.exists(os.path.join(out, "ranks-model.md")))

    def test_a_failed_run_is_named(self):
        with tempfile.TemporaryDirectory() as d:
            for f in RUNS.glob("*.json"):
                shutil.copy(f, d)
            path = os.path.join(d, "DamBreak-dp0.05-r2.json")
            with open(path) as f:
                report = json.load(f)
            report["status"] = "failed"
            with open(path, "w") as f:
                json.dump(report, f)
            with self.assertRaisesRegex(ranks_model.ModelError, "DamBreak-dp0.05-r2.json: the run did not complete"):
                ranks_model.load(d)

    def test_a_misnamed_run_is_named(self):
        with tempfile.TemporaryDirectory() as d:
            shutil.copy(RUNS / "DamBreak-dp0.05-r2.json", os.path.join(d, "DamBreak-dp0.05-r4.json"))
            with self.assertRaisesRegex(ranks_model.ModelError, "ran on 2 rank\\(s\\), its name says 4"):
                ranks_model.load(d)


if __name__ == "__main__":
    unittest.main()
