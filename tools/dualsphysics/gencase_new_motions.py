"""GenCase output for cases whose <motion> uses movements GenCase 5.0 does not know (DualSPHysics
5.4's mvrotadvfile and mvpathfile).

  python3 tools/dualsphysics/gencase_new_motions.py CASE_Def.xml OUTDIR/CASE [GENCASE]

Runs GenCase (default: ../shared/tools/GenCase_linux64) on a copy of the case in which each such
movement is a <wait> of the same id and duration, then puts the case's own <motion> into the
<execution><motion> of GenCase's OUTDIR/CASE.xml, where DualSPHysics 5.4 reads it, with each
<objreal ref> renumbered as GenCase numbers the moving blocks there (their refmotion), and copies
those movements' data files into OUTDIR, where DualSPHysics looks for them.
"""
import shutil
import os
import re
import subprocess
import sys

NEW = ("mvrotadvfile", "mvpathfile")


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    case, out = argv[1], argv[2]
    here = os.path.dirname(os.path.abspath(__file__))
    gencase = argv[3] if len(argv) > 3 else os.path.join(here, "../../../shared/tools/GenCase_linux64")
    src = open(case).read()
    motion = re.search(r"<motion>.*?</motion>", src, re.S).group(0)

    def as_wait(m):
        dur = re.search(r'duration="([^"]*)"', m.group(0)).group(1)
        mid = re.search(r'id="([^"]*)"', m.group(0)).group(1)
        return f'<wait id="{mid}" duration="{dur}" />'

    plain = re.sub(r"<(%s)\b[^>]*>.*?</\1>" % "|".join(NEW), as_wait, src, flags=re.S)
    tmp = os.path.join(os.path.dirname(os.path.abspath(out)), os.path.basename(out) + "_Gc_Def.xml")
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    open(tmp, "w").write(plain)
    subprocess.run([gencase, tmp[: -len(".xml")], out], check=True, stdout=subprocess.DEVNULL)
    os.remove(tmp)
    xml = open(out + ".xml").read()
    refmotion = {int(mk): int(r) for mk, r in re.findall(r'<moving mkbound="(\d+)"[^>]*refmotion="(\d+)"', xml)}
    renumbered = re.sub(r'<objreal ref="(\d+)"', lambda m: f'<objreal ref="{refmotion[int(m.group(1))]}"', motion)
    execution = xml.index("<execution>")
    head, tail = xml[:execution], xml[execution:]
    tail, n = re.subn(r"<motion>.*?</motion>", lambda m: renumbered, tail, count=1, flags=re.S)
    if n != 1:
        sys.exit(f"{out}.xml: no <execution><motion> to replace")
    open(out + ".xml", "w").write(head + tail)
    for kind in NEW:
        for block in re.findall(r"<%s\b.*?</%s>" % (kind, kind), motion, re.S):
            name = re.search(r'<file name="([^"]*)"', block).group(1)
            if not os.path.isabs(name):
                shutil.copy(os.path.join(os.path.dirname(os.path.abspath(case)), name), os.path.dirname(os.path.abspath(out)))


if __name__ == "__main__":
    main(sys.argv)
