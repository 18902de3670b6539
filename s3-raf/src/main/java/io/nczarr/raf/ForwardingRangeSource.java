package io.nczarr.raf;

import io.nczarr.http.RequestStats;
import io.nczarr.source.ObjectSource;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A {@link RangeSource} that is one of the core's {@link ObjectSource}s under this module's name: every read,
 * length and validator is the core source's, so the adapters only choose settings and wording.
 */
abstract class ForwardingRangeSource implements RangeSource {
    private final ObjectSource source;

    ForwardingRangeSource(ObjectSource source) {
        this.source = source;
    }

    @Override
    public final long length() throws IOException {
        return source.length();
    }

    @Override
    public final long knownLength() {
        return source.knownLength();
    }

    @Override
    public final int read(long offset, byte[] buf, int off, int len) throws IOException {
        return source.read(offset, buf, off, len);
    }

    @Override
    public final String location() {
        return source.location();
    }

    @Override
    public final long lastModified() {
        return source.lastModified();
    }

    @Override
    public final String etag() {
        return source.etag();
    }

    @Override
    public final RequestStats stats() {
        return source.stats();
    }

    /** Releases the core source (for S3, gives the client back to its pool); a second call does nothing. */
    @Override
    public final void close() {
        try {
            source.close();
        } catch (IOException e) {
            // the HTTP and S3 sources release without I/O; kept unchecked so callers need no catch
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + location() + "]";
    }
}
