#!/usr/bin/env python3
"""Test data for issue 23: Icechunk 2.x repositories (spec 2) written by icechunk-python, with expected
manifests (`zarr-conformance-manifest/1`, /work/shared/conformance/SCHEMA.md) read back by icechunk +
zarr-python, never by nczarr-java.

    ~/.pyenv/versions/3.12.1/bin/python3 -m venv /work/venvs/icechunk
    /work/venvs/icechunk/bin/pip install -r test-data/icechunk/requirements.txt
    /work/venvs/icechunk/bin/python test-data/icechunk/make.py

Repositories (INDEX.json lists the datasets; one dataset per snapshot selection):

* native.icechunk   native chunks (zarr-python's default zstd codec, an explicit blosc array), inline chunks
                    (small coordinate arrays under icechunk's 512-byte inline threshold), nested groups, a
                    never-written chunk (reads as fill), an array whose manifest is split along axis 0
                    (ManifestSplittingConfig, 2 chunks per manifest). History: commit 1 "initial" on main,
                    tag v1 -> commit 1, branch dev from commit 1 with its own commit, commit 2 on main
                    (new values, a new array). Expected manifests: main tip, tag v1, branch dev.
* virtual.icechunk  virtual chunks pointing into virt_src.nc (netCDF-4/HDF5, netCDF4-python): a contiguous
                    float32 variable cut into 2 chunks by byte range and a zlib-compressed chunked int16
                    variable (chunk offsets from h5py), with location compression on (zstd dictionary,
                    compressed_location). Virtual locations are relocatable: the repository declares the
                    container `file:///nczarr-icechunk-src/` (a symlink to this directory while make.py runs),
                    so the committed data names no path of this machine; readers map the container to the
                    real directory (`icechunk.container.NAME=file:///.../test-data/icechunk/`).

* spec1.icechunk     the same kinds of chunks in an Icechunk 1.x-format repository (spec version 1: refs/branch.main/
                    ref.json, no repo info object), written by icechunk 2.3.0 with spec_version=1; main and tag t1.

* spec1v.icechunk    spec 1 with a virtual chunk container in config.yaml named by its URL prefix, virtual refs
                    into virt_src.nc and commit metadata; spec1v.log.json is icechunk's ancestry() of main.

* v1x.icechunk       written by an icechunk 1.x release itself (1.1.21, requirements-v1x.txt, its own venv:
                    `make.py v1x` there, never in the 2.x run): native and inline chunks, main and tag t1.

`make.py NAME...` rewrites only those repositories (native, virtual, spec1, spec1_virtual, v1x).

Deterministic values (fixed arrays, no randomness); ids and timestamps differ between runs (icechunk makes
random ids), so the Java tests never hard-code an id: they read them from the expected `*.refs.json`.
"""
import importlib.util
import json
import os
import shutil
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
SCHEMA = "zarr-conformance-manifest/1"
SRC_LINK = "/nczarr-icechunk-src"     # symlink -> HERE while writing / reading the virtual repository
SRC_PREFIX = "file://" + SRC_LINK + "/"


def autumn():
    """v3_manifest from test-data/autumn-2026/make.py: SCHEMA's v3 rules as zarr-python reads them."""
    spec = importlib.util.spec_from_file_location("autumn_make",
                                                  os.path.join(os.path.dirname(HERE), "autumn-2026", "make.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def manifest(store, name):
    """The Zarr v3 hierarchy of one snapshot as zarr-python reads it through icechunk, under SCHEMA's v3 rules
    (dimension_names shared by name in the root group; _FillValue only from an attribute; these repositories
    hold numeric types only, no _FillValue attribute)."""
    import zarr
    import manifest as M
    v3_types = autumn().V3_TYPES
    root = zarr.open_group(store=store, mode="r")
    m = {"schema": SCHEMA, "name": name, "groups": {}, "variables": {}}
    m["groups"]["/"] = {"dimensions": {}, "attributes": {k: M.infer_zarr_attr(v)
                                                         for k, v in root.attrs.asdict().items()}}
    dims = {}
    for p, node in sorted(root.members(max_depth=None), key=lambda kv: kv[0]):
        attrs = {k: M.infer_zarr_attr(v) for k, v in node.attrs.asdict().items() if not M.is_hidden(k)}
        if isinstance(node, zarr.Group):
            m["groups"]["/" + p] = {"dimensions": {}, "attributes": attrs}
            continue
        md = node.metadata.to_dict()
        nct = v3_types[md["data_type"]]
        assert "_FillValue" not in attrs
        shape = [int(s) for s in node.shape]
        names = [n if n is not None else "_zdim_%d" % s
                 for n, s in zip(md.get("dimension_names") or [None] * len(shape), shape)]
        for n, s in zip(names, shape):
            assert dims.setdefault(n, s) == s
        m["variables"]["/" + p] = {"type": nct, "dimensions": ["/" + n for n in names], "shape": shape,
                                   "attributes": attrs, "data": M.summarize(np.asarray(node[...]), nct)}
    m["groups"]["/"]["dimensions"] = dims
    return m


def fresh(name):
    p = os.path.join(HERE, name)
    shutil.rmtree(p, ignore_errors=True)
    return p


def write_json(obj, name):
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
        json.dump(obj, f, indent=1, ensure_ascii=False, sort_keys=True)
        f.write("\n")


def native():
    import icechunk as ic
    import zarr
    from zarr.codecs import BloscCodec, BytesCodec
    path = fresh("native.icechunk")
    split = ic.ManifestSplittingConfig.from_dict(
        {ic.ManifestSplitCondition.path_matches(".*split.*"): {ic.ManifestSplitDimCondition.Axis(0): 2}})
    config = ic.RepositoryConfig(manifest=ic.ManifestConfig(splitting=split))
    repo = ic.Repository.create(ic.local_filesystem_storage(path), config=config)

    s = repo.writable_session("main")
    root = zarr.group(store=s.store, zarr_format=3, attributes={"title": "icechunk native", "rev": 1})
    x = root.create_array("x", shape=(5,), chunks=(5,), dtype="f8", dimension_names=["x"])
    x[:] = np.arange(5) * 0.5                                         # 40 bytes: inline
    t = root.create_array("time", shape=(4,), chunks=(4,), dtype="i4", dimension_names=["time"])
    t[:] = np.array([0, 6, 12, 18], dtype="i4")                       # inline
    temp = root.create_array("temp", shape=(4, 3, 5), chunks=(2, 3, 5), dtype="f4", fill_value=-999.0,
                             dimension_names=["time", "y", "x"])     # default codecs: bytes + zstd
    temp[0:2] = (np.arange(30, dtype="f4").reshape(2, 3, 5) * 1.25).astype("f4")   # chunk 1 never written
    temp.attrs["units"] = "K"
    cnt = root.create_array("count", shape=(4, 5), chunks=(1, 5), dtype="i2", fill_value=0,
                            serializer=BytesCodec(), compressors=[BloscCodec(cname="lz4", clevel=5)],
                            dimension_names=["time", "x"])
    cnt[:] = (np.arange(20, dtype="i2").reshape(4, 5) * 300 - 1000).astype("i2")  # 10 bytes/chunk: inline
    sp = root.create_array("split", shape=(8, 40), chunks=(1, 40), dtype="i4", fill_value=-1,
                           dimension_names=["s", "w"])               # 160 bytes/chunk: inline; 4 manifests
    sp[:] = np.arange(320, dtype="i4").reshape(8, 40)
    deep = root.create_group("sub").create_group("deep", attributes={"level": 2})
    big = deep.create_array("big", shape=(40, 30), chunks=(20, 30), dtype="f8", fill_value=np.nan,
                            dimension_names=["r", "c"])                # 4800 bytes/chunk: native chunks
    big[:] = np.linspace(-1, 1, 1200).reshape(40, 30)
    c1 = s.commit("initial", metadata={"author": "make.py", "step": 1})
    repo.create_tag("v1", c1)
    repo.create_branch("dev", c1)

    s = repo.writable_session("dev")
    g = zarr.open_group(store=s.store, mode="r+")
    g.attrs["rev"] = 2
    g["temp"][2:4] = np.full((2, 3, 5), 7.5, dtype="f4")
    c_dev = s.commit("dev: fill the second half of temp")

    s = repo.writable_session("main")
    g = zarr.open_group(store=s.store, mode="r+")
    g.attrs["rev"] = 3
    g["sub/deep/big"][0:20] = np.full((20, 30), 2.0)
    g["split"][5] = np.arange(40, dtype="i4") * -1
    extra = g.create_array("added", shape=(3,), chunks=(3,), dtype="u1", dimension_names=["z"])
    extra[:] = np.array([1, 2, 255], dtype="u1")
    c2 = s.commit("second: overwrite big[0:20], split[5], add 'added'")

    refs = {}
    for name, kw in (("main", {"branch": "main"}), ("v1", {"tag": "v1"}), ("dev", {"branch": "dev"})):
        ro = repo.readonly_session(**kw)
        m = manifest(ro.store, "icechunk_native_" + name)
        write_json(m, "icechunk_native_%s.expected.json" % name)
        refs[name] = ro.snapshot_id
    log = [{"id": a.id, "message": a.message, "written_at": a.written_at.isoformat(),
            "metadata": a.metadata} for a in repo.ancestry(branch="main")]
    write_json({"repository": "native.icechunk", "branches": {"main": c2, "dev": c_dev}, "tags": {"v1": c1},
                "snapshots": refs, "main_log": log}, "native.refs.json")


def nc_source():
    import h5py
    import netCDF4 as nc
    src = os.path.join(HERE, "virt_src.nc")
    if os.path.exists(src):
        os.remove(src)
    d = nc.Dataset(src, "w", format="NETCDF4")
    d.createDimension("t", 4)
    d.createDimension("x", 6)
    v = d.createVariable("flat", "f4", ("t", "x"), contiguous=True)
    v[:] = (np.arange(24, dtype="f4").reshape(4, 6) / 4 - 2).astype("f4")
    w = d.createVariable("packed", "i2", ("t", "x"), chunksizes=(2, 3), zlib=True, complevel=4, shuffle=False)
    w[:] = (np.arange(24, dtype="i2").reshape(4, 6) * 111 - 1200).astype("i2")
    d.close()
    with h5py.File(src, "r") as h:
        flat = h["flat"].id.get_offset()
        packed = {}
        dsid = h["packed"].id
        for i in range(dsid.get_num_chunks()):
            ci = dsid.get_chunk_info(i)
            packed[(ci.chunk_offset[0] // 2, ci.chunk_offset[1] // 3)] = (ci.byte_offset, ci.size)
    return flat, packed


def virtual():
    import icechunk as ic
    import zarr
    from zarr.codecs import BytesCodec
    from zarr.codecs.numcodecs import Zlib
    flat_off, packed = nc_source()
    if os.path.islink(SRC_LINK):
        os.remove(SRC_LINK)
    os.symlink(HERE, SRC_LINK)
    try:
        path = fresh("virtual.icechunk")
        cont = ic.VirtualChunkContainer(SRC_PREFIX, ic.local_filesystem_store(SRC_LINK), name="src")
        comp = ic.ManifestVirtualChunkLocationCompressionConfig(min_num_chunks=1)
        config = ic.RepositoryConfig(virtual_chunk_containers={"src": cont},
                                     manifest=ic.ManifestConfig(virtual_chunk_location_compression=comp))
        repo = ic.Repository.create(ic.local_filesystem_storage(path), config=config)
        s = repo.writable_session("main")
        root = zarr.group(store=s.store, zarr_format=3, attributes={"title": "icechunk virtual"})
        root.create_array("flat", shape=(4, 6), chunks=(2, 6), dtype="f4", fill_value=0.0,
                          serializer=BytesCodec(endian="little"), compressors=None, dimension_names=["t", "x"])
        root.create_array("packed", shape=(4, 6), chunks=(2, 3), dtype="i2", fill_value=-1,
                          serializer=BytesCodec(endian="little"), compressors=[Zlib(level=4)],
                          dimension_names=["t", "x"])
        loc = SRC_PREFIX + "virt_src.nc"
        for i in range(2):
            s.store.set_virtual_ref("flat/c/%d/0" % i, loc, offset=flat_off + i * 48, length=48)
        for (i, j), (off, size) in sorted(packed.items()):
            s.store.set_virtual_ref("packed/c/%d/%d" % (i, j), loc, offset=off, length=size)
        s.commit("virtual refs into virt_src.nc")
        ro = ic.Repository.open(ic.local_filesystem_storage(path),
                                authorize_virtual_chunk_access={SRC_PREFIX: ic.credentials.LocalFileSystemAccess}).readonly_session(branch="main")
        write_json(manifest(ro.store, "icechunk_virtual"), "icechunk_virtual.expected.json")
    finally:
        os.remove(SRC_LINK)


def spec1():
    """An Icechunk 1.x-format repository (spec version 1: refs/ objects, no repo info), written by icechunk 2.3.0
    with spec_version=1: native and inline chunks, a group, two commits on main, tag t1 on the first."""
    import icechunk as ic
    import zarr
    path = fresh("spec1.icechunk")
    repo = ic.Repository.create(ic.local_filesystem_storage(path), spec_version=1)
    s = repo.writable_session("main")
    root = zarr.group(store=s.store, zarr_format=3, attributes={"title": "icechunk spec 1"})
    a = root.create_array("a", shape=(6, 50), chunks=(3, 50), dtype="f8", fill_value=-1.0,
                          dimension_names=["t", "x"])
    a[0:3] = np.linspace(0, 1, 150).reshape(3, 50)                    # 1200 bytes: native; a[3:6] never written
    g = root.create_group("g", attributes={"k": "v"})
    b = g.create_array("b", shape=(4,), chunks=(4,), dtype="i2", dimension_names=["y"])
    b[:] = np.array([1, -2, 3, -4], dtype="i2")                       # inline
    c1 = s.commit("spec 1: first")
    repo.create_tag("t1", c1)
    s = repo.writable_session("main")
    g = zarr.open_group(store=s.store, mode="r+")
    g["a"][3:6] = np.full((3, 50), 2.5)
    s.commit("spec 1: second")
    for name, kw in (("main", {"branch": "main"}), ("t1", {"tag": "t1"})):
        ro = repo.readonly_session(**kw)
        write_json(manifest(ro.store, "icechunk_spec1_" + name), "icechunk_spec1_%s.expected.json" % name)


def spec1_virtual():
    """Spec 1 (icechunk 1.x format) with what 1.x repositories hold beyond spec1.icechunk: a virtual chunk
    container in config.yaml keyed by its URL prefix (no name: how icechunk's set_virtual_chunk_container and
    VirtualiZarr 2.x declare them), virtual refs into virt_src.nc, and commit metadata (MessagePack in spec 1).
    The expected log (spec1v.log.json) is icechunk's ancestry() of main."""
    import icechunk as ic
    import zarr
    from zarr.codecs import BytesCodec
    import h5py
    with h5py.File(os.path.join(HERE, "virt_src.nc"), "r") as h:  # the committed file, not rewritten
        flat_off = h["flat"].id.get_offset()
    if os.path.islink(SRC_LINK):
        os.remove(SRC_LINK)
    os.symlink(HERE, SRC_LINK)
    try:
        path = fresh("spec1v.icechunk")
        config = ic.RepositoryConfig.default()
        config.set_virtual_chunk_container(ic.VirtualChunkContainer(SRC_PREFIX, ic.local_filesystem_store(SRC_LINK)))
        repo = ic.Repository.create(ic.local_filesystem_storage(path), config=config, spec_version=1)
        s = repo.writable_session("main")
        root = zarr.group(store=s.store, zarr_format=3, attributes={"title": "icechunk spec 1 virtual"})
        root.create_array("flat", shape=(4, 6), chunks=(2, 6), dtype="f4", fill_value=0.0,
                          serializer=BytesCodec(endian="little"), compressors=None, dimension_names=["t", "x"])
        for i in range(2):
            s.store.set_virtual_ref("flat/c/%d/0" % i, SRC_PREFIX + "virt_src.nc", offset=flat_off + i * 48,
                                    length=48)
        c1 = s.commit("spec 1 virtual: first", metadata={"author": "nczarr-test", "n": 3,
                                                         "nested": {"x": [1, 2.5, None, True]}})
        repo.create_tag("t1", c1)
        s = repo.writable_session("main")
        g = zarr.open_group(store=s.store, mode="r+")
        n = g.create_array("native", shape=(3,), chunks=(3,), dtype="i4", dimension_names=["n"])
        n[:] = np.array([7, -8, 9], dtype="i4")
        s.commit("spec 1 virtual: second\nwith two lines", metadata={"note": "caf\u00e9", "big": 2 ** 40})
        auth = {SRC_PREFIX: ic.credentials.LocalFileSystemAccess}
        ro = ic.Repository.open(ic.local_filesystem_storage(path), authorize_virtual_chunk_access=auth)
        write_json(manifest(ro.readonly_session(branch="main").store, "icechunk_spec1v_main"),
                   "icechunk_spec1v_main.expected.json")
        log = [{"id": a.id, "parent_id": a.parent_id, "written_at": a.written_at.isoformat(), "message": a.message,
                "metadata": a.metadata} for a in ro.ancestry(branch="main")]
        write_json({"repository": "spec1v.icechunk", "branches": {"main": log[0]["id"]}, "tags": {"t1": c1},
                    "containers": {SRC_PREFIX: SRC_PREFIX}, "main_log": log}, "spec1v.log.json")
    finally:
        os.remove(SRC_LINK)


def v1x():
    """A repository written by an icechunk 1.x release itself (1.1.21, requirements-v1x.txt, its own venv): native and
    inline chunks, two commits on main, tag t1 on the first. Run: make.py v1x (in that venv)."""
    import icechunk as ic
    import zarr
    assert ic.__version__.startswith("1."), ic.__version__
    path = fresh("v1x.icechunk")
    repo = ic.Repository.create(ic.local_filesystem_storage(path))
    s = repo.writable_session("main")
    root = zarr.group(store=s.store, zarr_format=3, attributes={"title": "written by icechunk 1.x"})
    a = root.create_array("a", shape=(4, 40), chunks=(2, 40), dtype="i4", fill_value=0,
                          dimension_names=["t", "x"])
    a[0:2] = np.arange(80, dtype="i4").reshape(2, 40) * 3 - 7           # 320 bytes: native; a[2:4] never written
    b = root.create_array("b", shape=(5,), chunks=(5,), dtype="f4", dimension_names=["y"])
    b[:] = np.array([0.5, -1.5, 2.25, 3.0, -4.0], dtype="f4")         # inline
    c1 = s.commit("icechunk 1.x: first")
    repo.create_tag("t1", c1)
    s = repo.writable_session("main")
    zarr.open_group(store=s.store, mode="r+")["a"][2:4] = 11
    s.commit("icechunk 1.x: second")
    for name, kw in (("main", {"branch": "main"}), ("t1", {"tag": "t1"})):
        ro = repo.readonly_session(**kw)
        write_json(manifest(ro.store, "icechunk_v1x_" + name), "icechunk_v1x_%s.expected.json" % name)


def main():
    only = sys.argv[1:]
    for f in (native, virtual, spec1, spec1_virtual, v1x):
        if (not only and f is not v1x) or f.__name__ in only:
            f()


if __name__ == "__main__":
    main()
