package io.nczarr.url;

import java.util.Locale;

/** The flags of netcdf-c's {@code mode=} fragment key. */
public enum Mode {
    /** NCZarr metadata conventions. */
    NCZARR,
    /** Pure Zarr v2 (netcdf-c: implies the NCZarr dispatcher). */
    ZARR,
    /** Pure Zarr plus xarray's {@code _ARRAY_DIMENSIONS} (netcdf-c's default for zarr). */
    XARRAY,
    /** Pure Zarr, ignoring {@code _ARRAY_DIMENSIONS}. */
    NOXARRAY,
    /** Directory tree store. */
    FILE,
    /** Zip file store. */
    ZIP,
    /** S3 store. */
    S3,
    /** One netCDF-3/4 file read by byte ranges (not a Zarr store). */
    BYTES,
    /** A plain HTTP(S) server (GET and Range GET, no listing): the store below an http(s) URL. */
    HTTP,
    /** A kerchunk reference file (JSON v0/v1): a virtual Zarr store over byte ranges of other files. */
    KERCHUNK,
    /** An Icechunk repository (spec 2): one snapshot of it, read as a Zarr v3 store (implies zarr). */
    ICECHUNK;

    /** Looks up a flag case-insensitively; {@code null} when unknown. */
    static Mode parse(String flag) {
        for (Mode m : values()) {
            if (m.name().equalsIgnoreCase(flag.trim())) {
                return m;
            }
        }
        return null;
    }

    public String flag() {
        return name().toLowerCase(Locale.ROOT);
    }
}
