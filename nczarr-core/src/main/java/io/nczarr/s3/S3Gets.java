package io.nczarr.s3;

import io.nczarr.error.PreconditionFailedException;
import io.nczarr.http.ContentRange;
import io.nczarr.http.Deadline;
import io.nczarr.http.ReadPreconditions;
import io.nczarr.s3.S3Failures.NoSuchObject;
import io.nczarr.s3.S3Failures.RangeNotSatisfiable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * One attempt of each GET of {@link S3Bucket} (whole object, byte range, suffix): the request sent
 * through {@link DirectGets} or the SDK's client, its answer checked and its body read by
 * {@link S3Bodies}. A 404 is {@link NoSuchObject}; every other failure a {@code StoreException} from
 * {@link S3Failures}. {@link S3Tuning#retryPolicy()} repeats the attempts.
 */
final class S3Gets {

    private final String bucket;
    private final Supplier<S3Client> client;
    private final S3Failures failures;
    private final S3Bodies bodies;
    /** GETs past the SDK's pipeline; {@code null} once AWS said the bucket is elsewhere, or where only the SDK can go. */
    private volatile DirectGets direct;

    S3Gets(String bucket, Supplier<S3Client> client, DirectGets direct, S3Failures failures) {
        this.bucket = bucket;
        this.client = client;
        this.direct = direct;
        this.failures = failures;
        this.bodies = new S3Bodies(failures);
    }

    /** Whether GETs go straight to the HTTP client (rather than through the SDK's pipeline). */
    boolean sendsDirectly() {
        return direct != null;
    }

    /** The direct requests while they may be used, else {@code null}: the SDK's client is then the way. */
    DirectGets direct() {
        return direct;
    }

    /** AWS said the bucket lives in another region: from now on every request goes through the SDK's client. */
    void wrongRegion() {
        direct = null; // the SDK's client follows AWS's redirects
    }

    /** The SDK's own time-outs for one attempt: what is left of its deadline (the SDK makes one attempt). */
    static AwsRequestOverrideConfiguration timeouts(Deadline d) {
        return AwsRequestOverrideConfiguration.builder()
                .apiCallTimeout(d.remaining())
                .apiCallAttemptTimeout(d.remaining())
                .build();
    }

    /**
     * One GET of a whole object, as the range {@code bytes=0-maxBytes}: the answer's Content-Range
     * then states the object's length apart from Content-Length, and an object over the limit is
     * refused without reading it.
     */
    ByteBuffer getOnce(String key, long maxBytes, IntFunction<ByteBuffer> buffers, Deadline d) throws IOException {
        try {
            S3Answer in;
            try {
                in = open(key, "bytes=0-" + Math.min(maxBytes, Long.MAX_VALUE - 1), d);
            } catch (RangeNotSatisfiable e) {
                // no byte 0: an empty object (S3 refuses every range of one); ask for the whole of it
                in = open(key, null, d);
            }
            return readWhole(key, in, maxBytes, buffers, d);
        } catch (AbortedException e) {
            throw failures.interrupted(key, e);
        } catch (SdkException e) {
            throw failures.error("GET", key, e, d);
        }
    }

    private ByteBuffer readWhole(String key, S3Answer in, long maxBytes, IntFunction<ByteBuffer> buffers, Deadline d)
            throws IOException {
        boolean complete = false;
        try {
            long length = bodies.wholeLength(key, in, maxBytes);
            byte[] data;
            if (length >= 0) {
                // the one copy of the body: straight into the buffer the value is decoded from
                ByteBuffer into =
                        buffers == null ? ByteBuffer.wrap(new byte[(int) length]) : buffers.apply((int) length);
                bodies.readBody(key, in, into.clear(), (int) length, d);
                complete = true;
                return into.limit((int) length).position(0);
            } else {
                data = bodies.readToEnd(key, in, Math.min(maxBytes, S3Bodies.MAX_ARRAY) + 1, d);
                if (data.length > maxBytes) {
                    throw new S3Bucket.ObjectTooLarge(failures.url(key), -1, maxBytes);
                }
                length = data.length;
            }
            complete = true;
            return ByteBuffer.wrap(data, 0, (int) length);
        } finally {
            S3Bodies.release(in, complete);
        }
    }

    /** One {@code Range: bytes=-length} GET; the answer must be the object's last bytes, whole. */
    byte[] suffixOnce(String key, int length, Deadline d) throws IOException {
        try {
            S3Answer in;
            try {
                in = open(key, "bytes=-" + length, d);
            } catch (RangeNotSatisfiable e) {
                return new byte[0]; // an empty object has no suffix
            }
            boolean complete = false;
            try {
                S3Answer r = in;
                ContentRange range = bodies.contentRange(key, r);
                long n;
                if (range != null) {
                    n = range.length();
                    if (n > length || (range.total() >= 0 && range.first() + n != range.total())) {
                        throw failures.malformed(
                                key, "asked for the last " + length + " bytes, got " + r.contentRange());
                    }
                } else {
                    // no Content-Range: the whole object, which must then be no longer than asked
                    n = bodies.wholeObjectAnswer(key, r, length, "the last " + length);
                }
                bodies.checkContentLength(key, r, n);
                byte[] into = new byte[(int) n];
                bodies.readBody(key, in, into, 0, (int) n, d);
                complete = true;
                return into;
            } finally {
                S3Bodies.release(in, complete);
            }
        } catch (AbortedException e) {
            throw failures.interrupted(key, e);
        } catch (SdkException e) {
            throw failures.error("GET", key, e, d);
        }
    }

    /**
     * One ranged GET into {@code buf[off..]}, or into a new array of the answer's length when {@code buf} is
     * {@code null}.
     */
    Ranged rangeOnce(String key, long offset, int len, byte[] buf, int off, Deadline d) throws IOException {
        return rangeOnce(key, offset, len, buf, off, ReadPreconditions.NONE, d);
    }

    /** As above, sent with {@code pre}: a 412 is a {@link PreconditionFailedException}. */
    Ranged rangeOnce(String key, long offset, int len, byte[] buf, int off, ReadPreconditions pre, Deadline d)
            throws IOException {
        try {
            S3Answer in;
            try {
                in = open(key, "bytes=" + offset + "-" + (offset + len - 1), pre, d);
            } catch (RangeNotSatisfiable e) {
                return new Ranged(-1, -1, null, null, null);
            }
            boolean complete = false;
            try {
                S3Answer r = in;
                ContentRange range = bodies.contentRange(key, r);
                long length;
                long total;
                if (range != null) {
                    if (range.first() != offset) {
                        throw failures.malformed(
                                key, "asked for bytes from " + offset + ", got bytes from " + range.first());
                    }
                    length = range.length();
                    total = range.total();
                    long expected = total >= 0 ? Math.min(len, total - offset) : len;
                    if (length > len || (total >= 0 && length != expected)) {
                        throw failures.malformed(
                                key, "asked for " + len + " bytes from " + offset + ", got " + r.contentRange());
                    }
                } else if (offset != 0) {
                    throw failures.malformed(key, "the server ignored the byte range (no Content-Range)");
                } else {
                    // bytes=0-...: a server without ranges sends the whole object
                    length = bodies.wholeObjectAnswer(key, r, len, "a range of " + len);
                    total = length;
                }
                bodies.checkContentLength(key, r, length);
                byte[] into = buf != null ? buf : new byte[(int) length];
                int at = buf != null ? off : 0;
                bodies.readBody(key, in, into, at, (int) length, d);
                complete = true;
                return new Ranged(length == 0 ? -1 : (int) length, total, buf != null ? null : into, r.eTag(), r);
            } finally {
                S3Bodies.release(in, complete);
            }
        } catch (AbortedException e) {
            throw failures.interrupted(key, e);
        } catch (SdkException e) {
            throw failures.error("GET", key, e, d);
        }
    }

    /**
     * What {@link #rangeOnce} read; {@code data} only when it made the array; the answer's {@code ETag} (or
     * null) and its headers (or null), for {@link #lastModified()}.
     */
    record Ranged(int bytes, long objectLength, byte[] data, String eTag, S3Answer answer) {
        /** The answer's {@code Last-Modified} in ms (or 0), parsed on this call: only byte-range sources ask. */
        long lastModified() {
            return answer == null || answer.lastModified() == null
                    ? 0
                    : answer.lastModified().toEpochMilli();
        }
    }

    /**
     * Sends a GET ({@code range}: a {@code Range} header value, {@code null} for the whole object) and returns
     * once the headers are in; a 404 is {@link NoSuchObject}, a 416 {@link RangeNotSatisfiable}.
     */
    private S3Answer open(String key, String range, Deadline d) throws IOException {
        return open(key, range, ReadPreconditions.NONE, d);
    }

    private S3Answer open(String key, String range, ReadPreconditions pre, Deadline d) throws IOException {
        try {
            DirectGets g = direct;
            if (g != null) {
                try {
                    return g.get(bucket, key, range, pre, d);
                } catch (DirectGets.WrongRegion e) {
                    wrongRegion();
                }
            }
            GetObjectRequest.Builder b =
                    GetObjectRequest.builder().bucket(bucket).key(key).overrideConfiguration(timeouts(d));
            if (range != null) {
                b.range(range);
            }
            if (pre.ifMatch() != null) {
                b.ifMatch(pre.ifMatch());
            }
            if (pre.ifUnmodifiedSince() != null) {
                b.ifUnmodifiedSince(pre.ifUnmodifiedSince());
            }
            return S3Answer.of(client.get().getObject(b.build()));
        } catch (S3Exception e) {
            if (S3Failures.isMissingObject(e)) {
                throw failures.noSuchObject(key);
            }
            if (e.statusCode() == 416) {
                throw new RangeNotSatisfiable();
            }
            if (e.statusCode() == 412 && !pre.isEmpty()) {
                throw new PreconditionFailedException(failures.url(key), "GET " + range + " with " + pre.describe());
            }
            throw e;
        }
    }
}
