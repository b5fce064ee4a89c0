#!/usr/bin/env python3
"""GenCase's geometry commands of DualSPHysics 5.4's format reference, through GenCase and through
our engine, as a markdown section of docs/examples.md.

  python3 tools/dualsphysics/template_table.py [--sph BIN] [--gencase BIN] [--reference DIR]
          [--doc FILE] [--jobs N]

For every command that GenCase_CaseTemplate.xml (REFERENCE/dualsphysics-doc/xml_format) writes
directly in <mainlist>, in its order: its status in docs/format-coverage.md (implemented, refused
or inert, format_status.txt's rules), and the repository's case files that use it (the fixtures of
engine/tests/data, the bundled testcases; up to 3, those of engine/tests/data/gencase first).
Each such case goes through GenCase (its per-mk counts, from CASE.xml's <fixed|moving|floating|
fluid count>) and through `sph info` (its `  mk N  boundary|fluid  COUNT` lines), and the row says
whether the counts are equal mk by mk. The particles themselves (not only the counts) are checked
by CTest's GenCaseParity for the cases in engine/tests/data/gencase/parity.csv.

The section between the heading "## GenCase's commands of the format reference" and the next "## "
heading (or the end) of --doc is replaced; examples_table.py keeps it when it rewrites the file.
"""
import argparse, concurrent.futures, datetime, glob, os, re, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import format_coverage  # noqa: E402

HEADING = "## GenCase's commands of the format reference"
GC_RE = re.compile(r'<(fixed|moving|floating|fluid)\b([^>]*)>')
ATTR_RE = re.compile(r'(\w+)="([^"]*)"')
MK_RE = re.compile(r'^\s+mk\s+(\d+)\s+(boundary|fluid)\s+(\d+)\s*$', re.M)


TAG_RE = re.compile(r'<(/?)([A-Za-z_][\w.-]*)((?:"[^"]*"|[^>"])*?)(/?)>')


def template_commands(reference):
    """The elements directly in <mainlist>, in order. The template is not well-formed XML (its
    <abort if="Dp<0.1">), so its tags are walked here rather than parsed."""
    path = os.path.join(reference, "dualsphysics-doc", "xml_format", "GenCase_CaseTemplate.xml")
    text = re.sub(r"<!--.*?-->", "", open(path, encoding="utf-8").read(), flags=re.S)
    names, depth = [], -1  # depth inside <mainlist>; -1 outside
    for close, name, _, empty in TAG_RE.findall(text):
        if name == "mainlist":
            depth = -1 if close else 0
            continue
        if depth < 0:
            continue
        if close:
            depth -= 1
            continue
        if depth == 0 and name not in names:
            names.append(name)
        if not empty:
            depth += 1
    return names


def case_files():
    found = sorted(glob.glob(os.path.join(REPO, "engine/tests/data/gencase/*_Def.xml")))
    found += sorted(glob.glob(os.path.join(REPO, "engine/tests/data/**/*_Def.xml"), recursive=True))
    found += sorted(glob.glob(os.path.join(REPO, "testcases/*.xml")))
    seen, out = set(), []
    for f in found:
        if f not in seen and "<mainlist>" in open(f, encoding="utf-8").read():
            seen.add(f)
            out.append(f)
    return out


def users(command, files, texts):
    pattern = re.compile(r"<%s[\s/>]" % re.escape(command))
    return [f for f in files if pattern.search(texts[f])]


def pick(candidates, gc, ours):
    """Up to 3 cases that GenCase and ours both load (in the order found), else the first one."""
    both = [f for f in candidates if gc[f][0] is not None and ours[f][0] is not None]
    return both[:3] if both else candidates[:1]


def gencase_counts(gencase, case):
    with tempfile.TemporaryDirectory(prefix="sph_template_") as work:
        folder = os.path.dirname(case)
        for f in os.listdir(folder):  # files the case may name (meshes, materials)
            src = os.path.join(folder, f)
            if os.path.isfile(src) and f.endswith((".xml", ".stl", ".vtk", ".ply", ".csv", ".txt")):
                shutil.copy(src, work)
        name = os.path.basename(case)
        stem = name[:-len("_Def.xml")] if name.endswith("_Def.xml") else name[:-len(".xml")]
        if not name.endswith("_Def.xml"):  # GenCase wants CASE_Def.xml
            shutil.copy(case, os.path.join(work, stem + "_Def.xml"))
        r = subprocess.run([gencase, stem + "_Def", "out/" + stem], cwd=work, capture_output=True, text=True,
                           timeout=600)
        out = os.path.join(work, "out", stem + ".xml")
        if r.returncode != 0 or not os.path.exists(out):
            lines = [l for l in (r.stdout + r.stderr).splitlines() if "rror" in l or "xception" in l]
            return None, (lines[-1].strip() if lines else "GenCase failed")
        counts = {}
        for kind, attrs in GC_RE.findall(open(out, encoding="utf-8").read()):
            a = dict(ATTR_RE.findall(attrs))
            if "mk" in a and "count" in a:
                counts[int(a["mk"])] = counts.get(int(a["mk"]), 0) + int(a["count"])
        return counts, ""


def our_counts(sph, case):
    r = subprocess.run([sph, "info", case], capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        err = (r.stderr or r.stdout).strip().splitlines()
        return None, (err[-1] if err else "exit %d" % r.returncode)
    return {int(mk): int(n) for mk, _, n in MK_RE.findall(r.stdout)}, ""


def cell(text):
    return text.replace("|", "\\|").replace("\n", " ")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sph", default=os.path.join(REPO, "build/bin/sph"))
    ap.add_argument("--gencase", default=os.path.join(REPO, "../shared/tools/GenCase_linux64"))
    ap.add_argument("--reference", default=os.path.join(REPO, "../shared/reference"))
    ap.add_argument("--doc", default=os.path.join(REPO, "docs/examples.md"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()

    rows, rules = format_coverage.read_paths(), format_coverage.read_rules()
    status_of = format_coverage.statuses(rows, rules)
    files = case_files()
    texts = {f: open(f, encoding="utf-8").read() for f in files}
    commands = template_commands(args.reference)
    chosen = {c: users(c, files, texts) for c in commands}
    cases = sorted({f for fs in chosen.values() for f in fs})
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        gc = dict(zip(cases, pool.map(lambda f: gencase_counts(args.gencase, f), cases)))
        ours = dict(zip(cases, pool.map(lambda f: our_counts(args.sph, f), cases)))
    chosen = {c: pick(fs, gc, ours) for c, fs in chosen.items()}

    lines = [HEADING, "",
             "Made %s with the engine sources of commit %s by" % (datetime.date.today().isoformat(), commit()), "",
             "```", "python3 tools/dualsphysics/template_table.py --jobs %d" % args.jobs, "```", "",
             "Every command GenCase_CaseTemplate.xml writes in `<mainlist>`: its status in "
             "[format-coverage.md](format-coverage.md), and up to three of the repository's case files that use "
             "it (those that GenCase and ours both load when there are such), through GenCase 5.0 and "
             "through `sph info`, particles per mk compared. Counts are totals "
             "of the case. A command GenCase 5.0 does not know cannot be compared (GenCase's error is "
             "shown).", "",
             "| command | status | case | GenCase | ours | per-mk equal |", "| --- | --- | --- | --- | --- | --- |"]
    equal_count = compared = 0
    for c in commands:
        st = status_of.get("casedef/geometry/commands/mainlist/" + c, ("?", ""))[0]
        if not chosen[c]:
            lines.append("| `%s` | %s | - | - | - | - |" % (c, st))
            continue
        for f in chosen[c]:
            g, gerr = gc[f]
            o, oerr = ours[f]
            gtext = "{:,}".format(sum(g.values())) if g is not None else "refused: " + cell(gerr)
            otext = "{:,}".format(sum(o.values())) if o is not None else "refused: " + cell(oerr)
            eq = "-"
            if g is not None and o is not None:
                compared += 1
                eq = "yes" if g == o else "no"
                equal_count += eq == "yes"
            lines.append("| `%s` | %s | %s | %s | %s | %s |" % (c, st, os.path.relpath(f, REPO), gtext, otext, eq))
    lines.insert(8, "Commands: %d; case runs compared: %d, per-mk equal in %d." % (len(commands), compared,
                                                                                  equal_count))
    lines.insert(9, "")
    section = "\n".join(lines) + "\n"
    doc = open(args.doc, encoding="utf-8").read() if os.path.exists(args.doc) else ""
    at = doc.find(HEADING)
    if at < 0:
        doc = doc.rstrip("\n") + "\n\n" + section
    else:
        nxt = doc.find("\n## ", at + len(HEADING))
        doc = doc[:at] + section + (doc[nxt + 1:] if nxt >= 0 else "")
    open(args.doc, "w", encoding="utf-8").write(doc)
    print("template_table: %d commands, %d case runs compared, %d per-mk equal" % (len(commands), compared,
                                                                                    equal_count))


def commit():
    r = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return r.stdout.strip() or "?"


if __name__ == "__main__":
    main()
