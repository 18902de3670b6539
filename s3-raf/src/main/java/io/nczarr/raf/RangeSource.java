package io.nczarr.raf;

import io.nczarr.http.RequestStats;
import java.io.Closeable;
import java.io.IOException;

/**
 * One remote object (an HTTP resource, an S3 object...) read by byte ranges. This is the only
 * thing a new backend implements; {@link BlockCacheRandomAccessFile} does the caching and the
 * netCDF-Java side. {@code RangeSourceContractTest} holds every implementation to this contract.
 *
 * <p>Transport failures are {@link io.nczarr.error.StoreException}s whose dataset is
 * {@link #location()}; a missing object is a {@link java.io.FileNotFoundException}.
 *
 * <p>Implementations must be thread-safe: several threads may call {@link #read} at once.
 */
public interface RangeSource extends Closeable {

    /**
     * The object's length in bytes. May cost one request (e.g. a HEAD) the first time unless a
     * previous {@link #read} already learned it (e.g. from a {@code Content-Range} header).
     */
    long length() throws IOException;

    /**
     * The length if it is already known without a request, else {@code -1}. Lets a caller make
     * its first ranged read do double duty instead of asking for the length separately.
     */
    default long knownLength() {
        return -1;
    }

    /**
     * Reads {@code len} bytes at {@code offset} into {@code buf[off..]}.
     *
     * @return exactly {@code len}, unless the range crosses the end of the object: then the
     *     bytes up to the end; {@code -1} if {@code offset} is at or past the end ({@code 0} when
     *     {@code len} is 0)
     * @throws IOException on any failure, including a response with fewer bytes than the object
     *     holds in that range: a short read inside the object is an error, never zeros
     * @throws IllegalArgumentException for a negative {@code offset}
     * @throws IndexOutOfBoundsException when {@code off} and {@code len} do not fit {@code buf}
     */
    int read(long offset, byte[] buf, int off, int len) throws IOException;

    /** What to call this object in messages: the URL without credentials. */
    String location();

    /** Last-modified time in milliseconds since the epoch if known, else 0. */
    default long lastModified() {
        return 0;
    }

    /** Request counters of this source (GETs, HEADs, bytes received, retries). */
    RequestStats stats();

    /** Releases connections or clients this source owns; further reads fail. */
    @Override
    void close() throws IOException;
}
