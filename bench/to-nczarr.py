#!/usr/bin/env python3
"""Turn a flat pure-Zarr v2 group (arrays with _ARRAY_DIMENSIONS at the root, no subgroups) into
an NCZarr dataset as netcdf-c 4.9.1/4.9.2 writes it (lower-case _nczarr_* keys in .zgroup,
.zarray and .zattrs). Chunk objects are hard-linked, not copied.

usage: to-nczarr.py SRC.zarr DST.file
Standard library only.
"""
import json
import os
import shutil
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def save(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, dst = sys.argv[1], sys.argv[2]
    if os.path.exists(dst):
        shutil.rmtree(dst)
    os.makedirs(dst)
    dims = {}
    arrays = []
    for name in sorted(os.listdir(src)):
        p = os.path.join(src, name)
        if not os.path.isdir(p):
            continue
        if not os.path.exists(os.path.join(p, ".zarray")):
            sys.exit("%s: subgroups are not supported" % p)
        zarray = load(os.path.join(p, ".zarray"))
        zattrs = load(os.path.join(p, ".zattrs")) if os.path.exists(os.path.join(p, ".zattrs")) else {}
        names = zattrs.get("_ARRAY_DIMENSIONS")
        if names is None:
            sys.exit("%s: no _ARRAY_DIMENSIONS" % p)
        for n, length in zip(names, zarray["shape"]):
            if dims.setdefault(n, length) != length:
                sys.exit("dimension %s has two lengths" % n)
        arrays.append(name)
        out = os.path.join(dst, name)
        os.makedirs(out)
        zarray["_nczarr_array"] = {"dimrefs": ["/" + n for n in names], "storage": "chunked"}
        save(os.path.join(out, ".zarray"), zarray)
        zattrs["_nczarr_attr"] = {"types": {k: (">S1" if isinstance(v, str) else "<f8")
                                            for k, v in zattrs.items() if k != "_ARRAY_DIMENSIONS"}}
        save(os.path.join(out, ".zattrs"), zattrs)
        for fn in os.listdir(p):
            if not fn.startswith("."):
                os.link(os.path.join(p, fn), os.path.join(out, fn))
    root_attrs = load(os.path.join(src, ".zattrs")) if os.path.exists(os.path.join(src, ".zattrs")) else {}
    root_attrs["_nczarr_attr"] = {"types": {k: ">S1" for k in root_attrs}}
    save(os.path.join(dst, ".zattrs"), root_attrs)
    save(os.path.join(dst, ".zgroup"), {"zarr_format": 2, "_nczarr_superblock": {"version": "2.0.0"},
                                         "_nczarr_group": {"dims": dims, "vars": arrays, "groups": []}})
    print("%s: NCZarr, %d arrays, dims %s" % (dst, len(arrays), dims))


if __name__ == "__main__":
    main()
