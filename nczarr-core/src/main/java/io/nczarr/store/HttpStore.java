package io.nczarr.store;

import io.nczarr.error.Redaction;
import io.nczarr.error.StoreException;
import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.http.HttpObjects;
import io.nczarr.http.RequestStats;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Optional;

/**
 * A Zarr/NCZarr dataset below a URL of a plain HTTP(S) server (THREDDS {@code fileServer}, nginx, a CDN, a
 * bucket's website endpoint): key {@code a/b} is {@code GET <root>/a/b}. Each read is one GET ({@link
 * HttpObjects}): 404/410 = a missing key, 401/403/5xx = a {@link StoreException} naming the object's URL
 * (redacted); ranges and suffixes (v3 shard indexes) are {@code Range} requests.
 *
 * <p>A plain HTTP server cannot list: {@link #list} fails with a message saying so. NCZarr (whose metadata
 * lists its children), Zarr v2 with {@code .zmetadata} and Zarr v3 with consolidated metadata in the root
 * {@code zarr.json} open without listing.
 */
public final class HttpStore implements Store {

    private final URI root;
    private final String location;
    private final HttpObjects http;
    private final ByteLimit objectLimit;

    /** The store of a folder the resolver gave ({@link io.nczarr.source.StoreSources}), read with {@code http}. */
    public HttpStore(URI root, HttpObjects http, long maxObjectBytes) {
        String s = root.toString();
        this.root = URI.create(s.endsWith("/") ? s : s + "/");
        this.location = Redaction.redact(root);
        this.http = http;
        this.objectLimit = new ByteLimit(MemoryLimits.MAX_OBJECT_BYTES, maxObjectBytes);
    }

    @Override
    public String location() {
        return location;
    }

    /** GETs, bytes and retries of this store so far. */
    public RequestStats stats() {
        return http.stats();
    }

    private URI uriOf(String key) {
        // keys are checked relative names; each segment is percent-encoded as a path segment
        StringBuilder b = new StringBuilder(root.toString());
        String[] parts = StoreKeys.check(key).split("/");
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) {
                b.append('/');
            }
            b.append(encode(parts[i]));
        }
        return URI.create(b.toString());
    }

    private static String encode(String segment) {
        StringBuilder b = new StringBuilder();
        for (byte c : segment.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            int ch = c & 0xff;
            if ((ch >= 'a' && ch <= 'z')
                    || (ch >= 'A' && ch <= 'Z')
                    || (ch >= '0' && ch <= '9')
                    || "-._~".indexOf(ch) >= 0) {
                b.append((char) ch);
            } else {
                b.append('%')
                        .append(Character.toUpperCase(Character.forDigit(ch >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(ch & 15, 16)));
            }
        }
        return b.toString();
    }

    @Override
    public Optional<byte[]> get(String key) throws IOException {
        return get(key, objectLimit);
    }

    @Override
    public Optional<byte[]> get(String key, ByteLimit limit) throws IOException {
        URI u = uriOf(key);
        try {
            return http.get(u, Math.min(limit.bytes(), MemoryLimits.MAX_ARRAY_BYTES));
        } catch (HttpObjects.TooLarge e) {
            throw limit.exceeded(location, key, null, "object", e.size(), e);
        } catch (IOException e) {
            throw InnerFailures.of(location, key, e);
        }
    }

    @Override
    public Optional<byte[]> getRange(String key, long offset, int length) throws IOException {
        StoreLimits.checkRange(offset, length);
        URI u = uriOf(key);
        try {
            return http.getRange(u, offset, length, wholeLimit());
        } catch (IOException e) {
            throw InnerFailures.of(location, key, e);
        }
    }

    @Override
    public Optional<byte[]> getSuffix(String key, int length) throws IOException {
        StoreLimits.checkRange(0, length);
        URI u = uriOf(key);
        try {
            return http.getSuffix(u, length, wholeLimit());
        } catch (IOException e) {
            throw InnerFailures.of(location, key, e);
        }
    }

    private long wholeLimit() {
        return Math.min(http.settings().wholeObjectLimit(), objectLimit.bytes());
    }

    /** A plain HTTP server has no listing: says so, and how to make a store that needs none. */
    @Override
    public List<String> list(String prefix) throws IOException {
        StoreKeys.check(StoreKeys.trim(prefix));
        throw new UnsupportedFeatureException(
                location,
                prefix.isEmpty() ? null : prefix,
                null,
                "listing over plain HTTP",
                "a plain HTTP server cannot list the store, and this Zarr dataset has no consolidated metadata"
                        + " (.zmetadata for Zarr v2, consolidated_metadata in the root zarr.json for v3); write it"
                        + " with zarr.consolidate_metadata(store) in Python, or serve the store through S3 (mode=s3)",
                null);
    }

    @Override
    public boolean listingIsCheap() {
        return false;
    }

    @Override
    public int preferredConcurrency() {
        return http.settings().concurrency();
    }

    @Override
    public void close() {
        // the client is the caller's
    }

    @Override
    public String toString() {
        return "HttpStore[" + location + "]";
    }
}
