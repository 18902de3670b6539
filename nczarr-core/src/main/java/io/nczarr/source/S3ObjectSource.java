package io.nczarr.source;

import io.nczarr.error.Redaction;
import io.nczarr.error.StoreException;
import io.nczarr.http.ReadPreconditions;
import io.nczarr.http.RequestStats;
import io.nczarr.s3.AwsEnvironment;
import io.nczarr.s3.S3Bucket;
import io.nczarr.s3.S3ClientPool;
import io.nczarr.s3.S3Location;
import io.nczarr.s3.S3Settings;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One S3 object read by ranged GetObject requests, with the URL forms, profiles, regions,
 * credentials and pooled clients of the S3 store ({@code io.nczarr.s3}). The length comes from
 * the first GET's {@code Content-Range}; a HEAD is made only if the length is asked first.
 *
 * <p>{@code S3Bucket} retries within the request deadline ({@code nczarr.s3.*}); failures reach the caller as {@link StoreException}s
 * ({@link SourceFailures}), a missing object as {@link java.io.FileNotFoundException}.
 */
public final class S3ObjectSource implements ObjectSource {

    /** The detail of the failure to open a URL that names a bucket but no object. */
    public static final String NO_KEY = "the URL names a bucket, not an object (no key)";

    private final S3Bucket bucket;
    private final String key;
    private final RequestStats stats = new RequestStats();
    private volatile long length = -1;
    private volatile String etag;
    private volatile long lastModified;
    private volatile boolean closed;
    private final ReadPreconditions preconditions;

    /** Whether {@link #close} gives the bucket back (false: the bucket is shared, its owner closes it). */
    private final boolean ownsBucket;

    /** A source on a bucket someone else owns (the resolver's shared buckets); closing it leaves the bucket. */
    public S3ObjectSource(S3Bucket bucket, String key) {
        this(bucket, key, false);
    }

    private S3ObjectSource(S3Bucket bucket, String key, boolean ownsBucket) {
        this(bucket, key, ownsBucket, ReadPreconditions.NONE);
    }

    private S3ObjectSource(S3Bucket bucket, String key, boolean ownsBucket, ReadPreconditions preconditions) {
        this.preconditions = preconditions;
        this.bucket = bucket;
        this.key = key;
        this.ownsBucket = ownsBucket;
    }

    /**
     * A source whose client is leased from {@code pool} (and given back on {@link #close()}). No
     * request is made.
     *
     * @param uri {@code s3://bucket/key}, or an https/http S3 URL (AWS or another endpoint)
     * @param fragment the URL's fragment keys ({@code aws.profile}, {@code aws.region}, ...)
     * @throws StoreException for a URL that names no object, or settings that cannot be resolved
     */
    public static S3ObjectSource open(URI uri, Map<String, String> fragment, S3ClientPool pool) throws IOException {
        return open(uri, fragment, pool, AwsEnvironment.system());
    }

    /** As {@link #open(URI, Map, S3ClientPool)}, with the settings read from {@code environment}. */
    public static S3ObjectSource open(
            URI uri, Map<String, String> fragment, S3ClientPool pool, AwsEnvironment environment) throws IOException {
        Objects.requireNonNull(pool, "pool");
        S3Location loc;
        S3Settings settings;
        try {
            loc = S3Location.parse(uri);
            settings = S3Settings.resolve(loc, fragment, environment);
        } catch (IllegalArgumentException e) {
            String where = Redaction.redact(uri);
            throw new StoreException(where, null, e.getMessage(), false, e);
        }
        if (loc.key().isEmpty()) {
            throw new StoreException(loc.url(), null, NO_KEY, false, null);
        }
        return new S3ObjectSource(S3Bucket.open(settings, pool), loc.key(), true);
    }

    /**
     * A source of the same object (on the same bucket, which it leaves open) whose ranged GETs carry {@code
     * preconditions}: a changed object answers 412, a {@link io.nczarr.error.PreconditionFailedException}.
     */
    @Override
    public S3ObjectSource withPreconditions(ReadPreconditions preconditions) {
        return new S3ObjectSource(bucket, key, false, Objects.requireNonNull(preconditions, "preconditions"));
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
                throw SourceFailures.of(location(), e);
            }
            length = n;
        }
        return n;
    }

    /** The ETag of the last ranged answer, or null. */
    @Override
    public String etag() {
        return etag;
    }

    /** The Last-Modified of the last ranged answer in ms, or 0. */
    @Override
    public long lastModified() {
        return lastModified;
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
            r = bucket.readRange(key, offset, buf, off, len, preconditions);
        } catch (IOException e) {
            throw SourceFailures.of(location(), e);
        }
        if (r.objectLength() >= 0) {
            length = r.objectLength();
        }
        if (r.eTag() != null) {
            etag = r.eTag();
        }
        if (r.lastModified() > 0) {
            lastModified = r.lastModified();
        }
        if (r.bytes() > 0) {
            stats.countBytes(r.bytes());
        }
        return r.bytes();
    }

    /** The whole object in one GET, refused from its {@code Content-Length} when larger than {@code maxBytes}. */
    @Override
    public byte[] readAll(long maxBytes) throws IOException {
        ensureOpen();
        stats.countGet();
        Optional<byte[]> b;
        try {
            b = bucket.get(key, Math.max(1, maxBytes));
        } catch (S3Bucket.ObjectTooLarge e) {
            throw new TooLarge(location(), e.size(), maxBytes);
        } catch (IOException e) {
            throw SourceFailures.of(location(), e);
        }
        if (b.isEmpty()) {
            throw SourceFailures.missing(location(), "no such object", null);
        }
        stats.countBytes(b.get().length);
        length = b.get().length;
        return b.get();
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
        if (ownsBucket) {
            bucket.close();
        }
    }

    @Override
    public String toString() {
        return "S3ObjectSource[" + location() + "]";
    }

    private void ensureOpen() throws StoreException {
        if (closed) {
            throw new StoreException(location(), null, "closed", false, null);
        }
    }
}
