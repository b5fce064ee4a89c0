#!/usr/bin/env python3
"""How far this engine covers DualSPHysics 5.4's XML format: every element and attribute of the
format reference (format_paths.tsv, made by format_reference.py) with its status here.

A status comes from the rules of format_status.txt (the most specific pattern that matches):
    implemented   read, with the meaning the reference gives it
    refused       the loader stops with an error naming it ("... not supported ...")
    inert         accepted and changes nothing this engine computes (GenCase's record of itself,
                  display options, DualSPHysics' own output switches); the note says why

usage:
  format_coverage.py table                 print the coverage table (docs/format-coverage.md)
  format_coverage.py check [--doc FILE] [--source DIR]
        every path has a status and every rule matches a path; FILE (when given) is the table this
        script prints now; every implemented attribute's name (but those of a rule ending in '@*',
        whose names are the user's) is a string literal somewhere in DIR's sources, so that
        an attribute no reader reads cannot be called implemented
  format_coverage.py probe SPH [-j N] [--show]
        load a small case with each reference element added (its ancestors created, its reference
        attributes at the reference's example values) through `SPH info` and check that what the
        loader does agrees with the status: a refused element stops the load with "not supported"
        naming it (or a refused ancestor); an implemented or inert one is never an "unknown
        element" nor refused, and no parameter key of the reference is warned of as unknown.
        --show prints each element's outcome.
Exit status 1 when a check fails, naming each path.
"""
import concurrent.futures
import fnmatch
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
PATHS = os.path.join(HERE, "format_paths.tsv")
STATUS = os.path.join(HERE, "format_status.txt")
STATUSES = ("implemented", "refused", "inert")

# The case each probe adds one element to: 3D, a few hundred particles, every part a probe may
# need to find already there (constants, geometry with a fluid and a boundary mk, parameters).
BASE_CASE = """<case>
 <casedef>
  <constantsdef>
   <gravity x="0" y="0" z="-9.81"/>
   <rhop0 value="1000"/>
   <hswl value="0" auto="true"/>
   <gamma value="7"/>
   <speedsystem value="0" auto="true"/>
   <coefsound value="20"/>
   <speedsound value="0" auto="true"/>
   <coefh value="1.0"/>
   <cflnumber value="0.2"/>
  </constantsdef>
  <mkconfig boundcount="240" fluidcount="10"/>
  <geometry>
   <definition dp="0.1">
    <pointmin x="-0.5" y="-0.5" z="-0.5"/>
    <pointmax x="1.5" y="1.5" z="1.5"/>
   </definition>
   <commands>
    <mainlist>
     <setmkfluid mk="0"/>
     <drawbox><boxfill>solid</boxfill><point x="0" y="0" z="0"/><size x="0.5" y="0.5" z="0.5"/></drawbox>
     <setmkbound mk="10"/>
     <drawbox><boxfill>all</boxfill><point x="-0.1" y="-0.1" z="-0.1"/><size x="1.2" y="1.2" z="1.2"/></drawbox>
    </mainlist>
   </commands>
  </geometry>
 </casedef>
 <execution>
  <special/>
  <parameters>
   <parameter key="TimeMax" value="0.1"/>
   <parameter key="TimeOut" value="0.01"/>
  </parameters>
 </execution>
</case>
"""


def read_paths():
    """[(path, files, example)] of the format reference, in the file's order."""
    rows = []
    with open(PATHS, encoding="utf-8") as f:
        for line in f:
            path, files, example = (line.rstrip("\n").split("\t") + ["", ""])[:3]
            rows.append((path, files, example))
    return rows


def read_rules():
    """[(pattern, status, note, line)]. A pattern is a path where '*' is one step of the path
    (no '/' nor '@'), and a final '/**' also takes everything under it, '@*' every attribute."""
    rules = []
    with open(STATUS, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            parts = text.split(None, 2)
            if len(parts) < 2 or parts[1] not in STATUSES:
                sys.exit(f"{STATUS}:{n}: expected 'PATTERN STATUS NOTE' with STATUS one of {', '.join(STATUSES)}")
            rules.append((parts[0], parts[1], parts[2] if len(parts) > 2 else "", n))
    return rules


def rule_regex(pattern):
    deep = pattern.endswith("/**")
    body = pattern[:-3] if deep else pattern
    rx = "".join("[^/@]*" if ch == "*" else re.escape(ch) for ch in body)
    if deep:
        rx += "(?:[/@].*)?"
    return re.compile(rx + r"\Z")


def specificity(pattern):
    """The rule naming a path more closely wins: a longer literal part, then fewer wildcards."""
    return (len(pattern.replace("*", "")), -pattern.count("*"))


def statuses(rows, rules):
    """{path: (status, note, rule line, pattern)}; paths no rule matches are left out."""
    compiled = sorted(((rule_regex(p), p, s, note, n) for p, s, note, n in rules),
                      key=lambda r: specificity(r[1]), reverse=True)
    out = {}
    for path, _, _ in rows:
        for rx, pattern, status, note, n in compiled:
            if rx.match(path):
                out[path] = (status, note, n, pattern)
                break
    return out


def unused_rules(rows, rules):
    paths = [p for p, _, _ in rows]
    return [(p, n) for p, _, _, n in rules if not any(rule_regex(p).match(x) for x in paths)]


def table(rows, status_of):
    counts = {s: [0, 0] for s in STATUSES}  # elements, attributes
    for path, _, _ in rows:
        counts[status_of[path][0]]["@" in path] += 1
    out = ["# DualSPHysics 5.4 XML format: coverage", "",
           "Every element and attribute of DualSPHysics 5.4's XML format reference (`doc/xml_format`:",
           "`GenCase_CaseTemplate.xml` and one `_FmtXML_*.xml` per feature), as a path from the case's",
           "root, with what this engine does with it:", "",
           "- **implemented**: read, with the meaning the reference gives it;",
           "- **refused**: loading stops with an error naming the file, the line and the element",
           "  (\"... not supported ...\"), never a silent difference from DualSPHysics;",
           "- **inert**: accepted and without effect on what this engine computes (the note says why).", "",
           "Generated by `tools/dualsphysics/format_coverage.py table` from `format_paths.tsv` (the",
           "reference's paths, by `format_reference.py`) and the rules of `format_status.txt`; CTest's",
           "`FormatCoverage` fails when a path has no status or this file is out of date, and",
           "`FormatProbe` loads a case with each element added and checks that the loader does what its",
           "status says. Parameters are listed by key (`parameter[key=...]`).", "",
           "| status | elements | attributes |", "| --- | ---: | ---: |"]
    for s in STATUSES:
        out.append(f"| {s} | {counts[s][0]} | {counts[s][1]} |")
    out += ["", "| path | status | note |", "| --- | --- | --- |"]
    for path, _, _ in rows:
        status, note = status_of[path][:2]
        out.append(f"| `{path}` | {status} | {note} |")
    return "\n".join(out) + "\n"


def literals(source):
    """Every "name"-like string literal in the C++ sources under `source`."""
    found = set()
    for top, _, names in os.walk(source):
        for name in names:
            if name.endswith((".cpp", ".h", ".cu", ".cuh")):
                with open(os.path.join(top, name), encoding="utf-8", errors="replace") as f:
                    found.update(re.findall(r'"([A-Za-z_][\w.]*)"', f.read()))
    return found


def check(rows, rules, doc, source):
    status_of = statuses(rows, rules)
    bad = 0
    if source:
        names = literals(source)
        for path, _, _ in rows:
            entry = status_of.get(path)
            if "@" not in path or not entry or entry[0] != "implemented" or entry[3].endswith("@*"):
                continue
            attr = path.split("@")[1]
            if attr not in names:
                print(f"format_coverage: {path}: implemented (rule at line {entry[2]}), but no source in {source} "
                      f"names \"{attr}\": implement it, refuse it or call it inert")
                bad += 1
    for path, files, _ in rows:
        if path not in status_of:
            print(f"format_coverage: {path} (in {files}): no status: add a rule to {STATUS}")
            bad += 1
    for pattern, n in unused_rules(rows, rules):
        print(f"format_coverage: {STATUS}:{n}: rule {pattern} matches no path of the reference")
        bad += 1
    if not bad and doc:
        want = table(rows, status_of)
        have = open(doc, encoding="utf-8").read() if os.path.exists(doc) else ""
        if have != want:
            print(f"format_coverage: {doc} is out of date: run tools/dualsphysics/format_coverage.py table > {doc}")
            bad += 1
    if not bad:
        print(f"format_coverage: {len(rows)} paths, each with a status")
    return bad == 0


# --- the probe -----------------------------------------------------------------------------

STEP = re.compile(r"parameter\[key=(.*)\]\Z")


def build_probe(path, examples, parameter_value=None, attributes=True):
    """The base case with the element at `path` added (an element the base case has already is
    taken as it is); returns (xml text, [names of the elements the probe created, outermost
    first]). Created elements get the reference's example attributes when `attributes`; a
    parameter gets `parameter_value` when given."""
    root = ET.fromstring(BASE_CASE)
    steps = path.split("/")
    node, prefix, created = root, "", []
    for i, step in enumerate(steps):
        prefix = f"{prefix}/{step}" if prefix else step
        last = i == len(steps) - 1
        m = STEP.match(step)
        name = "parameter" if m else step
        child = None if m else node.find(name)
        if child is None:
            child = ET.SubElement(node, name)
            if m:
                child.set("key", m.group(1))
            if attributes:
                for attr, value in examples.get(prefix, []):
                    child.set(attr, value)
            if m:
                child.set("value", parameter_value or child.get("value", "0"))
            created.append(name)
        node = child
    ET.indent(root, " ")
    return ET.tostring(root, encoding="unicode") + "\n", created


MESSAGE = re.compile(r":\d+: <([^>\s]+)[^>]*>: (.*)")


def outcome(sph, index, path, examples, workdir, parameter_value=None, attributes=True):
    """What `sph info` does with the element added: accepted | known (an error that is not about
    an unknown element) | refused | unknown, with the message."""
    text, created = build_probe(path, examples, parameter_value, attributes)
    case = os.path.join(workdir, f"probe{index}.xml")
    with open(case, "w", encoding="utf-8") as f:
        f.write(text)
    r = subprocess.run([sph, "info", case], capture_output=True, text=True, cwd=workdir, timeout=60)
    os.remove(case)
    err = (r.stderr or "").strip()
    if r.returncode == 0:
        m = re.search(r'<parameter key="([^"]*)">: not a parameter this engine', err)
        if m and path.endswith(f"[key={m.group(1)}]"):
            return "unknown", err.splitlines()[0]
        return "accepted", ""
    first = err.splitlines()[-1] if err else f"exit {r.returncode}"
    m = MESSAGE.search(first)
    if m and m.group(1) in created:
        if "not supported" in m.group(2):
            return "refused", first
        if m.group(2).startswith(("unknown element", "unknown geometry command")):
            return "unknown", first
    return "known", first


def agrees(status, result):
    if status == "refused":
        return result == "refused"
    return result in ("accepted", "known")


# Names the reference writes for "any element here" (<initialize><XXX>): no element to probe.
PLACEHOLDERS = {"XXX"}


def probe_one(sph, index, path, status, examples, workdir):
    # A refused parameter is refused unless switched off: give it a value that switches it on.
    value = "1" if status == "refused" and "parameter[" in path.split("/")[-1] else None
    result = outcome(sph, index, path, examples, workdir, value)
    # The reference's example values may ask for an option this engine refuses (autofill="true"):
    # the element itself is implemented when it is read without any of them.
    if status != "refused" and result[0] == "refused":
        plain = outcome(sph, index, path, examples, workdir, value, attributes=False)
        if plain[0] != "refused":
            return plain
    return result


def probe(rows, rules, sph, jobs, show):
    status_of = statuses(rows, rules)
    examples = {}
    for path, _, example in rows:
        if "@" in path:
            element, attr = path.split("@")
            examples.setdefault(element, []).append((attr, example or "0"))
    elements = [p for p, _, _ in rows if "@" not in p and p != "case" and p in status_of
                and not PLACEHOLDERS & set(p.split("/"))]
    bad = 0
    with tempfile.TemporaryDirectory(prefix="sph_format_probe_") as work:
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(lambda ip: probe_one(sph, ip[0], ip[1], status_of[ip[1]][0], examples, work),
                                    enumerate(elements)))
    for path, (result, message) in zip(elements, results):
        status = status_of[path][0]
        ok = agrees(status, result)
        if show or not ok:
            print(f"{'' if ok else 'MISMATCH '}{path}: status {status}, loader {result}" +
                  (f": {message}" if message else ""))
        bad += not ok
    print(f"format_coverage probe: {len(elements)} elements, {bad} where the loader disagrees with the status")
    return bad == 0


def main(argv):
    if len(argv) < 2 or argv[1] not in ("table", "check", "probe"):
        sys.exit(__doc__)
    rows, rules = read_paths(), read_rules()
    if argv[1] == "table":
        status_of = statuses(rows, rules)
        missing = [p for p, _, _ in rows if p not in status_of]
        if missing:
            sys.exit(f"format_coverage: {len(missing)} paths have no status, first {missing[0]}")
        sys.stdout.write(table(rows, status_of))
        return 0
    if argv[1] == "check":
        doc = argv[argv.index("--doc") + 1] if "--doc" in argv else None
        source = argv[argv.index("--source") + 1] if "--source" in argv else None
        return 0 if check(rows, rules, doc, source) else 1
    if len(argv) < 3:
        sys.exit(__doc__)
    jobs = int(argv[argv.index("-j") + 1]) if "-j" in argv else (os.cpu_count() or 1)
    return 0 if probe(rows, rules, argv[2], jobs, "--show" in argv) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
