package io.nczarr.raf;

import io.nczarr.s3.AwsEnvironment;
import io.nczarr.s3.S3Bucket;
import io.nczarr.s3.S3ClientPool;
import io.nczarr.s3.S3Location;
import io.nczarr.s3.S3Settings;
import java.io.IOException;
import java.net.URI;
import java.util.Map;

/**
 * One S3 object read by ranged GetObject requests, with the URL forms, profiles, regions,
 * credentials and pooled clients of the S3 store ({@code io.nczarr.s3}). The length comes from
 * the first GET's {@code Content-Range}; a HEAD is made only if the length is asked first.
 */
public final class S3RangeSource implements RangeSource {

    private final S3Bucket bucket;
    private final String key;
    private final RequestStats stats = new RequestStats();
    private volatile long length = -1;

    private S3RangeSource(S3Bucket bucket, String key) {
        this.bucket = bucket;
        this.key = key;
    }

    /**
     * @param uri {@code s3://bucket/key}, or an https/http S3 URL (AWS or another endpoint)
     * @param fragment the URL's fragment keys ({@code aws.profile}, {@code aws.region}, ...)
     */
    public static S3RangeSource open(URI uri, Map<String, String> fragment) throws IOException {
        S3Location loc;
        S3Settings settings;
        try {
            loc = S3Location.parse(uri);
            settings = S3Settings.resolve(loc, fragment, AwsEnvironment.system());
        } catch (IllegalArgumentException e) {
            throw new IOException(uri + ": " + e.getMessage(), e);
        }
        if (loc.key().isEmpty()) {
            throw new IOException(loc.url() + ": mode=bytes needs an object key, not a bucket");
        }
        return new S3RangeSource(S3Bucket.open(settings, S3ClientPool.shared()), loc.key());
    }

    @Override
    public long length() throws IOException {
        long n = length;
        if (n < 0) {
            stats.countHead();
            n = bucket.length(key);
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
        if (len == 0) {
            return 0;
        }
        long known = length;
        if (known >= 0 && offset >= known) {
            return -1;
        }
        stats.countGet();
        S3Bucket.RangeRead r = bucket.readRange(key, offset, buf, off, len);
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

    @Override
    public void close() {
        bucket.close();
    }

    @Override
    public String toString() {
        return "S3RangeSource[" + location() + "]";
    }
}
