package io.nczarr.store;

import io.nczarr.error.Redaction;
import io.nczarr.error.StoreException;
import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.http.HttpObjects;
import io.nczarr.http.HttpSettings;
import io.nczarr.s3.S3Bucket;
import io.nczarr.s3.S3Location;
import io.nczarr.s3.S3Settings;
import io.nczarr.source.LocalTargets;
import io.nczarr.source.Origin;
import io.nczarr.source.Trust;
import io.nczarr.url.DatasetUrl;
import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The files a reference file points into, read by byte range with the code of their kind: local files
 * ({@code file:}, at most {@value OpenFiles#DEFAULT_MAX} channels open, least recently used closed first), S3 ({@code s3://}, AWS hosts, and http(s) URLs on the server an
 * S3-read reference file came from: {@link S3Bucket} with the URL's profile and region, one bucket per
 * endpoint and bucket), plain HTTP(S) ({@link HttpObjects}). Each read asks for exactly what the reference
 * says and fails when the target is shorter (never a HEAD or length request per chunk). Failures are {@link
 * StoreException}s whose detail names the target URL (redacted); the reference store adds its own location
 * and the key. Every target passes the trust rules ({@link Trust#check}, once per distinct target) before
 * anything is opened or sent, and S3 targets are signed with the user's credentials only where {@link
 * Trust#parametersFor} binds them. Thread-safe.
 */
final class ReferenceTargets implements Closeable {
    private final StoreResources resources;
    private final Map<String, String> parameters;
    /** {@code scheme://authority} of an S3-read reference file: http(s) targets there use the S3 API. */
    private final String s3Authority;

    /** The document chain the targets are named in (the reference file last). */
    private final Origin origin;

    private final HttpObjects http;
    private final OpenFiles files = new OpenFiles(OpenFiles.DEFAULT_MAX);
    /** Targets that passed the trust rules. */
    private final Map<URI, Boolean> trusted = new ConcurrentHashMap<>();
    /** Guarded by itself. */
    private final Map<String, S3Bucket> buckets = new java.util.HashMap<>();

    private volatile boolean closed;

    ReferenceTargets(
            StoreResources resources,
            Map<String, String> parameters,
            String s3Authority,
            HttpSettings http,
            Origin origin) {
        this.resources = resources;
        this.origin = origin;
        this.parameters = parameters;
        this.s3Authority = s3Authority;
        this.http = resources.httpObjects(http, origin);
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
        trust(target);
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
        trust(target);
        String scheme = target.getScheme() == null ? "" : target.getScheme().toLowerCase(Locale.ROOT);
        long max = Math.min(limit.bytes(), MemoryLimits.MAX_ARRAY_BYTES);
        Optional<byte[]> b;
        switch (kind(target, scheme)) {
            case "file": {
                long size;
                try (OpenFiles.Lease f = lease(target)) {
                    size = f.size();
                }
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

    /** The trust rules for a target, checked once per distinct target. */
    private void trust(URI target) throws IOException {
        if (!trusted.containsKey(target)) {
            Trust.check(origin, target, null, LocalTargets.Kind.REGULAR_FILE);
            trusted.put(target, Boolean.TRUE);
        }
    }

    private static UnsupportedFeatureException unsupported(URI target) {
        return new UnsupportedFeatureException(
                null,
                null,
                null,
                "target URL scheme " + target.getScheme(),
                "the target " + name(target) + " has the URL scheme " + target.getScheme()
                        + "; reference targets must be file:, s3://, http:// or https:// URLs (or relative to the"
                        + " reference file)",
                null);
    }

    private byte[] readFile(URI target, long offset, int length) throws IOException {
        try (OpenFiles.Lease f = lease(target)) {
            long size = f.size();
            if (offset > size - length) {
                throw pastEnd(target, offset, length, size);
            }
            byte[] b = new byte[length];
            if (!f.read(ByteBuffer.wrap(b), offset)) {
                throw pastEnd(target, offset, length, f.size());
            }
            return b;
        }
    }

    private OpenFiles.Lease lease(URI target) throws IOException {
        Path p = LocalTargets.pathOf(target);
        if (p == null) {
            throw new StoreException(name(target), null, "not a local file URL", false, null);
        }
        // checked again here (not only once in trust()): the file may have been replaced by a FIFO since
        String why = LocalTargets.refusal(p, LocalTargets.Kind.REGULAR_FILE);
        if (why != null) {
            throw new StoreException(name(target), null, "the target is " + why, false, null);
        }
        try {
            return files.lease(p);
        } catch (NoSuchFileException e) {
            throw new StoreException(name(target), null, "the target file does not exist", false, null);
        } catch (IOException e) {
            throw new StoreException(name(target), null, "cannot read the target: " + e, false, e);
        }
    }

    /** {@code {local files opened so far, open now}} (tests). */
    long[] fileCounts() {
        return files.counts();
    }

    private static S3Location s3(URI target) throws StoreException {
        try {
            return S3Location.parse(target);
        } catch (IllegalArgumentException e) {
            throw new StoreException(name(target), null, e.getMessage(), false, e);
        }
    }

    private S3Bucket bucket(URI target, S3Location loc) throws IOException {
        String id = loc.endpoint() + "|" + loc.bucket() + "|" + loc.pathStyle() + "|" + loc.hostRegion() + "|"
                + Trust.credentialsBound(origin, target);
        synchronized (buckets) {
            S3Bucket b = buckets.get(id);
            if (b == null) {
                ensureOpen();
                S3Settings settings;
                try {
                    settings = S3Settings.resolve(
                            loc, Trust.parametersFor(origin, target, parameters, true), resources.environment());
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
        files.close();
        synchronized (buckets) {
            for (S3Bucket b : buckets.values()) {
                b.close();
            }
            buckets.clear();
        }
    }
}
