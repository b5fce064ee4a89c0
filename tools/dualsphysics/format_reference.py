#!/usr/bin/env python3
"""Every element and attribute of DualSPHysics 5.4's XML format reference, as paths in a case.

The reference (doc/xml_format of DualSPHysics: GenCase_CaseTemplate.xml and one _FmtXML_*.xml per
feature) is written for people: several files are not well-formed XML (comments with "--",
tags left open, fragments with several roots), so this reads tags with a tolerant scanner rather
than an XML parser. A path names the element from the case's root:
    casedef/geometry/commands/mainlist/drawbox/boxfill
    execution/special/damping/dampingzone/limitmin@x          (an attribute)
    execution/parameters/parameter[key=StepAlgorithm]         (a parameter, by its key)
Attributes named *comment are the reference's explanations and are left out.

usage: format_reference.py REFERENCE_DIR
    one line per path, sorted, tab-separated: PATH, the reference files that give it
    (comma-separated), and for an attribute the first value the reference writes for it (an
    example; the probe of format_coverage.py fills elements with these).
    tools/dualsphysics/format_paths.tsv is this output, committed: the tests read it (CI has no
    reference folder).
"""
import os
import re
import sys

# The features of <execution><special> that the reference's files give without that wrapper.
SPECIAL = {"accinputs", "chrono", "damping", "gauges", "initialize", "inout", "mlayerpistons", "moordynplus",
           "mphase", "outputparts", "relaxationzones", "savedt", "shifting", "timeout", "wavepaddles",
           "flexstrucs", "vres"}
# Fragments the reference's files give alone, and where they stand in a case: the modes of an
# inlet/outlet zone, Chrono's per-body force scaling, the mooring definitions.
FRAGMENTS = {"imposevelocity": "execution/special/inout/inoutzone", "imposezsurf": "execution/special/inout/inoutzone",
             "imposerhop": "execution/special/inout/inoutzone", "scaleforce": "execution/special/chrono",
             "moorings": "execution/special", "moordynplusplus": "execution/special/moorings"}
# The parts of <casedef> that the reference's files give without that wrapper.
CASEDEF = {"constantsdef", "mkconfig", "geometry", "motion", "floatings", "properties", "normals", "initials"}
# Quoted values may hold '<' and '>' ("above the bottom >0"); a tag left open ends at the next '<'.
TAG = re.compile(r'<(/?)([A-Za-z_][\w.\-]*)((?:"[^"]*"|[^<>"])*?)(/?)(?:>|(?=<)|$)', re.S)
ATTR = re.compile(r'([A-Za-z_][\w.\-:]*)\s*=\s*"([^"]*)"')


def canonical(stack):
    """The path of an element from the case's root, whatever wrapper the reference file used."""
    parts = list(stack)
    if parts == ["case"]:
        return "case"
    if parts and parts[0] == "case":
        parts = parts[1:]
    if parts and parts[0] in FRAGMENTS:
        parts = FRAGMENTS[parts[0]].split("/") + parts
    if parts and parts[0] == "special":
        parts = ["execution"] + parts
    elif parts and parts[0] in SPECIAL:
        parts = ["execution", "special"] + parts
    elif parts and parts[0] == "parameters":
        parts = ["execution"] + parts
    elif parts and parts[0] in CASEDEF:
        parts = ["casedef"] + parts
    return "/".join(parts)


def paths_of(text):
    text = re.sub(r'<\?.*?\?>', '', text, flags=re.S)
    text = re.sub(r'<!--.*?-->', '', text, flags=re.S)
    text = re.sub(r'<!\[CDATA\[.*?\]\]>', '', text, flags=re.S)
    found = {}  # path -> the first value the file gives it (attributes), "" for elements
    stack = []
    for m in TAG.finditer(text):
        closing, name, rest, selfclose = m.group(1), m.group(2), m.group(3), m.group(4)
        if closing:
            if name in stack:  # tolerant: close what is open down to it
                while stack and stack.pop() != name:
                    pass
            elif stack:  # a closing tag naming nothing open (_FmtXML_InOut.xml closes an
                stack.pop()  # <imposezsurf> with </imposevelocity>): it closes the innermost
            continue
        attrs = dict(ATTR.findall(rest))
        element = name
        if name == "parameter" and "key" in attrs:
            element = f"parameter[key={attrs['key']}]"
        path = canonical(stack + [element])
        found.setdefault(path, "")
        for a, v in attrs.items():
            if not a.lower().endswith("comment") and not (name == "parameter" and a == "key"):
                found.setdefault(f"{path}@{a}", " ".join(v.split()))
        # An element left open by a tag that never closes ("<parameter ... " followed by the
        # next tag) counts as empty, as do self-closing ones.
        if not selfclose and m.group(0).endswith(">"):
            stack.append(element)
    return found


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    ref = argv[1]
    if not os.path.isdir(ref):
        sys.exit(f"format_reference.py: {ref}: no such directory (the reference's xml_format folder)")
    files, example = {}, {}
    for name in sorted(os.listdir(ref)):
        if name.endswith(".xml"):
            with open(os.path.join(ref, name), encoding="utf-8", errors="replace") as f:
                for p, v in paths_of(f.read()).items():
                    files.setdefault(p, []).append(name)
                    if v and not example.get(p):
                        example[p] = v
    for p in sorted(files):
        print(f"{p}\t{','.join(files[p])}\t{example.get(p, '')}")


if __name__ == "__main__":
    main(sys.argv)
