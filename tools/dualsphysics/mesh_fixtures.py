#!/usr/bin/env python3
"""Writes the small mesh files of the GenCase parity case engine/tests/data/gencase/Meshes_Def.xml
(every format the mesh commands read: ASCII and binary STL, ASCII and binary legacy VTK, ASCII and
binary PLY) and of the mesh reader tests.

    mesh_fixtures.py [OUTDIR]     (default: engine/tests/data/gencase)
"""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def stl_ascii(tris):
    s = "solid fixture\n"
    for t in tris:
        s += " facet normal 0 0 0\n  outer loop\n"
        s += "".join("   vertex %r %r %r\n" % tuple(v) for v in t)
        s += "  endloop\n endfacet\n"
    return (s + "endsolid fixture\n").encode()


def stl_binary(tris):
    # GenCase reads a file that starts with "solid" as ASCII STL, whatever follows.
    b = b"binary fixture".ljust(80, b" ") + struct.pack("<I", len(tris))
    for t in tris:
        b += struct.pack("<12fH", 0, 0, 0, *[c for v in t for c in v], 0)
    return b


def vtk(points, polys, binary):
    head = "# vtk DataFile Version 3.0\nfixture\n%s\nDATASET POLYDATA\nPOINTS %d float\n" % (
        "BINARY" if binary else "ASCII", len(points))
    size = sum(len(p) + 1 for p in polys)
    if binary:
        b = head.encode() + b"".join(struct.pack(">3f", *p) for p in points) + b"\n"
        b += ("POLYGONS %d %d\n" % (len(polys), size)).encode()
        return b + b"".join(struct.pack(">%di" % (len(p) + 1), len(p), *p) for p in polys) + b"\n"
    s = head + "".join("%r %r %r\n" % tuple(p) for p in points)
    s += "POLYGONS %d %d\n" % (len(polys), size)
    return (s + "".join(" ".join(map(str, [len(p)] + list(p))) + "\n" for p in polys)).encode()


def ply(points, faces, fmt):
    head = ("ply\nformat %s 1.0\ncomment fixture\nelement vertex %d\nproperty float x\nproperty float y\n"
            "property float z\nelement face %d\nproperty list uchar int vertex_indices\nend_header\n"
            % (fmt, len(points), len(faces)))
    if fmt == "ascii":
        return (head + "".join("%r %r %r\n" % tuple(p) for p in points)
                + "".join(" ".join(map(str, [len(f)] + list(f))) + "\n" for f in faces)).encode()
    e = "<" if fmt == "binary_little_endian" else ">"
    return head.encode() + b"".join(struct.pack(e + "3f", *p) for p in points) + b"".join(
        struct.pack(e + "B%di" % len(f), len(f), *f) for f in faces)


def cube(lo, hi):
    (x0, y0, z0), (x1, y1, z1) = lo, hi
    v = [(x0, y0, z0), (x1, y0, z0), (x1, y1, z0), (x0, y1, z0), (x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1)]
    quads = [(0, 3, 2, 1), (4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7)]
    return [t for a, b, c, d in quads for t in ([v[a], v[b], v[c]], [v[a], v[c], v[d]])]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "../../engine/tests/data/gencase")
    # A tetrahedron with sloping faces (ASCII STL), a closed box (binary STL).
    tetra = [(0.013, 0.021, 0.007), (0.283, 0.037, 0.019), (0.061, 0.247, 0.031), (0.097, 0.089, 0.263)]
    a, b, c, d = tetra
    files = {
        "MeshTetra.stl": stl_ascii([[a, c, b], [a, b, d], [b, c, d], [a, d, c]]),
        "MeshBox.stl": stl_binary(cube((0.0, 0.0, 0.0), (0.317, 0.243, 0.207))),
    }
    # A roof of non-planar quadrilaterals and triangles (VTK ASCII and binary).
    roof_points = [(0.0, 0.0, 0.0), (0.3, 0.0, 0.05), (0.31, 0.22, 0.0), (0.02, 0.2, 0.07),
                   (0.15, 0.11, 0.19), (0.45, 0.1, 0.02)]
    roof_polys = [[0, 1, 4, 3], [1, 2, 4], [2, 3, 4], [1, 5, 2]]
    files["MeshRoof.vtk"] = vtk(roof_points, roof_polys, False)
    files["MeshRoofBin.vtk"] = vtk(roof_points, roof_polys, True)
    # A fan of triangles and a quadrilateral (PLY ASCII, little- and big-endian binary).
    fan_points = [(0.0, 0.0, 0.0), (0.21, 0.03, 0.01), (0.18, 0.19, 0.08), (0.01, 0.23, 0.13), (-0.11, 0.09, 0.17)]
    fan_faces = [[0, 1, 2], [0, 2, 3, 4], [4, 1, 0]]
    files["MeshFan.ply"] = ply(fan_points, fan_faces, "ascii")
    files["MeshFanLe.ply"] = ply(fan_points, fan_faces, "binary_little_endian")
    # Big-endian PLY only for the reader tests: GenCase 5.0 crashes on it.
    files["MeshFanBe.ply"] = ply(fan_points, fan_faces, "binary_big_endian")
    for name, data in files.items():
        open(os.path.join(out, name), "wb").write(data)
        print(name, len(data), "bytes")


if __name__ == "__main__":
    main()
