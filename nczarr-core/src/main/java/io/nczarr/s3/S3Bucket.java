package io.nczarr.s3;

import io.nczarr.error.StoreException;
import io.nczarr.http.Deadline;
import io.nczarr.http.ReadPreconditions;
import io.nczarr.http.RetryPolicy;
import io.nczarr.s3.S3Failures.NoSuchObject;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntFunction;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Read access to the objects of one bucket through a pooled client, in S3 terms: GET of a
 * whole object or a byte range, LIST of one level. Every request is a single GET or LIST: no
 * HEAD before a GET. A missing object (404 / NoSuchKey) is {@link Optional#empty()}; everything
 * else (403, a missing bucket, 5xx, network errors, time-outs) is a {@link StoreException} whose key
 * is the object's URL, naming the active profile/region, never a secret.
 *
 * <p>Each request runs under the bucket's {@link S3Tuning}: attempts up to {@code maxAttempts},
 * each within {@code attemptTimeoutMs} from sending the request to the body's last byte, all within
 * {@code requestTimeoutMs}. A failure that may pass (5xx, throttling, a time-out, a connection reset
 * or closed before the body was complete, a body that disagrees with its headers) is retried after a
 * backoff; a refusal (403, 400, a missing bucket) never is. A body is only ever returned whole:
 * its length is checked against {@code Content-Length} and {@code Content-Range}.
 *
 * <p>The parts: one attempt of each GET is {@link S3Gets} (bodies read and checked by {@link S3Bodies}),
 * every failure is classified and worded by {@link S3Failures}, and the one {@link RetryPolicy} ({@link S3Tuning#retryPolicy()}) repeats attempts;
 * this class keeps the API, HEAD and LIST, and the client's lease.
 */
public final class S3Bucket implements Closeable {

    /** Far more names than any group's members (LIST is used for group members, never for chunks). */
    static final int MAX_LISTED_NAMES = 1_000_000;

    private final S3Settings settings;
    private final S3ClientPool.Lease lease;
    private final RetryPolicy retries;
    private final S3Failures failures;
    private final S3Gets gets;

    private S3Bucket(S3Settings settings, S3ClientPool.Lease lease) {
        this.settings = settings;
        this.lease = lease;
        this.retries = settings.tuning().retryPolicy();
        this.failures = new S3Failures(settings);
        this.gets = new S3Gets(
                settings.location().bucket(),
                lease::client,
                settings.tuning().sdkGets() ? null : lease.direct(),
                failures);
    }

    /** Opens the bucket of {@code settings.location()} with a client from {@code pool}. No request is made. */
    public static S3Bucket open(S3Settings settings, S3ClientPool pool) {
        return new S3Bucket(settings, pool.acquire(settings.clientSpec()));
    }

    public S3Settings settings() {
        return settings;
    }

    public String bucket() {
        return settings.location().bucket();
    }

    /** The URL of an object of this bucket, for messages. */
    public String url(String key) {
        return settings.location().url(key);
    }

    /**
     * The whole object.
     *
     * @param maxBytes refuse (StoreException, not retryable) objects larger than this
     * @return empty when the object does not exist
     */
    public Optional<byte[]> get(String key, long maxBytes) throws IOException {
        return get(key, maxBytes, null)
                .map(b -> b.limit() == b.array().length ? b.array() : Arrays.copyOf(b.array(), b.limit()));
    }

    /**
     * The whole object, read into a buffer of {@code buffers} (asked once the length has passed
     * {@code maxBytes}) when the answer states its length, else into a new heap one.
     *
     * @param buffers gives a buffer (heap or direct) of at least the size asked; {@code null}: a new exact
     *     heap one
     * @return the bytes from position 0 to the limit of that buffer; empty when the object does not exist
     */
    public Optional<ByteBuffer> get(String key, long maxBytes, IntFunction<ByteBuffer> buffers) throws IOException {
        if (maxBytes < 1) {
            throw new IllegalArgumentException("maxBytes must be positive, not " + maxBytes);
        }
        try {
            return Optional.of(retries.run("S3 GET", url(key), d -> gets.getOnce(key, maxBytes, buffers, d)));
        } catch (NoSuchObject e) {
            return Optional.empty();
        }
    }

    /**
     * {@code length} bytes from {@code offset}; fewer at the end of the object, none past it.
     *
     * @return empty when the object does not exist
     */
    public Optional<byte[]> getRange(String key, long offset, int length) throws IOException {
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("negative offset or length");
        }
        // "bytes=o-(o-1)" is not a range: ask for one byte and return none
        int asked = Math.max(1, length);
        S3Gets.Ranged r;
        try {
            r = retries.run("S3 GET", url(key), d -> gets.rangeOnce(key, offset, asked, null, 0, d));
        } catch (NoSuchObject e) {
            return Optional.empty();
        }
        if (r.bytes() <= 0 || length == 0) {
            return Optional.of(new byte[0]);
        }
        return Optional.of(r.data());
    }

    /**
     * The last {@code length} bytes of the object (all of it when shorter) in one suffix-range
     * GET ({@code Range: bytes=-length}).
     *
     * @return empty when the object does not exist
     */
    public Optional<byte[]> getSuffix(String key, int length) throws IOException {
        if (length < 0) {
            throw new IllegalArgumentException("negative length");
        }
        if (length == 0) {
            return getRange(key, 0, 0);
        }
        try {
            return Optional.of(retries.run("S3 GET", url(key), d -> gets.suffixOnce(key, length, d)));
        } catch (NoSuchObject e) {
            return Optional.empty();
        }
    }

    /**
     * What one ranged read found: the bytes copied and the object's total length from the
     * response's {@code Content-Range} ({@code -1} if the server did not say), its {@code ETag} (or null)
     * and {@code Last-Modified} in ms since the epoch (or 0).
     */
    public record RangeRead(int bytes, long objectLength, String eTag, long lastModified) {}

    /**
     * Reads {@code len} bytes at {@code offset} of one object into {@code buf[off..]} with a single
     * ranged GET ({@code Range: bytes=offset-(offset+len-1)}, inclusive end), retried as a whole. The
     * response must start at {@code offset} and hold exactly the bytes up to {@code min(offset+len,
     * length)}: anything shorter is an error, never zeros.
     *
     * @return the bytes read ({@code -1} when {@code offset} is at or past the end) and the length
     * @throws java.io.FileNotFoundException when the object does not exist
     */
    public RangeRead readRange(String key, long offset, byte[] buf, int off, int len) throws IOException {
        return readRange(key, offset, buf, off, len, ReadPreconditions.NONE);
    }

    /**
     * As above, the GET sent with {@code pre} ({@code ifMatch}, {@code ifUnmodifiedSince}): a changed object is a
     * {@link io.nczarr.error.PreconditionFailedException} (412), not retried.
     */
    public RangeRead readRange(String key, long offset, byte[] buf, int off, int len, ReadPreconditions pre)
            throws IOException {
        if (offset < 0 || len <= 0 || off < 0 || off + len > buf.length) {
            throw new IllegalArgumentException("bad range " + offset + "+" + len);
        }
        S3Gets.Ranged r = retries.run("S3 GET", url(key), d -> gets.rangeOnce(key, offset, len, buf, off, pre, d));
        return new RangeRead(r.bytes(), r.objectLength(), r.eTag(), r.lastModified());
    }

    /** The object's length with one HEAD (used only when a length is needed before any read). */
    public long length(String key) throws IOException {
        return retries.run("S3 HEAD", url(key), d -> headOnce(key, d));
    }

    /**
     * The names directly below {@code prefix} (a key prefix ending in {@code /}, or {@code ""}
     * for the bucket root): objects and "folders" alike, without the prefix, sorted. One LIST
     * request per 1000 names, delimiter {@code /}.
     */
    public List<String> list(String prefix) throws IOException {
        TreeSet<String> names = new TreeSet<>();
        Set<String> tokens = new HashSet<>();
        String token = null;
        do {
            String from = token;
            // a server going round in circles, or on without end, is an error, not a hang
            if (from != null && !tokens.add(from)) {
                throw failures.malformed(prefix, "LIST gave the same continuation token twice");
            }
            if (names.size() > MAX_LISTED_NAMES) {
                throw failures.malformed(prefix, "LIST gave more than " + MAX_LISTED_NAMES + " names below one prefix");
            }
            ListPages r = retries.run("S3 LIST", url(prefix), d -> listOnce(prefix, from, d));
            for (String key : r.keys()) {
                String n = key.substring(Math.min(prefix.length(), key.length()));
                if (!n.isEmpty()) {
                    names.add(n);
                }
            }
            for (String p : r.prefixes()) {
                String n = p.substring(Math.min(prefix.length(), p.length()));
                n = S3Location.trimSlashes(n);
                if (!n.isEmpty()) {
                    names.add(n);
                }
            }
            token = r.truncated() ? r.nextToken() : null;
        } while (token != null);
        return new ArrayList<>(names);
    }

    // ---- one attempt of HEAD and LIST (the GETs are S3Gets') -----------------------------------------

    private long headOnce(String key, Deadline d) throws IOException {
        try {
            Long n = null;
            DirectGets direct = gets.direct();
            if (direct != null) {
                try {
                    n = direct.head(bucket(), key, d);
                } catch (DirectGets.WrongRegion e) {
                    gets.wrongRegion();
                    direct = null;
                }
            }
            if (direct == null) {
                n = lease.client()
                        .headObject(HeadObjectRequest.builder()
                                .bucket(bucket())
                                .key(key)
                                .overrideConfiguration(S3Gets.timeouts(d))
                                .build())
                        .contentLength();
            }
            if (n == null) {
                throw failures.malformed(key, "HEAD gave no Content-Length");
            }
            return n;
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                throw failures.noSuchObject(key);
            }
            throw failures.error("HEAD", key, e, d);
        } catch (AbortedException e) {
            throw failures.interrupted(key, e);
        } catch (SdkException e) {
            throw failures.error("HEAD", key, e, d);
        }
    }

    private ListPages listOnce(String prefix, String token, Deadline d) throws IOException {
        try {
            DirectGets direct = gets.direct();
            if (direct != null) {
                try {
                    return direct.list(bucket(), prefix, token, d);
                } catch (DirectGets.WrongRegion e) {
                    gets.wrongRegion();
                }
            }
            ListObjectsV2Request.Builder rb = ListObjectsV2Request.builder()
                    .bucket(bucket())
                    .prefix(prefix)
                    .delimiter("/")
                    .overrideConfiguration(S3Gets.timeouts(d));
            if (token != null) {
                rb.continuationToken(token);
            }
            return ListPages.of(lease.client().listObjectsV2(rb.build()));
        } catch (AbortedException e) {
            throw failures.interrupted(prefix, e);
        } catch (SdkException e) {
            throw failures.error("LIST", prefix, e, d);
        }
    }

    /**
     * Whether the same request may succeed later: a status that says so (5xx, 429 throttled, 408 request
     * timeout), an SDK time-out, or a transport failure (a connection refused, reset or timed out). A refusal
     * (403, 400, a missing bucket) or a client-side problem (no credentials, no region) is final. The one
     * place S3 failures are classified ({@link S3Failures}): the S3 store and the byte-range source only add
     * their context.
     */
    public static boolean isRetryable(SdkException e) {
        return S3Failures.isRetryable(e);
    }

    /** 404 for an object; a missing bucket is an error, not a missing object. */
    static boolean isMissingObject(S3Exception e) {
        return S3Failures.isMissingObject(e);
    }

    /** Whether GETs go straight to the HTTP client (rather than through the SDK's pipeline). */
    boolean sendsGetsDirectly() {
        return gets.sendsDirectly();
    }

    /** Releases this bucket's hold on the shared client. */
    @Override
    public void close() {
        lease.close();
    }

    @Override
    public String toString() {
        return "S3Bucket[" + settings.location().url("") + "]";
    }

    /**
     * An object larger than the {@code maxBytes} of {@link #get}: refused from its {@code Content-Length}
     * before the body is read, or after reading {@code maxBytes + 1} bytes when the length was not given.
     * Its own type so that a store can report the limit the way it reports all its limits.
     */
    public static final class ObjectTooLarge extends StoreException {
        private static final long serialVersionUID = 1L;

        private final long size;

        ObjectTooLarge(String url, long size, long maxBytes) {
            super(
                    null,
                    url,
                    "object is " + (size < 0 ? "" : size + " bytes, ") + "more than the limit of " + maxBytes
                            + " bytes for one object",
                    false,
                    null);
            this.size = size;
        }

        /** The object's size, or {@code -1} when only known to be more than the limit. */
        public long size() {
            return size;
        }
    }
}
