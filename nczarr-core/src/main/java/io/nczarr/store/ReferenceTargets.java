package io.nczarr.store;

import io.nczarr.error.Redaction;
import io.nczarr.error.StoreException;
import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.http.HttpObjects;
import io.nczarr.http.HttpSettings;
import io.nczarr.s3.S3Bucket;
import io.nczarr.s3.S3Location;
import io.nczarr.s3.S3Settings;
import io.nczarr.url.DatasetUrl;
import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The files a reference file points into, read by byte range with the code of their kind: local files
 * ({@code file:}, one open channel each), S3 ({@code s3://}, AWS hosts, and http(s) URLs on the server an
 * S3-read reference file came from: {@link S3Bucket} with the URL's profile and region, one bucket per
 * endpoint and bucket), plain HTTP(S) ({@link HttpObjects}). Each read asks for exactly what the reference
 * says and fails when the target is shorter (never a HEAD or length request per chunk). Failures are {@link
 * StoreException}s whose detail names the target URL (redacted); the reference store adds its own location
 * and the key. Thread-safe.
 */
final class ReferenceTargets implements Closeable {
    private final StoreResources resources;
    private final Map<String, String> parameters;
    /** {@code scheme://authority} of an S3-read reference file: http(s) targets there use the S3 API. */
    private final String s3Authority;

    private final HttpObjects http;
    private final Map<Path, FileChannel> files = new ConcurrentHashMap<>();
    /** Guarded by itself. */
    private final Map<String, S3Bucket> buckets = new java.util.HashMap<>();

    private volatile boolean closed;

    ReferenceTargets(StoreResources resources, Map<String, String> parameters, String s3Authority, HttpSettings http) {
        this.resources = resources;
        this.parameters = parameters;
        this.s3Authority = s3Authority;
        this.http = new HttpObjects(resources.httpClient(), http);
    }

    HttpSettings httpSettings() {
        return http.settings();
    }

    /** Whether reads of this target are network requests (worth coalescing and running in parallel). */
    static boolean isRemote(URI target) {
        return !"file".equalsIgnoreCase(target.getScheme());
    }

    /** Exactly {@code length} bytes at {@code offset} of {@code target}. */
    byte[] read(URI target, long offset, int length) throws IOException {
        ensureOpen();
        String scheme = target.getScheme() == null ? "" : target.getScheme().toLowerCase(Locale.ROOT);
        Optional<byte[]> b;
        switch (kind(target, scheme)) {
            case "file":
                return readFile(target, offset, length);
            case "s3": {
                S3Location loc = s3(target);
                b = bucket(target, loc).getRange(loc.key(), offset, length);
                break;
            }
            case "http":
                b = http.getRange(
                        target,
                        offset,
                        length,
                        Math.min(http.settings().wholeObjectLimit(), resources.maxObjectBytes()));
                break;
            default:
                throw unsupported(target);
        }
        if (b.isEmpty()) {
            throw new StoreException(name(target), null, "the target does not exist", false, null);
        }
        if (b.get().length != length) {
            throw pastEnd(target, offset, length, offset + b.get().length);
        }
        return b.get();
    }

    /** The whole target ({@code [url]} references), refused from its size when larger than {@code limit}. */
    byte[] whole(URI target, ByteLimit limit, String dataset, String key) throws IOException {
        ensureOpen();
        String scheme = target.getScheme() == null ? "" : target.getScheme().toLowerCase(Locale.ROOT);
        long max = Math.min(limit.bytes(), MemoryLimits.MAX_ARRAY_BYTES);
        Optional<byte[]> b;
        switch (kind(target, scheme)) {
            case "file": {
                FileChannel ch = channel(target);
                long size = ch.size();
                limit.checkArray(dataset, key, null, "object " + name(target), size);
                return readFile(target, 0, (int) size);
            }
            case "s3": {
                S3Location loc = s3(target);
                try {
                    b = bucket(target, loc).get(loc.key(), max);
                } catch (S3Bucket.ObjectTooLarge e) {
                    throw limit.exceeded(dataset, key, null, "object " + name(target), e.size(), e);
                }
                break;
            }
            case "http":
                try {
                    b = http.get(target, max);
                } catch (HttpObjects.TooLarge e) {
                    throw limit.exceeded(dataset, key, null, "object " + name(target), e.size(), e);
                }
                break;
            default:
                throw unsupported(target);
        }
        if (b.isEmpty()) {
            throw new StoreException(name(target), null, "the target does not exist", false, null);
        }
        return b.get();
    }

    private String kind(URI target, String scheme) {
        switch (scheme) {
            case "file":
                return "file";
            case "s3":
                return "s3";
            case "http":
            case "https": {
                String authority = scheme + "://" + target.getRawAuthority();
                if (authority.equalsIgnoreCase(s3Authority) || DatasetUrl.isAwsS3ApiHost(target.getHost())) {
                    return "s3";
                }
                return "http";
            }
            default:
                return "?";
        }
    }

    private static UnsupportedFeatureException unsupported(URI target) {
        return new UnsupportedFeatureException(
                name(target),
                null,
                null,
                "target URL scheme " + target.getScheme(),
                "reference targets must be file:, s3://, http:// or https:// URLs (or relative to the reference file)",
                null);
    }

    private byte[] readFile(URI target, long offset, int length) throws IOException {
        FileChannel ch = channel(target);
        long size = ch.size();
        if (offset > size - length) {
            throw pastEnd(target, offset, length, size);
        }
        byte[] b = new byte[length];
        ByteBuffer buf = ByteBuffer.wrap(b);
        long at = offset;
        while (buf.hasRemaining()) {
            int n = ch.read(buf, at);
            if (n < 0) {
                throw pastEnd(target, offset, length, at);
            }
            at += n;
        }
        return b;
    }

    private FileChannel channel(URI target) throws IOException {
        Path p;
        try {
            p = Paths.get(target);
        } catch (IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
            throw new StoreException(name(target), null, "not a local file URL: " + e.getMessage(), false, null);
        }
        FileChannel ch = files.get(p);
        if (ch != null) {
            return ch;
        }
        try {
            FileChannel opened = FileChannel.open(p, StandardOpenOption.READ);
            FileChannel had = files.putIfAbsent(p, opened);
            if (had != null) {
                opened.close();
                return had;
            }
            if (closed) {
                close();
                ensureOpen();
            }
            return opened;
        } catch (NoSuchFileException e) {
            throw new StoreException(name(target), null, "the target file does not exist", false, null);
        } catch (IOException e) {
            throw new StoreException(name(target), null, "cannot read the target: " + e, false, e);
        }
    }

    private static S3Location s3(URI target) throws StoreException {
        try {
            return S3Location.parse(target);
        } catch (IllegalArgumentException e) {
            throw new StoreException(name(target), null, e.getMessage(), false, e);
        }
    }

    private S3Bucket bucket(URI target, S3Location loc) throws IOException {
        String id = loc.endpoint() + "|" + loc.bucket() + "|" + loc.pathStyle() + "|" + loc.hostRegion();
        synchronized (buckets) {
            S3Bucket b = buckets.get(id);
            if (b == null) {
                ensureOpen();
                S3Settings settings;
                try {
                    settings = S3Settings.resolve(loc, parameters, resources.environment());
                } catch (IllegalArgumentException e) {
                    throw new StoreException(name(target), null, e.getMessage(), false, e);
                }
                b = S3Bucket.open(settings, resources.s3Clients());
                buckets.put(id, b);
            }
            return b;
        }
    }

    private static StoreException pastEnd(URI target, long offset, int length, long end) {
        return new StoreException(
                name(target),
                null,
                "the reference's range " + offset + "+" + length + " runs past the end of the target (" + end
                        + " bytes)",
                false,
                null);
    }

    static String name(URI target) {
        return Redaction.redact(target);
    }

    private void ensureOpen() throws StoreException {
        if (closed) {
            throw new StoreException("reference targets closed", false);
        }
    }

    @Override
    public void close() {
        closed = true;
        for (FileChannel ch : files.values()) {
            try {
                ch.close();
            } catch (IOException e) {
                // read-only: nothing is lost
            }
        }
        files.clear();
        synchronized (buckets) {
            for (S3Bucket b : buckets.values()) {
                b.close();
            }
            buckets.clear();
        }
    }
}
