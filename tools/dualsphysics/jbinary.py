"""Reads DualSPHysics' JBinaryData files (GenCase's CASE.bi4, DualSPHysics' Part_NNNN.bi4).

The layout, as DualSPHysics' JBinaryData class writes it (little endian):
  a 64-byte head ("#FileJBD <code>", padded, a newline, the byte order), then one item.
  item:  uint size of the definition, "\\nITEM\\n", name, hide (int), hide values (int),
         float format, double format, number of arrays, number of items, size of the values;
         then the values ("\\nVALUES", count, each: name, type, data), the arrays
         (uint size, "\\nARRAY", name, hide, type, count, bytes, data) and the child items.
  strings: uint length then the bytes.
"""
import struct

# JBinaryDataDef::TpData codes and their struct formats.
_FORMATS = {2: "i", 3: "b", 4: "B", 5: "h", 6: "H", 7: "i", 8: "I", 9: "q", 10: "Q", 11: "f", 12: "d",
            20: "3i", 21: "3I", 22: "3f", 23: "3d"}
_HEAD_BYTES = 64


class _Reader:
    def __init__(self, data, pos):
        self.data, self.pos = data, pos

    def uint(self):
        (v,) = struct.unpack_from("<I", self.data, self.pos)
        self.pos += 4
        return v

    def text(self):
        n = self.uint()
        v = self.data[self.pos:self.pos + n].decode("latin1")
        self.pos += n
        return v

    def unpack(self, fmt, count=1):
        full = "<" + fmt * count if len(fmt) == 1 else "<" + fmt[1] * (int(fmt[0]) * count)
        v = struct.unpack_from(full, self.data, self.pos)
        self.pos += struct.calcsize(full)
        return v


def _item(r):
    r.uint()  # size of the definition
    if r.text() != "\nITEM\n":
        raise ValueError(f"no item at byte {r.pos}")
    item = {"name": r.text(), "values": {}, "arrays": {}, "items": []}
    r.uint(), r.uint(), r.text(), r.text()
    narrays, nitems, values_size = r.uint(), r.uint(), r.uint()
    if values_size:
        end = r.pos + values_size
        if not r.text().startswith("\nVALUES"):
            raise ValueError(f"no values at byte {r.pos}")
        for _ in range(r.uint()):
            name, kind = r.text(), r.uint()
            if kind == 1:
                item["values"][name] = r.text()
            else:
                v = r.unpack(_FORMATS[kind])
                item["values"][name] = v if len(v) > 1 else v[0]
        r.pos = end
    for _ in range(narrays):
        r.uint()
        if r.text() != "\nARRAY":
            raise ValueError(f"no array at byte {r.pos}")
        name = r.text()
        r.uint()
        kind, count, nbytes = r.uint(), r.uint(), r.uint()
        fmt = _FORMATS[kind]
        width = 3 if fmt[0] == "3" else 1
        flat = r.unpack(fmt, count)
        if len(flat) * struct.calcsize("<" + fmt[-1]) != nbytes:
            raise ValueError(f"array {name}: {nbytes} bytes for {count} values")
        item["arrays"][name] = [flat[i:i + width] for i in range(0, len(flat), width)] if width == 3 else list(flat)
    for _ in range(nitems):
        item["items"].append(_item(r))
    return item


def read(path):
    data = open(path, "rb").read()
    if not data.startswith(b"#FileJBD"):
        raise ValueError(f"{path}: not a JBinaryData file")
    return _item(_Reader(data, _HEAD_BYTES))


def particles(path):
    """(values of the file's root item, values of its first PART item, its arrays) of a .bi4."""
    root = read(path)
    stack = [root]
    while stack:
        it = stack.pop(0)
        if it["name"].startswith("PART"):
            return root["values"], it["values"], it["arrays"]
        stack.extend(it["items"])
    raise ValueError(f"{path}: no PART item")


def run_parts(run):
    """Every saved part of a DualSPHysics run (RUNDIR/data/Part_*.bi4) in order, as (values of the
    root item, values of the PART item, positions, densities, ids, number of boundary particles):
    the particles with ids from that number on are the fluid."""
    import glob
    import os
    for path in sorted(glob.glob(os.path.join(run, "data", "Part_*.bi4"))):
        head, part, a = particles(path)
        pos = a["Posd"] if "Posd" in a else a["Pos"]
        yield head, part, pos, a["Rhop"], a["Idp"], head["CaseNp"] - head["CaseNfluid"]
