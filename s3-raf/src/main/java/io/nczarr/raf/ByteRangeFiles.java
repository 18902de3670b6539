package io.nczarr.raf;

import java.io.IOException;
import java.net.URI;
import java.util.Locale;
import ucar.nc2.NetcdfFile;

/**
 * Opens one netCDF-3 or netCDF-4/HDF5 file stored as a single remote object ({@code #mode=bytes}):
 * a {@link RangeSource} for the URL, a {@link BlockCacheRandomAccessFile} over it, and cdm's own
 * netCDF-3/HDF5 readers on top ({@code NetcdfFile.open(raf, location, null, null)}).
 */
public final class ByteRangeFiles {
    private ByteRangeFiles() {
    }

    /**
     * The source for a URL: the one place that maps a scheme to a backend.
     *
     * @param uri the object's URL without fragment
     * @throws IOException for a scheme without a backend
     */
    public static RangeSource openSource(URI uri, ByteRangeConfig config) throws IOException {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        switch (scheme) {
            case "http":
            case "https":
                try {
                    return HttpRangeSource.open(uri, config);
                } catch (IllegalArgumentException e) {
                    throw new IOException(e.getMessage(), e);
                }
            case "s3":
                // TODO(S3 backend): return an S3RangeSource built from io.nczarr.s3's URL parsing, profiles,
                // regions and shared clients (GetObject with Range bytes=a-b, length from HeadObject or the
                // first GetObject's Content-Range, as HttpRangeSource does).
                throw new IOException(HttpRangeSource.redact(uri) + "#mode=bytes: s3:// URLs are not supported yet"
                        + " in mode=bytes; for a public object use its https:// URL"
                        + " (https://BUCKET.s3.REGION.amazonaws.com/KEY#mode=bytes), or a presigned https:// URL");
            default:
                throw new IOException(HttpRangeSource.redact(uri) + ": mode=bytes reads http, https"
                        + " (and later s3) URLs, not '" + scheme + "'");
        }
    }

    /** The byte-range file for a URL, configured from the {@code nczarr.bytes.*} system properties. */
    public static BlockCacheRandomAccessFile openRaf(URI uri) throws IOException {
        return openRaf(uri, config());
    }

    /** The byte-range file for a URL; the first block is fetched, so a 404 or 403 fails here. */
    public static BlockCacheRandomAccessFile openRaf(URI uri, ByteRangeConfig config) throws IOException {
        return BlockCacheRandomAccessFile.open(openSource(uri, config), config);
    }

    /**
     * Opens the netCDF file at a URL.
     *
     * @param uri the object's URL without fragment
     * @param location what the returned {@code NetcdfFile} reports as its location (e.g. the URL the
     *     user gave, fragment included)
     */
    public static NetcdfFile open(URI uri, String location) throws IOException {
        return open(uri, location, config());
    }

    public static NetcdfFile open(URI uri, String location, ByteRangeConfig config) throws IOException {
        return open(openRaf(uri, config), location);
    }

    /** Opens a netCDF file on an already opened byte-range file; closes it if the open fails. */
    public static NetcdfFile open(BlockCacheRandomAccessFile raf, String location) throws IOException {
        try {
            return NetcdfFile.open(raf, location, null, null);
        } catch (IOException | RuntimeException e) {
            try {
                raf.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (e instanceof IOException && String.valueOf(e.getMessage()).contains("not a valid CDM file")) {
                throw new IOException(location + ": not a netCDF-3 or netCDF-4/HDF5 file that netCDF-Java can read"
                        + " (mode=bytes opens single netCDF/HDF5 files, not Zarr stores)", e);
            }
            throw e;
        }
    }

    private static ByteRangeConfig config() throws IOException {
        try {
            return ByteRangeConfig.fromSystemProperties();
        } catch (IllegalArgumentException e) {
            throw new IOException("bad mode=bytes configuration: " + e.getMessage(), e);
        }
    }
}
