"""Manifest entries for record arrays (complex numbers, structured dtypes), by the rules
nczarr-cli's io.nczarr.cli.Manifest defines (SCHEMA.md has none for structures yet):

* the structure itself: {"type": "structure", "dimensions", "shape", "attributes",
  "data": {"count": number of records}};
* every leaf member, at "<structure path>.<member>" (nested: ".<outer>.<inner>"): its netCDF type,
  "shape" = the structure's shape + each enclosing nested member's sub-array shape + its own,
  "dimensions" = the structure's dimension paths + one null per further (anonymous) axis,
  "attributes" {}, and the usual value summary over that shape in C order.

Opaque arrays (|O with vlen-bytes; v3 variable_length_bytes): {"type": "opaque", ..., "data":
{"count", "sha256"}} with the sha256 of each element as its length (4 bytes, big-endian) and its
bytes (opaque_summary).

Member types: bool -> ubyte, integers and floats as usual, datetime64/timedelta64 -> int64 counts,
complex -> a nested structure of "real" and "imag" (float or double), |Sn -> char with n more
characters along one more axis (n > 1).
"""
import hashlib
import os
import struct
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import manifest as mf  # noqa: E402


def _leaf_type(dt):
    if dt.kind in "Mm":
        return "int64"
    if dt.kind == "S":
        return "char"
    return mf.numpy_nctype(dt)


def leaves(values, prefix):
    """(path, values with the full shape, nctype) of every leaf member of a record array."""
    dt = values.dtype
    if dt.kind == "c":
        yield prefix + ".real", values.real, _leaf_type(values.real.dtype)
        yield prefix + ".imag", values.imag, _leaf_type(values.imag.dtype)
        return
    for name in dt.names:
        sub = values[name]                     # shape: values.shape + the field's sub-array shape
        base = sub.dtype
        path = prefix + "." + name
        if base.names is not None or base.kind == "c":
            yield from leaves(sub, path)
        elif base.kind == "S":
            n = base.itemsize
            chars = np.ascontiguousarray(sub).view("S1").reshape(sub.shape + ((n,) if n > 1 else ()))
            yield path, chars, "char"
        elif base.kind in "Mm":
            yield path, sub.view("<i8") if base.byteorder != ">" else sub.astype("<i8"), "int64"
        else:
            yield path, sub, _leaf_type(base)


def opaque_summary(items):
    """Opaque (vlen-bytes) values, a rule nczarr-cli's Manifest defines (SCHEMA.md has none yet): sha256
    of each element (C order) as its length (4 bytes, big-endian) and its bytes; count; no head."""
    h = hashlib.sha256()
    n = 0
    for b in items:
        h.update(struct.pack(">i", len(b)))
        h.update(bytes(b))
        n += 1
    return {"count": n, "sha256": h.hexdigest()}


def entries(path, values, dims, attrs=None):
    """{variable path: entry} for a record array: the structure and its leaf members."""
    shape = list(values.shape)
    out = {path: {"type": "structure", "dimensions": list(dims), "shape": shape,
                  "attributes": attrs or {}, "data": {"count": int(values.size)}}}
    for mpath, v, nctype in leaves(values, path):
        out[mpath] = {"type": nctype, "dimensions": list(dims) + [None] * (v.ndim - len(dims)),
                      "shape": list(v.shape), "attributes": {}, "data": mf.summarize(v, nctype)}
    return out
