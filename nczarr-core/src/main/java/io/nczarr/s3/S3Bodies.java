package io.nczarr.s3;

import io.nczarr.error.StoreException;
import io.nczarr.http.ContentRange;
import io.nczarr.http.Deadline;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import software.amazon.awssdk.http.Abortable;

/**
 * The body of one GET answer: the length its headers state ({@code Content-Range} and
 * {@code Content-Length}, checked against each other and the request), and the body read whole by
 * the attempt's deadline ({@link BodyWatchdog}), or a failure from {@link S3Failures}.
 */
final class S3Bodies {

    /** Largest Java array: objects longer than this cannot be read whole. */
    static final long MAX_ARRAY = Integer.MAX_VALUE - 16;

    /** Bytes copied at a time from a body into a direct buffer. */
    private static final int BODY_SLICE = 64 << 10;

    private final S3Failures failures;

    S3Bodies(S3Failures failures) {
        this.failures = failures;
    }

    /** The bytes a whole-object answer must hold ({@code -1}: the server did not say); refuses one over the limit. */
    long wholeLength(String key, S3Answer r, long maxBytes) throws StoreException {
        ContentRange range = contentRange(key, r);
        long length;
        if (range != null) {
            if (range.first() != 0) {
                throw failures.malformed(key, "asked for bytes from 0, got bytes from " + range.first());
            }
            length = range.length();
            long total = range.total();
            if (total < 0 ? length > maxBytes : total > maxBytes) {
                throw new S3Bucket.ObjectTooLarge(failures.url(key), total < 0 ? -1 : total, maxBytes);
            }
            if (total >= 0 && length != total) {
                throw failures.malformed(key, "asked for the whole object, got " + r.contentRange());
            }
        } else {
            // no Content-Range: the whole object (a server without ranges, or the second GET of an empty one)
            length = r.contentLength() == null ? -1 : r.contentLength();
            if (length > maxBytes) {
                throw new S3Bucket.ObjectTooLarge(failures.url(key), length, maxBytes);
            }
        }
        if (length > MAX_ARRAY) {
            throw new S3Bucket.ObjectTooLarge(failures.url(key), length, MAX_ARRAY);
        }
        checkContentLength(key, r, length);
        return length;
    }

    /**
     * The length of an answer without Content-Range (the server sent the whole object): usable only when
     * its Content-Length is known and no more than was asked for.
     */
    long wholeObjectAnswer(String key, S3Answer r, long asked, String what) throws StoreException {
        Long n = r.contentLength();
        if (n == null || n > asked) {
            throw failures.malformed(
                    key,
                    (n == null ? "an unknown number of" : n) + " bytes returned for " + what + " (no Content-Range)");
        }
        return n;
    }

    /** The response's Content-Range, {@code null} without one; a malformed one is an error. */
    ContentRange contentRange(String key, S3Answer r) throws StoreException {
        String header = r.contentRange();
        ContentRange range = ContentRange.parse(header)
                .filter(c -> c.last() >= c.first() && (!c.totalKnown() || c.last() < c.total()))
                .orElse(null);
        if (header != null && range == null) {
            throw failures.malformed(key, "unexpected Content-Range '" + header + "'");
        }
        return range;
    }

    /** A Content-Length other than the bytes the range says: the transfer is broken (retryable). */
    void checkContentLength(String key, S3Answer r, long length) throws StoreException {
        Long declared = r.contentLength();
        if (declared != null && length >= 0 && declared != length) {
            throw new StoreException(
                    null,
                    failures.url(key),
                    "S3 GET: Content-Length " + declared + " disagrees with Content-Range '" + r.contentRange() + "' ("
                            + length + " bytes)",
                    true,
                    null);
        }
    }

    /**
     * A body read that failed: a time-out if the watchdog aborted it, else a broken transfer (retryable). Apache
     * HttpClient 5 reports a connection shut down under the read (the watchdog's abort racing the server's reset)
     * as an unchecked {@code ConnectionShutdownException}, an {@link IllegalStateException}: the same failure.
     */
    private IOException broken(String key, Deadline d, BodyWatchdog.Watch w, Exception e) {
        IOException io = e instanceof IOException x ? x : new IOException("connection shut down during the read", e);
        return w.fired() ? failures.bodyTimeout(key, d, io) : failures.bodyFailure(key, io);
    }

    /** Reads exactly {@code n} bytes of the body by the attempt's deadline. */
    void readBody(String key, S3Answer in, byte[] buf, int off, int n, Deadline d) throws IOException {
        try (BodyWatchdog.Watch w = BodyWatchdog.watch(in, d)) {
            int got;
            try {
                got = in.readNBytes(buf, off, n);
            } catch (IOException | IllegalStateException e) {
                throw broken(key, d, w, e);
            }
            if (got < n) {
                throw w.fired() ? failures.bodyTimeout(key, d, null) : failures.bodyEnded(key, got, n);
            }
        }
    }

    /** Reads exactly {@code n} bytes of the body into {@code into} from its start, by the attempt's deadline. */
    void readBody(String key, S3Answer in, ByteBuffer into, int n, Deadline d) throws IOException {
        if (into.hasArray()) {
            readBody(key, in, into.array(), into.arrayOffset(), n, d);
            return;
        }
        try (BodyWatchdog.Watch w = BodyWatchdog.watch(in, d)) {
            byte[] slice = new byte[Math.min(n, BODY_SLICE)];
            int got = 0;
            try {
                while (got < n) {
                    int k = in.read(slice, 0, Math.min(slice.length, n - got));
                    if (k < 0) {
                        break;
                    }
                    into.put(got, slice, 0, k);
                    got += k;
                }
            } catch (IOException | IllegalStateException e) {
                throw broken(key, d, w, e);
            }
            if (got < n) {
                throw w.fired() ? failures.bodyTimeout(key, d, null) : failures.bodyEnded(key, got, n);
            }
        }
    }

    /** Reads the body to its end (a length the server did not state), at most {@code cap} bytes. */
    byte[] readToEnd(String key, S3Answer in, long cap, Deadline d) throws IOException {
        try (BodyWatchdog.Watch w = BodyWatchdog.watch(in, d)) {
            byte[] data;
            try {
                data = in.readNBytes((int) Math.min(cap, MAX_ARRAY));
            } catch (IOException | IllegalStateException e) {
                throw broken(key, d, w, e);
            }
            if (w.fired()) {
                // an aborted body of unknown length may look like its end
                throw failures.bodyTimeout(key, d, null);
            }
            return data;
        }
    }

    /** Closes a response; one not read to its end is aborted first, so that closing does not drain it. */
    static <T extends InputStream & Abortable> void release(T in, boolean complete) {
        try {
            if (!complete) {
                in.abort();
            }
            in.close();
        } catch (IOException | RuntimeException e) {
            // the body was read whole, or its failure is already being reported
        }
    }
}
