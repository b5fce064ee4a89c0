"""Tests of tools/bench/peer.sh (dry run, and a whole run with stand-ins for GenCase, DualSPHysics
and sph) and peer_table.py (on recorded run.json fixtures and a Run.out as DualSPHysics writes it)."""
import json
import os
import pathlib
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent
BENCH = HERE.parent
sys.path.insert(0, str(BENCH))
import peer_table  # noqa: E402

RUNS = HERE / "fixtures" / "h200-sample" / "runs"

# The lines of a DualSPHysics 5.4 Run.out that the table reads (JSph::ShowResume's format).
RUN_OUT = """Total Runtime....................: 19.120000 sec.
Simulation Runtime...............: {seconds:f} sec.
Runtime per physical second......: 11.143750 sec.
Steps per second.................: 1114.4
Steps of simulation..............: {steps}
PART files.......................: 1
Particles of simulation (initial): 171,496
Maximum number of particles......: 180,071
Maximum number of cells..........: 1,234
CPU Memory.......................: 1,048,576 (1.00 MiB)
GPU Memory.......................: 104,857,600 (100.00 MiB)
GPU Memory (for cells)...........: 4,194,304 (4.00 MiB)
"""


def executable(path, text):
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


class PeerScript(unittest.TestCase):
    def dry(self, **env):
        return subprocess.run(["bash", str(BENCH / "peer.sh"), "--dry-run"], env={**os.environ, **env},
                              capture_output=True, text=True)

    def test_dry_run_gencase_then_dualsphysics_then_each_configuration(self):
        out = self.dry(CASES="DamBreak@1.6 Spheric2Dam_13M@0.03")
        self.assertEqual(out.returncode, 0, out.stderr)
        lines = [l for l in out.stdout.splitlines() if not l.startswith("[peer")]
        self.assertEqual(len(lines), 2 * (2 + 3))
        self.assertIn("GenCase_linux64 testcases/DamBreak ", lines[0])
        self.assertIn("-tmax:1.6", lines[1])
        self.assertIn("-cellmode:half", lines[1])
        self.assertIn("--neighbours cell --cell-mode half", lines[2])
        self.assertIn("--verlet-layout indices", lines[3])
        self.assertIn("--verlet-layout clusters", lines[4])
        self.assertTrue(all("--steps" in l and "--no-vtk" in l for l in lines[2:5]))
        self.assertIn("cases/Spheric2Dam_13M_Def ", lines[5])
        self.assertIn("-tmax:0.03", lines[6])

    def test_cpu_runs_the_cpu_build_of_dualsphysics_and_ours_on_the_same_threads(self):
        out = self.dry(CASES="DamBreak@1.6", CONFIGS="cell", PEER_DEVICE="cpu", THREADS="16")
        self.assertEqual(out.returncode, 0, out.stderr)
        lines = [l for l in out.stdout.splitlines() if not l.startswith("[peer")]
        self.assertIn("DualSPHysics5.4CPU_linux64 ", lines[1])
        self.assertIn("-cpu -ompthreads:16", lines[1])
        self.assertNotIn("-gpu", lines[1])
        self.assertIn("--device cpu --threads 16", lines[2])
        bad = self.dry(CASES="DamBreak@1.6", PEER_DEVICE="tpu")
        self.assertEqual(bad.returncode, 2)
        self.assertIn("PEER_DEVICE must be gpu or cpu", bad.stderr)

    def test_bad_configuration_and_case_are_refused(self):
        once = self.dry(CASES="DamBreak@1.6", CONFIGS="verlet-once verlet-twice")
        self.assertEqual(once.returncode, 0, once.stderr)
        self.assertIn("--verlet-layout indices --verlet-pairs once", once.stdout)
        self.assertIn("--verlet-layout indices --verlet-pairs twice", once.stdout)
        out = self.dry(CONFIGS="cell fastest")
        self.assertEqual(out.returncode, 2)
        self.assertIn("unknown configuration 'fastest'", out.stderr)
        out = self.dry(CASES="DamBreak")
        self.assertEqual(out.returncode, 2)
        self.assertIn("needs NAME@TIME", out.stderr)

    def test_whole_run_gives_ours_the_step_count_of_dualsphysics(self):
        tmp = pathlib.Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, tmp)
        calls = tmp / "calls.txt"
        executable(tmp / "GenCase_linux64", f"""#!/bin/bash
echo "gencase $*" >>{calls}
mkdir -p "$(dirname "$2")" && echo '<case/>' >"$2.xml"
""")
        executable(tmp / "DualSPHysics5.4_linux64", f"""#!/bin/bash
echo "dsph $*" >>{calls}
cat >"$2/Run.out" <<'EOF'
{RUN_OUT.format(seconds=17.83, steps="1,234")}EOF
""")
        verlet = RUNS / "matrix-DamBreak-verlet-single-r1" / "run.json"
        executable(tmp / "sph", f"""#!/bin/bash
echo "sph $*" >>{calls}
while (($#)); do [[ $1 == --out ]] && out=$2; shift; done
mkdir -p "$out" && cp {verlet} "$out/run.json"
""")
        dest = tmp / "out"
        out = subprocess.run(["bash", str(BENCH / "peer.sh"), "--out", str(dest), "--no-table"],
                             env={**os.environ, "PEER_DIR": str(tmp), "SPH_BIN": str(tmp / "sph"),
                                  "CASES": "DamBreak@1.6", "CONFIGS": "cell verlet"},
                             capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        sph = [l for l in calls.read_text().splitlines() if l.startswith("sph ")]
        self.assertEqual(len(sph), 2)
        self.assertTrue(all("--steps 1234 " in l and "--time-max 3.2 " in l for l in sph), sph)
        self.assertTrue((dest / "DamBreak" / "cell.json").is_file())
        self.assertTrue((dest / "DamBreak" / "verlet.json").is_file())
        self.assertFalse((dest / "DamBreak" / "cell").exists())  # the run folder is not kept

    def test_missing_programs_are_named(self):
        out = subprocess.run(["bash", str(BENCH / "peer.sh"), "--out", tempfile.gettempdir() + "/peer-none"],
                             env={**os.environ, "PEER_DIR": "/nonexistent"}, capture_output=True, text=True)
        self.assertEqual(out.returncode, 2)
        self.assertIn("/nonexistent/", out.stderr)


class PeerTable(unittest.TestCase):
    def setUp(self):
        self.dir = pathlib.Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.dir)
        case = self.dir / "DamBreak"
        (case / "dsph").mkdir(parents=True)
        self.cell = json.loads((RUNS / "matrix-DamBreak-cell-single-r1" / "run.json").read_text())
        self.verlet = json.loads((RUNS / "matrix-DamBreak-verlet-single-r1" / "run.json").read_text())
        self.cell["steps"] = self.verlet["steps"]  # as peer.sh runs them
        self.dsph_seconds = 2.5 * self.verlet["wall_seconds"]
        (case / "dsph" / "Run.out").write_text(RUN_OUT.format(seconds=self.dsph_seconds,
                                                              steps=f"{self.verlet['steps']:,}"))
        (case / "cell.json").write_text(json.dumps(self.cell))
        (case / "verlet-indices.json").write_text(json.dumps(self.verlet))

    def row(self, text, config):
        for line in text.splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) > 2 and cells[1] == config:
                return cells
        raise AssertionError(f"no row for {config} in\n{text}")

    def test_run_out_numbers_with_thousands_separators(self):
        r = peer_table.run_out(self.dir / "DamBreak" / "dsph" / "Run.out")
        self.assertEqual(r["steps"], self.verlet["steps"])
        self.assertEqual(r["particles"], 171496)
        self.assertEqual(r["bytes"], 104857600 + 4194304)

    def test_speed_up_force_pass_and_memory(self):
        text = peer_table.table(peer_table.load(self.dir))
        dsph, verlet = self.row(text, "DualSPHysics"), self.row(text, "verlet-indices")
        self.assertEqual(dsph[5], "1.00x")
        self.assertEqual(verlet[5], "2.50x")
        self.assertEqual(verlet[6], f"{self.cell['wall_seconds'] / self.verlet['wall_seconds']:.2f}x")
        self.assertEqual(self.row(text, "cell")[6], "1.00x")
        force = next(p for p in self.verlet["phases"] if p["name"] == "CF-Forces")
        expected = force["seconds"] / force["calls"] / 171496 * 1e9
        self.assertAlmostEqual(float(verlet[7]), expected, places=3)
        ratio = self.verlet["peak_device_bytes"] / self.cell["peak_device_bytes"]
        self.assertEqual(verlet[9], f"{ratio:.2f}x")
        self.assertEqual(self.row(text, "cell")[9], "1.00x")
        self.assertNotIn("steps against", text)  # same steps as DualSPHysics

    def test_a_different_step_count_is_said(self):
        self.verlet["steps"] += 1
        (self.dir / "DamBreak" / "verlet-indices.json").write_text(json.dumps(self.verlet))
        text = peer_table.table(peer_table.load(self.dir))
        self.assertIn(f"{self.verlet['steps']} steps against DualSPHysics' {self.verlet['steps'] - 1}", text)

    def test_unfinished_dualsphysics_run_is_an_error(self):
        (self.dir / "DamBreak" / "dsph" / "Run.out").write_text("Simulation Runtime...............: 1.0 sec.\n")
        with self.assertRaises(ValueError):
            peer_table.load(self.dir)

    def test_main_writes_table_and_chart(self):
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            self.skipTest("no matplotlib")
        peer_table.main([str(self.dir)])
        self.assertIn("| DamBreak | verlet-indices |", (self.dir / "peer.md").read_text())
        self.assertGreater((self.dir / "peer.png").stat().st_size, 1000)


if __name__ == "__main__":
    unittest.main()
