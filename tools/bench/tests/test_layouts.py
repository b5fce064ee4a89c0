"""Tests of tools/bench/verlet_layouts.sh (its dry run) and layouts_table.py (on recorded
run.json fixtures, fixtures/h200-sample, renamed as the script names its runs)."""
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
import layouts_table  # noqa: E402

RUNS = HERE / "fixtures" / "h200-sample" / "runs"


class LayoutsScript(unittest.TestCase):
    def test_dry_run_names_each_case_once_per_configuration(self):
        out = subprocess.run(["bash", str(BENCH / "verlet_layouts.sh")], env={**os.environ, "DRY_RUN": "1"},
                             check=True, capture_output=True, text=True).stdout.splitlines()
        self.assertEqual(len(out), 4 * 4)  # cell and three layouts
        self.assertIn("--cell-mode half", next(l for l in out if l.startswith("DamBreak-cell-r1:")))
        self.assertIn("--cell-mode full", next(l for l in out if l.startswith("DamBreak2D-cell-r1:")))
        wave = [l for l in out if l.startswith("WaveMake-")]
        self.assertTrue(all("--time-max 1" in l for l in wave))
        self.assertIn("--verlet-layout bitmask", next(l for l in out if l.startswith("Solids-verlet-bitmask-r1:")))
        self.assertIn("--verlet-layout clusters", next(l for l in out if l.startswith("Solids-verlet-clusters-r1:")))
        chosen = subprocess.run(["bash", str(BENCH / "verlet_layouts.sh")],
                                env={**os.environ, "DRY_RUN": "1", "LAYOUTS": "clusters", "CASES": "DamBreak"},
                                check=True, capture_output=True, text=True).stdout.splitlines()
        self.assertEqual([l.split(":")[0] for l in chosen], ["DamBreak-cell-r1", "DamBreak-verlet-clusters-r1"])


class LayoutsTable(unittest.TestCase):
    def setUp(self):
        self.dir = pathlib.Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.dir)
        shutil.copy(RUNS / "matrix-DamBreak-cell-single-r1" / "run.json", self.dir / "DamBreak-cell-r1.json")
        verlet = json.loads((RUNS / "matrix-DamBreak-verlet-single-r1" / "run.json").read_text())
        (self.dir / "DamBreak-verlet-indices-r1.json").write_text(json.dumps(verlet))
        # A bitmask run: twice the time of the index lists, a tenth of their memory.
        verlet["wall_seconds"] *= 2
        verlet["peak_device_bytes"] //= 10
        (self.dir / "DamBreak-verlet-bitmask-r1.json").write_text(json.dumps(verlet))
        (self.dir / "unrelated.json").write_text("{}")
        self.cell = json.loads((self.dir / "DamBreak-cell-r1.json").read_text())
        self.verlet = json.loads((self.dir / "DamBreak-verlet-indices-r1.json").read_text())

    def row(self, text, config):
        for line in text.splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) > 2 and cells[1] == config:
                return cells
        raise AssertionError(f"no row for {config}")

    def test_speed_up_and_memory_against_cell(self):
        text = layouts_table.table(layouts_table.load(self.dir))
        cell = self.row(text, "cell")
        self.assertEqual(cell[3], "1.00x")
        indices, bitmask = self.row(text, "verlet-indices"), self.row(text, "verlet-bitmask")
        speed = self.cell["wall_seconds"] / self.verlet["wall_seconds"]
        self.assertEqual(indices[3], f"{speed:.2f}x")
        self.assertEqual(bitmask[3], f"{speed / 2:.2f}x")
        memory = self.verlet["peak_device_bytes"] / self.cell["peak_device_bytes"]
        self.assertEqual(indices[5], f"{memory:.2f}x")
        self.assertEqual(bitmask[5], f"{(self.verlet['peak_device_bytes'] // 10) / self.cell['peak_device_bytes']:.2f}x")

    def test_an_empty_folder_is_an_error(self):
        empty = self.dir / "empty"
        empty.mkdir()
        r = subprocess.run([sys.executable, str(BENCH / "layouts_table.py"), str(empty)], capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("no NAME-CONFIG-rN.json", r.stderr)


if __name__ == "__main__":
    unittest.main()
