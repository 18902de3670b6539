package io.nczarr.raf;

import io.nczarr.error.StoreException;
import io.nczarr.http.RequestStats;
import io.nczarr.open.NcZarrOptions;
import io.nczarr.s3.AwsEnvironment;
import io.nczarr.s3.S3Bucket;
import io.nczarr.s3.S3ClientPool;
import io.nczarr.s3.S3Location;
import io.nczarr.s3.S3Settings;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.Objects;

/**
 * One S3 object read by ranged GetObject requests, with the URL forms, profiles, regions,
 * credentials and pooled clients of the S3 store ({@code io.nczarr.s3}). The length comes from
 * the first GET's {@code Content-Range}; a HEAD is made only if the length is asked first.
 *
 * <p>{@code S3Bucket} retries within the request deadline ({@code nczarr.s3.*}); failures reach the caller as {@link StoreException}s
 * ({@link S3Failures}), a missing object as {@link java.io.FileNotFoundException}.
 */
public final class S3RangeSource implements RangeSource {

    private final S3Bucket bucket;
    private final String key;
    private final RequestStats stats = new RequestStats();
    private volatile long length = -1;
    private volatile boolean closed;

    private S3RangeSource(S3Bucket bucket, String key) {
        this.bucket = bucket;
        this.key = key;
    }

    /**
     * A source whose client comes from the process default {@link NcZarrOptions#shared()}.
     *
     * @see #open(URI, Map, S3ClientPool)
     */
    public static S3RangeSource open(URI uri, Map<String, String> fragment) throws IOException {
        return open(uri, fragment, NcZarrOptions.shared().s3Clients());
    }

    /**
     * A source whose client is leased from {@code pool} (and given back on {@link #close()}). No
     * request is made.
     *
     * @param uri {@code s3://bucket/key}, or an https/http S3 URL (AWS or another endpoint)
     * @param fragment the URL's fragment keys ({@code aws.profile}, {@code aws.region}, ...)
     * @throws StoreException for a URL that names no object, or settings that cannot be resolved
     */
    public static S3RangeSource open(URI uri, Map<String, String> fragment, S3ClientPool pool) throws IOException {
        Objects.requireNonNull(pool, "pool");
        S3Location loc;
        S3Settings settings;
        try {
            loc = S3Location.parse(uri);
            settings = S3Settings.resolve(loc, fragment, AwsEnvironment.system());
        } catch (IllegalArgumentException e) {
            String where = HttpRangeSource.redact(uri);
            throw new StoreException(where, null, e.getMessage(), false, e);
        }
        if (loc.key().isEmpty()) {
            throw new StoreException(loc.url(), null, "mode=bytes needs an object key, not a bucket", false, null);
        }
        return new S3RangeSource(S3Bucket.open(settings, pool), loc.key());
    }

    @Override
    public long length() throws IOException {
        long n = length;
        if (n < 0) {
            ensureOpen();
            stats.countHead();
            try {
                n = bucket.length(key);
            } catch (IOException e) {
                throw S3Failures.of(location(), e);
            }
            length = n;
        }
        return n;
    }

    @Override
    public long knownLength() {
        return length;
    }

    @Override
    public int read(long offset, byte[] buf, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, buf.length);
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
        ensureOpen();
        if (len == 0) {
            return 0;
        }
        long known = length;
        if (known >= 0 && offset >= known) {
            return -1;
        }
        stats.countGet();
        S3Bucket.RangeRead r;
        try {
            r = bucket.readRange(key, offset, buf, off, len);
        } catch (IOException e) {
            throw S3Failures.of(location(), e);
        }
        if (r.objectLength() >= 0) {
            length = r.objectLength();
        }
        if (r.bytes() > 0) {
            stats.countBytes(r.bytes());
        }
        return r.bytes();
    }

    @Override
    public String location() {
        return bucket.url(key);
    }

    @Override
    public RequestStats stats() {
        return stats;
    }

    /** Gives the client back to its pool; a second call does nothing. */
    @Override
    public void close() {
        closed = true;
        bucket.close();
    }

    @Override
    public String toString() {
        return "S3RangeSource[" + location() + "]";
    }

    private void ensureOpen() throws StoreException {
        if (closed) {
            throw new StoreException(location(), null, "closed", false, null);
        }
    }
}
