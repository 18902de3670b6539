package io.nczarr.store;

import io.nczarr.s3.S3Bucket;
import io.nczarr.s3.S3Location;
import io.nczarr.s3.S3Settings;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * A dataset under a key prefix of an S3 bucket (AWS or any S3-compatible server). Each
 * {@link #get} is one GET (a 404 is a missing key, never a HEAD first), {@link #list} is LIST
 * with delimiter {@code /}, needed only for pure Zarr without {@code .zmetadata}. The client
 * comes from the shared {@link io.nczarr.s3.S3ClientPool} and is released on {@link #close()}.
 *
 * <p>Failures are {@link StoreException}s naming the dataset URL (never a credential) and the
 * key; server errors (5xx, 429, 408), timeouts and broken connections are retryable, refusals
 * (403, a missing bucket) and oversized objects are not. They come after the bucket's own retries,
 * within {@code nczarr.s3.maxAttempts} and the deadlines of {@link io.nczarr.s3.S3Tuning}, so a
 * caller that retries a retryable one starts a new round of attempts.
 */
public final class S3Store implements Store {

    private final S3Bucket bucket;
    private final S3Location root;
    private final String location;
    private final ByteLimit objectLimit;

    /**
     * The store of a bucket the resolver opened ({@link io.nczarr.source.StoreSources}: credentials and client
     * decided there); its dataset root is the bucket's location. Closing the store gives the lease back.
     */
    public S3Store(S3Bucket bucket, String location, long maxObjectBytes) {
        this.bucket = bucket;
        this.root = bucket.settings().location();
        this.location = location;
        this.objectLimit = new ByteLimit(MemoryLimits.MAX_OBJECT_BYTES, maxObjectBytes);
    }

    public S3Settings settings() {
        return bucket.settings();
    }

    @Override
    public String location() {
        return location;
    }

    @Override
    public Optional<byte[]> get(String key) throws IOException {
        return get(key, objectLimit);
    }

    /** One GET, refused from the {@code Content-Length} before the body is read when it is over {@code limit}. */
    @Override
    public Optional<byte[]> get(String key, ByteLimit limit) throws IOException {
        String objectKey = root.resolve(StoreKeys.check(key));
        try {
            return bucket.get(objectKey, Math.min(limit.bytes(), MemoryLimits.MAX_ARRAY_BYTES));
        } catch (S3Bucket.ObjectTooLarge e) {
            throw limit.exceeded(location, key, null, "object", e.size(), e);
        } catch (IOException e) {
            throw InnerFailures.of(location, key, e);
        }
    }

    /** As {@link #get(String)}, the body read straight into {@code buffers}' buffer. */
    @Override
    public Optional<ByteBuffer> get(String key, IntFunction<ByteBuffer> buffers) throws IOException {
        String objectKey = root.resolve(StoreKeys.check(key));
        try {
            return bucket.get(objectKey, Math.min(objectLimit.bytes(), MemoryLimits.MAX_ARRAY_BYTES), buffers);
        } catch (S3Bucket.ObjectTooLarge e) {
            throw objectLimit.exceeded(location, key, null, "object", e.size(), e);
        } catch (IOException e) {
            throw InnerFailures.of(location, key, e);
        }
    }

    @Override
    public Optional<byte[]> getRange(String key, long offset, int length) throws IOException {
        StoreLimits.checkRange(offset, length);
        String objectKey = root.resolve(StoreKeys.check(key));
        try {
            return bucket.getRange(objectKey, offset, length);
        } catch (IOException e) {
            throw InnerFailures.of(location, key, e);
        }
    }

    @Override
    public Optional<byte[]> getSuffix(String key, int length) throws IOException {
        StoreLimits.checkRange(0, length);
        String objectKey = root.resolve(StoreKeys.check(key));
        try {
            return bucket.getSuffix(objectKey, length);
        } catch (IOException e) {
            throw InnerFailures.of(location, key, e);
        }
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        String key = StoreKeys.check(StoreKeys.trim(prefix));
        String p = root.resolve(key);
        try {
            return bucket.list(p.isEmpty() ? "" : p + "/");
        } catch (IOException e) {
            throw InnerFailures.of(location, key, e);
        }
    }

    @Override
    public boolean listingIsCheap() {
        return false;
    }

    /** Requests in flight per read ({@code nczarr.s3.concurrency}, default 64). */
    @Override
    public int preferredConcurrency() {
        return bucket.settings().tuning().concurrency();
    }

    @Override
    public void close() {
        bucket.close();
    }

    @Override
    public String toString() {
        return "S3Store[" + location + ", " + bucket.settings().describe() + "]";
    }
}
