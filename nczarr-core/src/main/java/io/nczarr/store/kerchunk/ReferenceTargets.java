package io.nczarr.store.kerchunk;

import io.nczarr.error.NcZarrException;
import io.nczarr.error.Redaction;
import io.nczarr.error.StoreException;
import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.http.HttpSettings;
import io.nczarr.http.ReadPreconditions;
import io.nczarr.source.HttpSourceSettings;
import io.nczarr.source.ObjectSource;
import io.nczarr.source.ObjectSources;
import io.nczarr.source.OpenFiles;
import io.nczarr.source.Origin;
import io.nczarr.source.Trust;
import io.nczarr.store.ByteLimit;
import io.nczarr.store.InnerFailures;
import io.nczarr.store.MemoryLimits;
import io.nczarr.store.StoreResources;
import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.util.Map;

/**
 * The objects a reference file points into, read by byte range through the one door: {@link ObjectSources}
 * (the trust rules checked before anything is opened or sent, credentials only where {@link
 * Trust#parametersFor} binds them; local files through one bounded pool of {@value OpenFiles#DEFAULT_MAX}
 * channels, S3 with one shared bucket per endpoint and bucket, plain HTTP(S)). http(s) URLs on the server an
 * S3-read reference file came from, and AWS hosts, use the S3 API. Each read asks for exactly what the
 * reference says and fails when the target is shorter (never a HEAD or length request per chunk). Failures
 * are {@link StoreException}s whose detail names the target URL (redacted); the reference store adds its own
 * location and the key. Thread-safe.
 */
public final class ReferenceTargets implements Closeable {
    private final HttpSettings httpSettings;
    private final ObjectSources sources;

    /** The targets a document names ({@code origin} ends with it); also used by Icechunk's virtual chunks. */
    public ReferenceTargets(
            StoreResources resources,
            Map<String, String> parameters,
            String s3Authority,
            HttpSettings http,
            Origin origin) {
        this.httpSettings = http;
        this.sources = new ObjectSources(
                origin,
                parameters,
                ObjectSources.s3ApiOn(s3Authority),
                resources::httpClient,
                // a server that ignores Range is read whole only up to the object limit too
                HttpSourceSettings.of(new HttpSettings(
                        http.concurrency(),
                        http.maxRetries(),
                        http.retryDelay(),
                        http.timeout(),
                        Math.min(http.wholeObjectLimit(), resources.maxObjectBytes()))),
                resources.httpAuth(origin),
                resources.s3Clients(),
                resources.environment());
    }

    HttpSettings httpSettings() {
        return httpSettings;
    }

    /** Whether reads of this target are network requests (worth coalescing and running in parallel). */
    static boolean isRemote(URI target) {
        return ObjectSources.isRemote(target);
    }

    /** Exactly {@code length} bytes at {@code offset} of {@code target}. */
    public byte[] read(URI target, long offset, int length) throws IOException {
        return read(target, offset, length, null);
    }

    /** What a caller checks of the object once its bytes are read (its ETag, its modification time). */
    @FunctionalInterface
    public interface AfterRead {
        void check(ObjectSource src) throws IOException;
    }

    /** As {@link #read(URI, long, int)}, then {@code after} (when not null) checks the object that answered. */
    public byte[] read(URI target, long offset, int length, AfterRead after) throws IOException {
        return read(target, offset, length, ReadPreconditions.NONE, after);
    }

    /**
     * As {@link #read(URI, long, int, AfterRead)}, the ranged reads sent with {@code pre} where the backend can
     * ({@link ObjectSource#withPreconditions}): a changed object is then a {@link
     * io.nczarr.error.PreconditionFailedException} and nothing of it is transferred.
     */
    public byte[] read(URI target, long offset, int length, ReadPreconditions pre, AfterRead after) throws IOException {
        try (ObjectSource opened = open(target)) {
            ObjectSource src = pre.isEmpty() ? opened : opened.withPreconditions(pre);
            try {
                return readInto(src, target, offset, length, after);
            } finally {
                if (src != opened) {
                    src.close();
                }
            }
        } catch (FileNotFoundException e) {
            throw missing(target, e);
        }
    }

    private static byte[] readInto(ObjectSource src, URI target, long offset, int length, AfterRead after)
            throws IOException {
        byte[] b = new byte[length];
        int done = 0;
        while (done < length) {
            int n = src.read(offset + done, b, done, length - done);
            if (n <= 0) {
                throw pastEnd(target, offset, length, offset + done);
            }
            done += n;
        }
        if (after != null) {
            after.check(src);
        }
        return b;
    }

    /** The whole target ({@code [url]} references), refused from its size when larger than {@code limit}. */
    byte[] whole(URI target, ByteLimit limit, String dataset, String key) throws IOException {
        long max = Math.min(limit.bytes(), MemoryLimits.MAX_ARRAY_BYTES);
        try (ObjectSource src = open(target)) {
            return src.readAll(max);
        } catch (ObjectSource.TooLarge e) {
            throw limit.exceeded(dataset, key, null, "object " + name(target), e.size(), e);
        } catch (FileNotFoundException e) {
            throw missing(target, e);
        }
    }

    private ObjectSource open(URI target) throws IOException {
        try {
            return sources.open(target, null);
        } catch (UnsupportedFeatureException e) {
            throw unsupported(target);
        }
    }

    private static StoreException missing(URI target, FileNotFoundException e) {
        return new StoreException(name(target), null, "the target does not exist", false, e);
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

    /** {@code {local files opened so far, open now}} (tests). */
    long[] fileCounts() {
        return sources.fileCounts();
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

    /**
     * A target's failure as a reference store at {@code location} reports it for {@code key}: the store's
     * location and the key added, the target named once, the type kept; an interrupt as it is.
     */
    static IOException failure(String location, String key, URI target, IOException e) {
        if (e instanceof InterruptedIOException) {
            return e;
        }
        String t = name(target);
        if (e instanceof StoreException s) {
            String detail = InnerFailures.detail(location, s);
            if (!detail.contains(t)) {
                detail = "target " + t + ": " + detail;
            }
            return new StoreException(location, key, detail, s.isRetryable(), s);
        }
        if (e instanceof NcZarrException n) {
            return n.dataset() == null || !n.dataset().equals(location) || n.key() == null
                    ? n.withContext(location, key, null)
                    : n;
        }
        return new StoreException(location, key, "target " + t + ": " + e, false, e);
    }

    static String name(URI target) {
        return Redaction.redact(target);
    }

    @Override
    public void close() {
        sources.close();
    }
}
