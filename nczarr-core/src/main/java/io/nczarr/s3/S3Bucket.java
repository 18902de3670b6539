package io.nczarr.s3;

import io.nczarr.error.StoreException;
import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.IntFunction;
import javax.net.ssl.SSLException;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.exception.SdkServiceException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

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
 */
public final class S3Bucket implements Closeable {

    /** Largest Java array: objects longer than this cannot be read whole. */
    private static final long MAX_ARRAY = Integer.MAX_VALUE - 16;

    private final S3Settings settings;
    private final S3ClientPool.Lease lease;
    private final S3Client client;
    private final S3Retries retries;
    /** GETs past the SDK's pipeline; {@code null} once AWS said the bucket is elsewhere, or where only the SDK can go. */
    private volatile DirectGets direct;

    private S3Bucket(S3Settings settings, S3ClientPool.Lease lease) {
        this.settings = settings;
        this.lease = lease;
        this.client = lease.client();
        this.retries = new S3Retries(settings.tuning());
        this.direct = settings.tuning().sdkGets() ? null : lease.direct();
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
            return Optional.of(retries.run("S3 GET", url(key), d -> getOnce(key, maxBytes, buffers, d)));
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
        Ranged r;
        try {
            r = retries.run("S3 GET", url(key), d -> rangeOnce(key, offset, asked, null, 0, d));
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
            return Optional.of(retries.run("S3 GET", url(key), d -> suffixOnce(key, length, d)));
        } catch (NoSuchObject e) {
            return Optional.empty();
        }
    }

    /** One {@code Range: bytes=-length} GET; the answer must be the object's last bytes, whole. */
    private byte[] suffixOnce(String key, int length, Deadline d) throws IOException {
        try {
            ResponseInputStream<GetObjectResponse> in;
            try {
                in = open(key, "bytes=-" + length, d);
            } catch (RangeNotSatisfiable e) {
                return new byte[0]; // an empty object has no suffix
            }
            boolean complete = false;
            try {
                GetObjectResponse r = in.response();
                ContentRangeHeader range = contentRange(key, r);
                long n;
                if (range != null) {
                    n = range.length();
                    if (n > length || (range.total() >= 0 && range.first() + n != range.total())) {
                        throw malformed(key, "asked for the last " + length + " bytes, got " + r.contentRange());
                    }
                } else {
                    // no Content-Range: the whole object, which must then be no longer than asked
                    n = wholeObjectAnswer(key, r, length, "the last " + length);
                }
                checkContentLength(key, r, n);
                byte[] into = new byte[(int) n];
                readBody(key, in, into, 0, (int) n, d);
                complete = true;
                return into;
            } finally {
                release(in, complete);
            }
        } catch (AbortedException e) {
            throw interrupted(key, e);
        } catch (SdkException e) {
            throw error("GET", key, e, d);
        }
    }

    /**
     * What one ranged read found: the bytes copied and the object's total length from the
     * response's {@code Content-Range} ({@code -1} if the server did not say).
     */
    public record RangeRead(int bytes, long objectLength) {}

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
        if (offset < 0 || len <= 0 || off < 0 || off + len > buf.length) {
            throw new IllegalArgumentException("bad range " + offset + "+" + len);
        }
        Ranged r = retries.run("S3 GET", url(key), d -> rangeOnce(key, offset, len, buf, off, d));
        return new RangeRead(r.bytes(), r.objectLength());
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
        String token = null;
        do {
            String from = token;
            ListObjectsV2Response r = retries.run("S3 LIST", url(prefix), d -> listOnce(prefix, from, d));
            for (S3Object o : r.contents()) {
                String n = o.key().substring(Math.min(prefix.length(), o.key().length()));
                if (!n.isEmpty()) {
                    names.add(n);
                }
            }
            for (CommonPrefix p : r.commonPrefixes()) {
                String n = p.prefix()
                        .substring(Math.min(prefix.length(), p.prefix().length()));
                n = S3Location.trimSlashes(n);
                if (!n.isEmpty()) {
                    names.add(n);
                }
            }
            token = Boolean.TRUE.equals(r.isTruncated()) ? r.nextContinuationToken() : null;
        } while (token != null);
        return new ArrayList<>(names);
    }

    // ---- one attempt of each request -------------------------------------------------------------

    /**
     * One GET of a whole object, as the range {@code bytes=0-maxBytes}: the answer's Content-Range
     * then states the object's length apart from Content-Length, and an object over the limit is
     * refused without reading it.
     */
    private ByteBuffer getOnce(String key, long maxBytes, IntFunction<ByteBuffer> buffers, Deadline d)
            throws IOException {
        try {
            ResponseInputStream<GetObjectResponse> in;
            try {
                in = open(key, "bytes=0-" + Math.min(maxBytes, Long.MAX_VALUE - 1), d);
            } catch (RangeNotSatisfiable e) {
                // no byte 0: an empty object (S3 refuses every range of one); ask for the whole of it
                in = open(key, null, d);
            }
            return readWhole(key, in, maxBytes, buffers, d);
        } catch (AbortedException e) {
            throw interrupted(key, e);
        } catch (SdkException e) {
            throw error("GET", key, e, d);
        }
    }

    private ByteBuffer readWhole(
            String key,
            ResponseInputStream<GetObjectResponse> in,
            long maxBytes,
            IntFunction<ByteBuffer> buffers,
            Deadline d)
            throws IOException {
        boolean complete = false;
        try {
            long length = wholeLength(key, in.response(), maxBytes);
            byte[] data;
            if (length >= 0) {
                // the one copy of the body: straight into the buffer the value is decoded from
                ByteBuffer into =
                        buffers == null ? ByteBuffer.wrap(new byte[(int) length]) : buffers.apply((int) length);
                readBody(key, in, into.clear(), (int) length, d);
                complete = true;
                return into.limit((int) length).position(0);
            } else {
                data = readToEnd(key, in, Math.min(maxBytes, MAX_ARRAY) + 1, d);
                if (data.length > maxBytes) {
                    throw new ObjectTooLarge(url(key), -1, maxBytes);
                }
                length = data.length;
            }
            complete = true;
            return ByteBuffer.wrap(data, 0, (int) length);
        } finally {
            release(in, complete);
        }
    }

    /** The bytes a whole-object answer must hold ({@code -1}: the server did not say); refuses one over the limit. */
    private long wholeLength(String key, GetObjectResponse r, long maxBytes) throws StoreException {
        ContentRangeHeader range = contentRange(key, r);
        long length;
        if (range != null) {
            if (range.first() != 0) {
                throw malformed(key, "asked for bytes from 0, got bytes from " + range.first());
            }
            length = range.length();
            long total = range.total();
            if (total < 0 ? length > maxBytes : total > maxBytes) {
                throw new ObjectTooLarge(url(key), total < 0 ? -1 : total, maxBytes);
            }
            if (total >= 0 && length != total) {
                throw malformed(key, "asked for the whole object, got " + r.contentRange());
            }
        } else {
            // no Content-Range: the whole object (a server without ranges, or the second GET of an empty one)
            length = r.contentLength() == null ? -1 : r.contentLength();
            if (length > maxBytes) {
                throw new ObjectTooLarge(url(key), length, maxBytes);
            }
        }
        if (length > MAX_ARRAY) {
            throw new ObjectTooLarge(url(key), length, MAX_ARRAY);
        }
        checkContentLength(key, r, length);
        return length;
    }

    /**
     * One ranged GET into {@code buf[off..]}, or into a new array of the answer's length when {@code buf} is
     * {@code null}.
     */
    private Ranged rangeOnce(String key, long offset, int len, byte[] buf, int off, Deadline d) throws IOException {
        try {
            ResponseInputStream<GetObjectResponse> in;
            try {
                in = open(key, "bytes=" + offset + "-" + (offset + len - 1), d);
            } catch (RangeNotSatisfiable e) {
                return new Ranged(-1, -1, null);
            }
            boolean complete = false;
            try {
                GetObjectResponse r = in.response();
                ContentRangeHeader range = contentRange(key, r);
                long length;
                long total;
                if (range != null) {
                    if (range.first() != offset) {
                        throw malformed(key, "asked for bytes from " + offset + ", got bytes from " + range.first());
                    }
                    length = range.length();
                    total = range.total();
                    long expected = total >= 0 ? Math.min(len, total - offset) : len;
                    if (length > len || (total >= 0 && length != expected)) {
                        throw malformed(
                                key, "asked for " + len + " bytes from " + offset + ", got " + r.contentRange());
                    }
                } else if (offset != 0) {
                    throw malformed(key, "the server ignored the byte range (no Content-Range)");
                } else {
                    // bytes=0-...: a server without ranges sends the whole object
                    length = wholeObjectAnswer(key, r, len, "a range of " + len);
                    total = length;
                }
                checkContentLength(key, r, length);
                byte[] into = buf != null ? buf : new byte[(int) length];
                int at = buf != null ? off : 0;
                readBody(key, in, into, at, (int) length, d);
                complete = true;
                return new Ranged(length == 0 ? -1 : (int) length, total, buf != null ? null : into);
            } finally {
                release(in, complete);
            }
        } catch (AbortedException e) {
            throw interrupted(key, e);
        } catch (SdkException e) {
            throw error("GET", key, e, d);
        }
    }

    /** What {@link #rangeOnce} read; {@code data} only when it made the array. */
    private record Ranged(int bytes, long objectLength, byte[] data) {}

    private long headOnce(String key, Deadline d) throws IOException {
        try {
            Long n = client.headObject(HeadObjectRequest.builder()
                            .bucket(bucket())
                            .key(key)
                            .overrideConfiguration(timeouts(d))
                            .build())
                    .contentLength();
            if (n == null) {
                throw malformed(key, "HEAD gave no Content-Length");
            }
            return n;
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                throw new NoSuchObject(url(key) + ": no such object [" + settings.describe() + "]");
            }
            throw error("HEAD", key, e, d);
        } catch (AbortedException e) {
            throw interrupted(key, e);
        } catch (SdkException e) {
            throw error("HEAD", key, e, d);
        }
    }

    private ListObjectsV2Response listOnce(String prefix, String token, Deadline d) throws IOException {
        ListObjectsV2Request.Builder rb = ListObjectsV2Request.builder()
                .bucket(bucket())
                .prefix(prefix)
                .delimiter("/")
                .overrideConfiguration(timeouts(d));
        if (token != null) {
            rb.continuationToken(token);
        }
        try {
            return client.listObjectsV2(rb.build());
        } catch (AbortedException e) {
            throw interrupted(prefix, e);
        } catch (SdkException e) {
            throw error("LIST", prefix, e, d);
        }
    }

    // ---- requests and bodies ---------------------------------------------------------------------

    /** The SDK's own time-outs for one attempt: what is left of its deadline (the SDK makes one attempt). */
    private static AwsRequestOverrideConfiguration timeouts(Deadline d) {
        return AwsRequestOverrideConfiguration.builder()
                .apiCallTimeout(d.remaining())
                .apiCallAttemptTimeout(d.remaining())
                .build();
    }

    /**
     * Sends a GET ({@code range}: a {@code Range} header value, {@code null} for the whole object) and returns
     * once the headers are in; a 404 is {@link NoSuchObject}, a 416 {@link RangeNotSatisfiable}.
     */
    private ResponseInputStream<GetObjectResponse> open(String key, String range, Deadline d) throws IOException {
        try {
            DirectGets g = direct;
            if (g != null) {
                try {
                    return g.get(bucket(), key, range, d);
                } catch (DirectGets.WrongRegion e) {
                    direct = null; // the SDK's client follows AWS's redirects
                }
            }
            GetObjectRequest.Builder b =
                    GetObjectRequest.builder().bucket(bucket()).key(key).overrideConfiguration(timeouts(d));
            if (range != null) {
                b.range(range);
            }
            return client.getObject(b.build());
        } catch (S3Exception e) {
            if (isMissingObject(e)) {
                throw new NoSuchObject(url(key) + ": no such object [" + settings.describe() + "]");
            }
            if (e.statusCode() == 416) {
                throw new RangeNotSatisfiable();
            }
            throw e;
        }
    }

    /** The response's Content-Range, {@code null} without one; a malformed one is an error. */
    private ContentRangeHeader contentRange(String key, GetObjectResponse r) throws StoreException {
        String header = r.contentRange();
        ContentRangeHeader range = ContentRangeHeader.parse(header);
        if (header != null && range == null) {
            throw malformed(key, "unexpected Content-Range '" + header + "'");
        }
        return range;
    }

    /** A Content-Length other than the bytes the range says: the transfer is broken (retryable). */
    private void checkContentLength(String key, GetObjectResponse r, long length) throws StoreException {
        Long declared = r.contentLength();
        if (declared != null && length >= 0 && declared != length) {
            throw new StoreException(
                    null,
                    url(key),
                    "S3 GET: Content-Length " + declared + " disagrees with Content-Range '" + r.contentRange() + "' ("
                            + length + " bytes)",
                    true,
                    null);
        }
    }

    /** Reads exactly {@code n} bytes of the body by the attempt's deadline. */
    private void readBody(String key, ResponseInputStream<?> in, byte[] buf, int off, int n, Deadline d)
            throws IOException {
        try (BodyWatchdog.Watch w = BodyWatchdog.watch(in, d)) {
            int got;
            try {
                got = in.readNBytes(buf, off, n);
            } catch (IOException e) {
                throw w.fired() ? bodyTimeout(key, d, e) : bodyFailure(key, e);
            }
            if (got < n) {
                throw w.fired() ? bodyTimeout(key, d, null) : bodyEnded(key, got, n);
            }
        }
    }

    /** Reads exactly {@code n} bytes of the body into {@code into} from its start, by the attempt's deadline. */
    private void readBody(String key, ResponseInputStream<?> in, ByteBuffer into, int n, Deadline d)
            throws IOException {
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
            } catch (IOException e) {
                throw w.fired() ? bodyTimeout(key, d, e) : bodyFailure(key, e);
            }
            if (got < n) {
                throw w.fired() ? bodyTimeout(key, d, null) : bodyEnded(key, got, n);
            }
        }
    }

    /** Bytes copied at a time from a body into a direct buffer. */
    private static final int BODY_SLICE = 64 << 10;

    private StoreException bodyEnded(String key, int got, int n) {
        return new StoreException(
                null, url(key), "S3 GET: the body ended after " + got + " of " + n + " bytes", true, null);
    }

    /** Reads the body to its end (a length the server did not state), at most {@code cap} bytes. */
    private byte[] readToEnd(String key, ResponseInputStream<?> in, long cap, Deadline d) throws IOException {
        try (BodyWatchdog.Watch w = BodyWatchdog.watch(in, d)) {
            byte[] data;
            try {
                data = in.readNBytes((int) Math.min(cap, MAX_ARRAY));
            } catch (IOException e) {
                throw w.fired() ? bodyTimeout(key, d, e) : bodyFailure(key, e);
            }
            if (w.fired()) {
                // an aborted body of unknown length may look like its end
                throw bodyTimeout(key, d, null);
            }
            return data;
        }
    }

    /** Closes a response; one not read to its end is aborted first, so that closing does not drain it. */
    private static void release(ResponseInputStream<?> in, boolean complete) {
        try {
            if (!complete) {
                in.abort();
            }
            in.close();
        } catch (IOException | RuntimeException e) {
            // the body was read whole, or its failure is already being reported
        }
    }

    // ---- failures ----------------------------------------------------------------------------------

    /** 404 for an object; a missing bucket is an error, not a missing object. */
    static boolean isMissingObject(S3Exception e) {
        if (e.statusCode() != 404) {
            return false;
        }
        String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
        return !"NoSuchBucket".equals(code);
    }

    private StoreException error(String op, String key, SdkException e, Deadline d) {
        StringBuilder m = new StringBuilder("S3 ").append(op);
        if (e instanceof S3Exception s3) {
            String code =
                    s3.awsErrorDetails() == null ? null : s3.awsErrorDetails().errorCode();
            m.append(" failed: HTTP ").append(s3.statusCode());
            if (code != null) {
                m.append(' ').append(code);
            }
            if (s3.statusCode() == 403) {
                m.append(" (access denied");
                m.append(
                        settings.credentials() instanceof S3Credentials.Anonymous
                                ? "; unsigned request: is the bucket public?)"
                                : ")");
            }
            String msg =
                    s3.awsErrorDetails() == null ? null : s3.awsErrorDetails().errorMessage();
            if (msg != null && !msg.isBlank()) {
                m.append(": ").append(msg);
            }
        } else if (e instanceof ApiCallTimeoutException || e instanceof ApiCallAttemptTimeoutException) {
            m.append(" timed out: no response within ")
                    .append(d.givenMillis())
                    .append(" ms (")
                    .append(limit(d))
                    .append(')');
        } else if (causedBy(e, SocketTimeoutException.class)) {
            // the socket time-out (one read) fired before the SDK's (the attempt): the same wait, said the same way
            m.append(" timed out: no data for ")
                    .append(settings.tuning().attemptTimeoutMillis())
                    .append(" ms (")
                    .append(S3Tuning.ATTEMPT_TIMEOUT_MS)
                    .append(')');
        } else if (causedBy(e, UnknownHostException.class)) {
            m.append(" failed: unknown host '").append(host()).append("' (DNS lookup failed)");
        } else if (causedBy(e, SSLException.class)) {
            URI ep = settings.location().endpoint();
            m.append(" failed: TLS handshake with ").append(host()).append(" failed");
            if (ep != null && "https".equalsIgnoreCase(ep.getScheme())) {
                // s3://host:port means https; a loopback or MinIO server often speaks plain http
                m.append(" (if the server speaks plain HTTP, use http://")
                        .append(ep.getRawAuthority())
                        .append("/<bucket>/<key>#mode=...,s3)");
            }
        } else if (causedBy(e, ConnectException.class)) {
            m.append(" failed: cannot connect to ").append(host()).append(" (connection refused)");
        } else {
            m.append(" failed: ").append(e.getMessage());
        }
        m.append(" [").append(settings.describe()).append(']');
        return new StoreException(null, url(key), m.toString(), isRetryable(e), e);
    }

    /** The server named in messages: the endpoint's host and port, or AWS's S3 host for the region. */
    private String host() {
        URI ep = settings.location().endpoint();
        return ep != null ? ep.getRawAuthority() : "s3." + settings.region() + ".amazonaws.com";
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    /** The setting that gave an attempt its time: its own limit, or what was left of the request's. */
    private String limit(Deadline d) {
        S3Tuning t = settings.tuning();
        return d.givenMillis() < t.attemptTimeoutMillis() || t.attemptTimeoutMillis() == t.requestTimeoutMillis()
                ? S3Tuning.REQUEST_TIMEOUT_MS
                : S3Tuning.ATTEMPT_TIMEOUT_MS;
    }

    /**
     * Whether the same request may succeed later: a status that says so (5xx, 429 throttled, 408 request
     * timeout), an SDK time-out, or a transport failure (a connection refused, reset or timed out). A refusal
     * (403, 400, a missing bucket) or a client-side problem (no credentials, no region) is final. The one
     * place S3 failures are classified: the S3 store and the byte-range source only add their context.
     */
    public static boolean isRetryable(SdkException e) {
        if (e instanceof SdkServiceException s) {
            int status = s.statusCode();
            return status >= 500 || status == 429 || status == 408 || s.isThrottlingException();
        }
        if (e instanceof ApiCallTimeoutException || e instanceof ApiCallAttemptTimeoutException) {
            return true;
        }
        // "Unable to execute HTTP request": the cause says whether the network failed; an unknown host or a
        // TLS handshake refused (an https request to a plain-http server) fails the same way every time
        if (causedBy(e, UnknownHostException.class) || causedBy(e, SSLException.class)) {
            return false;
        }
        return causedBy(e, IOException.class);
    }

    /**
     * The response body broke off (reset, closed early, a socket read timed out): retryable. An interrupt
     * passes unchanged: the read was cancelled.
     */
    private IOException bodyFailure(String key, IOException e) {
        if (e instanceof SocketTimeoutException) {
            return new StoreException(
                    null,
                    url(key),
                    "S3 GET timed out: no data for " + settings.tuning().attemptTimeoutMillis()
                            + " ms while reading the body (" + S3Tuning.ATTEMPT_TIMEOUT_MS + ")",
                    true,
                    e);
        }
        if (e instanceof InterruptedIOException && Thread.currentThread().isInterrupted()) {
            return e;
        }
        String m = e.getMessage();
        return new StoreException(
                null,
                url(key),
                "S3 GET failed while reading the body: " + e.getClass().getSimpleName() + (m == null ? "" : ": " + m),
                true,
                e);
    }

    private StoreException bodyTimeout(String key, Deadline d, IOException cause) {
        return new StoreException(
                null,
                url(key),
                "S3 GET timed out: the body was not complete within " + d.givenMillis() + " ms (" + limit(d) + ")",
                true,
                cause);
    }

    /**
     * The length of an answer without Content-Range (the server sent the whole object): usable only when
     * its Content-Length is known and no more than was asked for.
     */
    private long wholeObjectAnswer(String key, GetObjectResponse r, long asked, String what) throws StoreException {
        Long n = r.contentLength();
        if (n == null || n > asked) {
            throw malformed(
                    key,
                    (n == null ? "an unknown number of" : n) + " bytes returned for " + what + " (no Content-Range)");
        }
        return n;
    }

    /** A response that does not answer the request: asking again will not help. */
    private StoreException malformed(String key, String detail) {
        return new StoreException(null, url(key), "S3 GET: " + detail, false, null);
    }

    private InterruptedIOException interrupted(String key, Exception e) {
        InterruptedIOException x = new InterruptedIOException(url(key) + ": S3 request interrupted");
        x.initCause(e);
        return x;
    }

    /** Whether GETs go straight to the HTTP client (rather than through the SDK's pipeline). */
    boolean sendsGetsDirectly() {
        return direct != null;
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

    /** HTTP 404 for an object: {@link #get} and {@link #getRange} make it an empty Optional. */
    private static final class NoSuchObject extends FileNotFoundException {
        private static final long serialVersionUID = 1L;

        NoSuchObject(String message) {
            super(message);
        }
    }

    /** HTTP 416: a range starting at or after the end of the object. */
    private static final class RangeNotSatisfiable extends IOException {
        private static final long serialVersionUID = 1L;
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
