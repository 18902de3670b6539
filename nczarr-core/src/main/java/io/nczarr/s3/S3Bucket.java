package io.nczarr.s3;

import io.nczarr.error.StoreException;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
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
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Read access to the objects of one bucket through a pooled client, in S3 terms: GET of a
 * whole object or a byte range, LIST of one level. Every request is a single GET or LIST: no
 * HEAD before a GET. A missing object (404 / NoSuchKey) is {@link Optional#empty()}; everything
 * else (403, a missing bucket, 5xx after the client's retries, network errors) is an
 * {@link IOException} naming the object's URL and the active profile/region, never a secret.
 */
public final class S3Bucket implements Closeable {

    private final S3Settings settings;
    private final S3ClientPool.Lease lease;
    private final S3Client client;

    private S3Bucket(S3Settings settings, S3ClientPool.Lease lease) {
        this.settings = settings;
        this.lease = lease;
        this.client = lease.client();
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
     * @param maxBytes refuse (IOException) objects larger than this
     * @return empty when the object does not exist
     */
    public Optional<byte[]> get(String key, long maxBytes) throws IOException {
        GetObjectRequest req =
                GetObjectRequest.builder().bucket(bucket()).key(key).build();
        return fetch(key, req, maxBytes);
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
        long last = offset + Math.max(1, length) - 1;
        GetObjectRequest req = GetObjectRequest.builder()
                .bucket(bucket())
                .key(key)
                .range("bytes=" + offset + "-" + last)
                .build();
        Optional<byte[]> b;
        try {
            b = fetch(key, req, Math.max(1, length));
        } catch (RangeNotSatisfiable e) {
            return Optional.of(new byte[0]);
        }
        if (length == 0 && b.isPresent()) {
            return Optional.of(new byte[0]);
        }
        return b;
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
        GetObjectRequest req = GetObjectRequest.builder()
                .bucket(bucket())
                .key(key)
                .range("bytes=-" + length)
                .build();
        try {
            return fetch(key, req, length);
        } catch (RangeNotSatisfiable e) {
            // an empty object has no suffix
            return Optional.of(new byte[0]);
        }
    }

    /**
     * What one ranged read found: the bytes copied and the object's total length from the
     * response's {@code Content-Range} ({@code -1} if the server did not say).
     */
    public record RangeRead(int bytes, long objectLength) {}

    /**
     * Reads {@code len} bytes at {@code offset} of one object into {@code buf[off..]} with a single
     * ranged GET ({@code Range: bytes=offset-(offset+len-1)}, inclusive end). The response must
     * start at {@code offset} and hold exactly the bytes up to {@code min(offset+len, length)}:
     * anything shorter is an error, never zeros.
     *
     * @return the bytes read ({@code -1} when {@code offset} is at or past the end) and the length
     * @throws java.io.FileNotFoundException when the object does not exist
     */
    public RangeRead readRange(String key, long offset, byte[] buf, int off, int len) throws IOException {
        if (offset < 0 || len <= 0 || off < 0 || off + len > buf.length) {
            throw new IllegalArgumentException("bad range " + offset + "+" + len);
        }
        GetObjectRequest req = GetObjectRequest.builder()
                .bucket(bucket())
                .key(key)
                .range("bytes=" + offset + "-" + (offset + len - 1))
                .build();
        try (ResponseInputStream<GetObjectResponse> in = client.getObject(req)) {
            GetObjectResponse r = in.response();
            long total = -1;
            long start = offset;
            String cr = r.contentRange();
            if (cr != null) {
                // "bytes a-b/total"
                java.util.regex.Matcher m = CONTENT_RANGE.matcher(cr.trim());
                if (!m.matches()) {
                    throw new StoreException(null, url(key), "unexpected Content-Range '" + cr + "'", false, null);
                }
                start = Long.parseLong(m.group(1));
                total = m.group(3).equals("*") ? -1 : Long.parseLong(m.group(3));
            } else if (offset != 0) {
                throw new StoreException(
                        null, url(key), "the server ignored the byte range (no Content-Range)", false, null);
            }
            if (start != offset) {
                throw new StoreException(
                        null, url(key), "asked for bytes from " + offset + ", got bytes from " + start, false, null);
            }
            long avail = total >= 0 ? Math.min(len, total - offset) : len;
            Long declared = r.contentLength();
            if (declared != null && declared > len) {
                in.abort();
                throw new StoreException(
                        null, url(key), declared + " bytes returned for a range of " + len, false, null);
            }
            int n = in.readNBytes(buf, off, (int) avail);
            if (n != avail) {
                throw new StoreException(
                        null,
                        url(key),
                        "short read at offset " + offset + ": " + n + " of " + avail + " bytes",
                        true,
                        null);
            }
            return new RangeRead(n, total);
        } catch (S3Exception e) {
            if (isMissingObject(e)) {
                throw new java.io.FileNotFoundException(url(key) + ": no such object [" + settings.describe() + "]");
            }
            if (e.statusCode() == 416) {
                return new RangeRead(-1, -1);
            }
            throw error("GET", key, e);
        } catch (AbortedException e) {
            throw interrupted(key, e);
        } catch (SdkException e) {
            throw error("GET", key, e);
        } catch (IOException e) {
            throw bodyFailure(key, e);
        }
    }

    /** The object's length with one HEAD (used only when a length is needed before any read). */
    public long length(String key) throws IOException {
        try {
            Long n = client.headObject(software.amazon.awssdk.services.s3.model.HeadObjectRequest.builder()
                            .bucket(bucket())
                            .key(key)
                            .build())
                    .contentLength();
            if (n == null) {
                throw new StoreException(null, url(key), "HEAD gave no Content-Length", false, null);
            }
            return n;
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                throw new java.io.FileNotFoundException(url(key) + ": no such object [" + settings.describe() + "]");
            }
            throw error("HEAD", key, e);
        } catch (AbortedException e) {
            throw interrupted(key, e);
        } catch (SdkException e) {
            throw error("HEAD", key, e);
        }
    }

    private static final java.util.regex.Pattern CONTENT_RANGE =
            java.util.regex.Pattern.compile("bytes (\\d+)-(\\d+)/(\\d+|\\*)");

    private Optional<byte[]> fetch(String key, GetObjectRequest req, long maxBytes) throws IOException {
        try (ResponseInputStream<GetObjectResponse> in = client.getObject(req)) {
            Long declared = in.response().contentLength();
            if (declared != null && declared > maxBytes) {
                in.abort();
                throw new StoreException(
                        null,
                        url(key),
                        "object is " + declared + " bytes, more than the limit of " + maxBytes
                                + " bytes for one object",
                        false,
                        null);
            }
            return Optional.of(readAll(key, in, maxBytes));
        } catch (S3Exception e) {
            if (isMissingObject(e)) {
                return Optional.empty();
            }
            if (e.statusCode() == 416) {
                throw new RangeNotSatisfiable();
            }
            throw error("GET", key, e);
        } catch (AbortedException e) {
            throw interrupted(key, e);
        } catch (SdkException e) {
            throw error("GET", key, e);
        } catch (IOException e) {
            throw bodyFailure(key, e);
        }
    }

    private byte[] readAll(String key, InputStream in, long maxBytes) throws IOException {
        int cap = (int) Math.min(maxBytes + 1, Integer.MAX_VALUE - 16);
        byte[] data = in.readNBytes(cap);
        if (data.length > maxBytes) {
            throw new StoreException(
                    null,
                    url(key),
                    "object is more than the limit of " + maxBytes + " bytes for one object",
                    false,
                    null);
        }
        return data;
    }

    /**
     * The names directly below {@code prefix} (a key prefix ending in {@code /}, or {@code ""}
     * for the bucket root): objects and "folders" alike, without the prefix, sorted. One LIST
     * request per 1000 names, delimiter {@code /}.
     */
    public List<String> list(String prefix) throws IOException {
        TreeSet<String> names = new TreeSet<>();
        String token = null;
        try {
            do {
                ListObjectsV2Request.Builder rb = ListObjectsV2Request.builder()
                        .bucket(bucket())
                        .prefix(prefix)
                        .delimiter("/");
                if (token != null) {
                    rb.continuationToken(token);
                }
                ListObjectsV2Response r = client.listObjectsV2(rb.build());
                for (S3Object o : r.contents()) {
                    String n =
                            o.key().substring(Math.min(prefix.length(), o.key().length()));
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
        } catch (AbortedException e) {
            throw interrupted(prefix, e);
        } catch (SdkException e) {
            throw error("LIST", prefix, e);
        }
        return new ArrayList<>(names);
    }

    /** 404 for an object; a missing bucket is an error, not a missing object. */
    static boolean isMissingObject(S3Exception e) {
        if (e.statusCode() != 404) {
            return false;
        }
        String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
        return !"NoSuchBucket".equals(code);
    }

    private StoreException error(String op, String key, SdkException e) {
        StringBuilder m = new StringBuilder("S3 ").append(op).append(" failed: ");
        if (e instanceof S3Exception s3) {
            String code =
                    s3.awsErrorDetails() == null ? null : s3.awsErrorDetails().errorCode();
            m.append("HTTP ").append(s3.statusCode());
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
        } else {
            m.append(e.getMessage());
        }
        m.append(" [").append(settings.describe()).append(']');
        return new StoreException(null, url(key), m.toString(), isRetryable(e), e);
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
        // "Unable to execute HTTP request": the cause says whether the network failed
        for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
            if (t instanceof IOException) {
                return true;
            }
        }
        return false;
    }

    /**
     * The response body broke off (reset, closed early, timed out): retryable. The bucket's own refusals
     * (already {@link StoreException}s), a missing object and an interrupt pass unchanged.
     */
    private IOException bodyFailure(String key, IOException e) {
        if (e instanceof StoreException
                || e instanceof java.io.FileNotFoundException
                || e instanceof InterruptedIOException
                || e instanceof RangeNotSatisfiable) {
            return e;
        }
        return new StoreException(null, url(key), "S3 GET failed while reading the body: " + e, true, e);
    }

    private InterruptedIOException interrupted(String key, Exception e) {
        InterruptedIOException x = new InterruptedIOException(url(key) + ": S3 request interrupted");
        x.initCause(e);
        return x;
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

    /** HTTP 416: a range starting at or after the end of the object. */
    private static final class RangeNotSatisfiable extends IOException {
        private static final long serialVersionUID = 1L;
    }
}
