package io.nczarr.raf.testing;

import io.nczarr.http.RequestStats;
import io.nczarr.raf.RangeSource;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * An in-memory {@link RangeSource} for fast contract tests. It can misbehave: report a length
 * longer than the bytes it has ({@code claimedLength}), so reads past its real data come back
 * short, as a truncated object or a broken backend would.
 */
public final class MemoryRangeSource implements RangeSource {
    private final byte[] data;
    private final long claimedLength;
    private final RequestStats stats = new RequestStats();
    private final ConcurrentLinkedQueue<long[]> requests = new ConcurrentLinkedQueue<>();
    private volatile boolean lengthKnown;
    private volatile boolean closed;
    private volatile long delayMs;

    public MemoryRangeSource(byte[] data) {
        this(data, data.length);
    }

    public MemoryRangeSource(byte[] data, long claimedLength) {
        this.data = data;
        this.claimedLength = claimedLength;
    }

    /** Sleep per request, to widen race windows in concurrency tests. */
    public MemoryRangeSource delayMs(long ms) {
        delayMs = ms;
        return this;
    }

    @Override
    public long length() {
        if (!lengthKnown) {
            stats.countHead();
            lengthKnown = true;
        }
        return claimedLength;
    }

    @Override
    public long knownLength() {
        return lengthKnown ? claimedLength : -1;
    }

    @Override
    public int read(long offset, byte[] buf, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, buf.length);
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
        if (closed) {
            throw new IOException("closed");
        }
        stats.countGet();
        requests.add(new long[] {offset, len});
        lengthKnown = true; // as a ranged GET's Content-Range tells it
        if (delayMs > 0) {
            try {
                Thread.sleep(delayMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (len == 0) {
            return 0;
        }
        if (offset >= claimedLength) {
            return -1;
        }
        int want = (int) Math.min(len, claimedLength - offset);
        // a lying source: only the bytes it really has
        int n = (int) Math.max(0, Math.min(want, data.length - offset));
        if (n > 0) {
            System.arraycopy(data, (int) offset, buf, off, n);
        }
        stats.countBytes(n);
        return n == 0 ? -1 : n;
    }

    /** The (offset, length) of every read request, in order. */
    public java.util.List<long[]> requests() {
        return new java.util.ArrayList<>(requests);
    }

    @Override
    public String location() {
        return "mem://test";
    }

    @Override
    public RequestStats stats() {
        return stats;
    }

    public boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        closed = true;
    }
}
