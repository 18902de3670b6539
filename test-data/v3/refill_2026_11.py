"""One-off update of the pure Zarr v3 expected manifests to SCHEMA.md's 2026-11-25 fill rule.

Zarr v3 `_FillValue` is reported only from the `_FillValue` attribute (not from `fill_value`), except a
`NaT` fill_value of a numpy.datetime64/timedelta64 array. This removes `_FillValue` from every expected
variable whose `zarr.json` has no non-null `_FillValue` attribute (and is not a NaT time array), reading
the stores as they are (standard library only; NCZarr entries are untouched: they already followed it).
generate.py's fill_attr follows the same rule for future regenerations.

    python3 test-data/v3/refill_2026_11.py
"""
import json
import os
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))


def node_reader(path):
    if path.endswith(".zip"):
        z = zipfile.ZipFile(path)
        names = set(z.namelist())
        return lambda key: json.loads(z.read(key)) if key in names else None

    def read(key):
        p = os.path.join(path, key)
        if not os.path.isfile(p):
            return None
        with open(p, encoding="utf-8") as f:
            return json.load(f)
    return read


def is_nat_time(node):
    dt = node.get("data_type")
    name = dt.get("name") if isinstance(dt, dict) else dt
    if name not in ("numpy.datetime64", "numpy.timedelta64"):
        return False
    fv = node.get("fill_value")
    return fv in ("NaT", None, -9223372036854775808)


def main():
    with open(os.path.join(HERE, "INDEX.json"), encoding="utf-8") as f:
        index = json.load(f)
    for e in index["datasets"] + index["bad"]:
        if "mode=zarr" not in e["fragment"]:
            continue
        read = node_reader(os.path.join(HERE, e["path"]))
        exp_path = os.path.join(HERE, e["expected"])
        with open(exp_path, encoding="utf-8") as f:
            exp = json.load(f)
        changed = 0
        for vpath, v in exp.get("variables", {}).items():
            if "." in vpath.rsplit("/", 1)[-1] or "_FillValue" not in v.get("attributes", {}):
                continue
            node = read(vpath.strip("/") + "/zarr.json")
            if node is None:
                raise SystemExit("%s: no zarr.json for %s" % (e["name"], vpath))
            attr = (node.get("attributes") or {}).get("_FillValue")
            if attr is None and not is_nat_time(node):
                del v["attributes"]["_FillValue"]
                changed += 1
        if changed:
            with open(exp_path, "w", encoding="utf-8") as f:
                json.dump(exp, f, indent=1, ensure_ascii=False)
                f.write("\n")
        print("%s: %d _FillValue removed" % (e["name"], changed))


if __name__ == "__main__":
    main()
