package io.nczarr.source;

import io.nczarr.error.StoreException;
import io.nczarr.http.RequestStats;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;

/**
 * The one door for bytes (issue 21): one object, local or remote, read by byte ranges. Three implementations
 * ({@link LocalObjectSource}, {@link S3ObjectSource}, {@link HttpObjectSource}), all made by the one resolver
 * {@link ObjectSources}, which applies the trust rules ({@link Trust#check}) to every URL a document names
 * before a source exists. Nothing else in the library opens a file channel, an HTTP client request or an S3
 * client call (ArchUnit: {@code ByteDoorRulesTest}).
 *
 * <p>Failures are {@link io.nczarr.error.StoreException}s whose dataset is {@link #location()}; a missing
 * object is a {@link java.io.FileNotFoundException} (what netCDF-Java callers expect) with such a
 * StoreException as cause. Implementations are thread-safe.
 */
public interface ObjectSource extends Closeable {

    /** The object's length in bytes; may cost one request the first time. */
    long length() throws IOException;

    /** The length if known without a request, else {@code -1}. */
    default long knownLength() {
        return -1;
    }

    /**
     * Reads {@code len} bytes at {@code offset} into {@code buf[off..]}.
     *
     * @return exactly {@code len}, unless the range crosses the end of the object: then the bytes up to the
     *     end; {@code -1} if {@code offset} is at or past the end ({@code 0} when {@code len} is 0)
     * @throws IOException on any failure; a short answer inside the object is an error, never zeros
     * @throws IllegalArgumentException for a negative {@code offset}
     * @throws IndexOutOfBoundsException when {@code off} and {@code len} do not fit {@code buf}
     */
    int read(long offset, byte[] buf, int off, int len) throws IOException;

    /**
     * Exactly {@code len} bytes at {@code offset}; an {@link EOFException} naming the object when it ends
     * first.
     */
    default byte[] readFully(long offset, int len) throws IOException {
        byte[] b = new byte[len];
        int done = 0;
        while (done < len) {
            int n = read(offset + done, b, done, len - done);
            if (n <= 0) {
                throw new EOFException(location() + ": the range " + offset + "+" + len
                        + " runs past the end of the object (" + (offset + Math.max(done, 0)) + " bytes)");
            }
            done += n;
        }
        return b;
    }

    /**
     * The whole object, refused before its body is read (from its length, or a {@code Content-Length}) when it
     * is larger than {@code maxBytes}: a {@link TooLarge} the caller words with its own limit.
     */
    default byte[] readAll(long maxBytes) throws IOException {
        long n = length();
        if (n > maxBytes || n > Integer.MAX_VALUE - 8) {
            throw new TooLarge(location(), n, maxBytes);
        }
        return n == 0 ? new byte[0] : readFully(0, (int) n);
    }

    /** An object larger than the limit of {@link #readAll}, refused before its body was read. */
    final class TooLarge extends StoreException {
        private static final long serialVersionUID = 1L;
        private final long size;

        public TooLarge(String location, long size, long maxBytes) {
            super(
                    location,
                    null,
                    "object is " + (size < 0 ? "" : size + " bytes, ") + "more than the limit of " + maxBytes
                            + " bytes",
                    false,
                    null);
            this.size = size;
        }

        /** The object's size, {@code -1} when only known to be over the limit. */
        public long size() {
            return size;
        }
    }

    /** What to call this object in messages: the URL or path without credentials. */
    String location();

    /** Last-modified time in milliseconds since the epoch if known, else 0. */
    default long lastModified() {
        return 0;
    }

    /** The {@code ETag} a remote answer told (as sent, with its quotes), if known, else null. */
    default String etag() {
        return null;
    }

    /**
     * This object with its ranged reads made conditional on {@code preconditions} where the backend can send
     * them (HTTP: {@code If-Match}, {@code If-Unmodified-Since}; S3: {@code ifMatch}, {@code ifUnmodifiedSince}):
     * a changed object then fails the read with a {@link io.nczarr.error.PreconditionFailedException} before
     * any of its bytes are transferred. The default (a local file) is this source, unconditioned: the caller
     * checks {@link #lastModified()} after reading. The caller closes both (one source when nothing changed).
     */
    default ObjectSource withPreconditions(io.nczarr.http.ReadPreconditions preconditions) {
        return this;
    }

    /** Request counters (GETs, HEADs, bytes, retries). */
    RequestStats stats();

    /** Releases what this source holds; further reads fail. */
    @Override
    void close() throws IOException;
}
