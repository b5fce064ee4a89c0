#!/usr/bin/env python3
"""mDBC normals for DualSPHysics 5.4 from GenCase 5.0's output.

GenCase 5.0 writes only the raw normal data of a case with <normals>: CASE_NormalData.nbi4 lists,
for every boundary particle, each face of the <geometryfile> surface near it (the face's unit
normal, the signed distance to its plane, the direction and distance from the projection to the
face's edge, negative when the projection falls outside the face). DualSPHysics 5.4 reads the
final normal of each boundary particle from the case file (array "BoundNor" of CASE.bi4), which
GenCase 5.4 writes. This script makes that step: it picks the final normal from the raw data as
GenCase does (the rules are written out in engine/src/geometry/boundary_normals.h, which computes the same
normals from the geometry) and appends "BoundNor" to CASE.bi4.

    gencase_normals.py GCDIR/CASE [--csv NORMALS.csv]

--csv also writes the final normals (id, x, y, z, nx, ny, nz; GenCase's normal, to the boundary
surface, not yet doubled) for the engine's tests.
"""
import argparse
import math
import struct
import sys

import jbinary


def _sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _add(a, b):
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def _scale(a, s):
    return (a[0] * s, a[1] * s, a[2] * s)


def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _norm(a):
    return math.sqrt(_dot(a, a))


def _same(a, b, tol):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def _planes_meet(points, normals):
    n0, n1, n2 = normals
    c12 = (n1[1] * n2[2] - n1[2] * n2[1], n1[2] * n2[0] - n1[0] * n2[2], n1[0] * n2[1] - n1[1] * n2[0])
    c20 = (n2[1] * n0[2] - n2[2] * n0[1], n2[2] * n0[0] - n2[0] * n0[2], n2[0] * n0[1] - n2[1] * n0[0])
    c01 = (n0[1] * n1[2] - n0[2] * n1[1], n0[2] * n1[0] - n0[0] * n1[2], n0[0] * n1[1] - n0[1] * n1[0])
    det = _dot(n0, c12)
    if abs(det) < 1e-12:
        return None
    s = _add(_add(_scale(c12, _dot(n0, points[0])), _scale(c20, _dot(n1, points[1]))), _scale(c01, _dot(n2, points[2])))
    return _scale(s, 1.0 / det)


def final_normal(p, entries, reach, tol):
    """entries: (normal, dist, outvec, outdist) of one particle's faces; returns the normal or None."""
    near = []  # (normal, dist, inside, limit point)
    for n, d, t, td in entries:
        if not (0 < d <= reach):
            continue
        q = _add(p, _scale(n, d))
        inside = td >= -tol
        limit = q if inside else _add(q, _scale(t, td))
        near.append((n, d, inside, limit))
    inside_min = min((d for n, d, inside, _ in near if inside), default=math.inf)
    if inside_min <= reach:
        nearest = []
        for v in near:
            if v[2] and abs(v[1] - inside_min) <= tol and not any(_same(w[0], v[0], tol) for w in nearest):
                nearest.append(v)
        if len(nearest) > 1:
            mean = (0.0, 0.0, 0.0)
            for n, d, _, _ in nearest:
                mean = _add(mean, _scale(n, d))
            mean = _scale(mean, 1.0 / len(nearest))
            length = _norm(mean)
            along = min((d * d / _dot(mean, _scale(n, d)) * length for n, d, _, _ in nearest
                         if d * d / _dot(mean, _scale(n, d)) * length >= 0), default=0.0)
            result = _scale(mean, along / length) if length > 0 else (0.0, 0.0, 0.0)
            if _norm(result) <= 1.5 * reach:
                return result
        return _sub(nearest[0][3], p)
    if not near:
        return None
    limits = []
    for v in near:
        for k, w in enumerate(limits):
            if _same(w[0], v[0], tol):
                if _norm(_sub(v[3], p)) < _norm(_sub(w[3], p)):
                    limits[k] = v
                break
        else:
            limits.append(v)
    dmin, count, first, distinct = math.inf, 0, 0, False
    for k, v in enumerate(limits):
        d = _norm(_sub(v[3], p))
        if abs(d - dmin) <= tol:
            count += 1
            if not _same(v[3], limits[first][3], tol):
                distinct = True
        elif d < dmin:
            dmin, count, first = d, 1, k
    if count == 3 and distinct:
        sel = [v for v in limits if abs(_norm(_sub(v[3], p)) - dmin) <= tol][:3]
        corner = _planes_meet([_add(p, _scale(n, d)) for n, d, _, _ in sel], [n for n, _, _, _ in sel])
        if corner is not None:
            return _sub(corner, p)
    best = min(range(len(limits)), key=lambda k: _norm(_sub(limits[k][3], p)))
    return _sub(limits[best][3], p)


def gencase_normals(case):
    """Final normals of the boundary particles of GenCase output CASE (CASE.bi4 + CASE_NormalData.nbi4)."""
    nd = jbinary.read(case + "_NormalData.nbi4")
    v, a = nd["values"], nd["arrays"]
    _, _, parts = jbinary.particles(case + ".bi4")
    pos = parts["Posd"]
    tol = v["Dp"] * 1e-4
    begin = a["NormalBegin"]
    out = []
    for i in range(v["Nbound"]):
        entries = [(a["Normals"][k], a["NormalsDist"][k], a["OutVecs"][k], a["OutVecsDist"][k])
                   for k in range(begin[i], begin[i + 1])]
        n = final_normal(pos[i], entries, v["Dist"], tol)
        out.append(n if n is not None else (0.0, 0.0, 0.0))
    return pos, out


def append_boundnor(path, normals):
    """Appends the float3 array BoundNor to the last item (the particles) of the JBinaryData file."""
    data = bytearray(open(path, "rb").read())
    r = jbinary._Reader(bytes(data), 64)
    last_na_at = None

    def item():
        nonlocal last_na_at
        r.uint()
        r.text()
        r.text()
        r.uint(), r.uint(), r.text(), r.text()
        na_at = r.pos
        na, ni, vs = r.uint(), r.uint(), r.uint()
        r.pos += vs
        for _ in range(na):
            r.uint(), r.text(), r.text(), r.uint()
            _, _, nbytes = r.uint(), r.uint(), r.uint()
            r.pos += nbytes
        if ni == 0:
            last_na_at = (na_at, na)
        for _ in range(ni):
            item()

    item()
    if r.pos != len(data):
        raise ValueError(f"{path}: the particles are not the file's last item")
    na_at, na = last_na_at
    struct.pack_into("<I", data, na_at, na + 1)

    def text(s):
        b = s.encode("latin1")
        return struct.pack("<I", len(b)) + b

    body = text("\nARRAY") + text("BoundNor") + struct.pack("<IIII", 0, 22, len(normals), 12 * len(normals))
    data += struct.pack("<I", len(body)) + body
    data += struct.pack(f"<{3 * len(normals)}f", *[c for n in normals for c in n])
    open(path, "wb").write(bytes(data))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("case", help="GenCase output, without extension (GCDIR/CASE)")
    ap.add_argument("--csv", help="also write the normals to this CSV file")
    args = ap.parse_args()
    pos, normals = gencase_normals(args.case)
    if "BoundNor" in jbinary.particles(args.case + ".bi4")[2]:
        sys.exit(f"{args.case}.bi4 already has BoundNor")
    append_boundnor(args.case + ".bi4", normals)
    if args.csv:
        with open(args.csv, "w") as f:
            f.write("id,x,y,z,nx,ny,nz\n")
            for i, (p, n) in enumerate(zip(pos, normals)):
                f.write(f"{i},{p[0]:.9g},{p[1]:.9g},{p[2]:.9g},{n[0]:.9g},{n[1]:.9g},{n[2]:.9g}\n")
    print(f"{args.case}.bi4: BoundNor for {len(normals)} boundary particles "
          f"({sum(1 for n in normals if n != (0.0, 0.0, 0.0))} with a normal)")


if __name__ == "__main__":
    main()
