package io.nczarr.raf;

import io.nczarr.error.StoreException;
import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Fixed-size blocks of one {@link RangeSource}, least recently used evicted first, shared by every
 * {@link BlockCacheRandomAccessFile} view of that source. Thread-safe.
 *
 * <ul>
 * <li>Block {@code i} holds bytes {@code [i * blockSize, min((i + 1) * blockSize, length))}.</li>
 * <li>A read takes the blocks it covers from the cache; the missing ones are fetched with one
 * ranged GET per run of consecutive missing blocks (at most {@code maxRequestBytes} each).</li>
 * <li>Read-ahead: when a reader's reads are sequential (each starts where the previous one ended,
 * or at most {@code min(blockSize, 64 KiB)} after it) and the last block of a read is missing, up
 * to {@code window} following blocks are appended to that same GET; the window starts at one block
 * and doubles on every sequential miss up to {@code readAheadBlocks} (and at most a quarter of the
 * cache, so read-ahead never evicts what it just fetched), and drops to zero on a jump. Read-ahead
 * never adds a request, it only makes one longer.</li>
 * <li>A read of two blocks or more ({@link #directReadBytes()}; at most a quarter of the cache)
 * goes straight from the source into the caller's array, exactly the bytes asked (split at
 * {@code maxRequestBytes}). Such reads are data (an HDF5 chunk, a contiguous variable) read once:
 * through the cache they would fetch up to two partial blocks more than asked (~20% more for 1 MB
 * chunks on 256 KiB blocks, measured) and evict the small, re-read metadata blocks.</li>
 * <li>Two threads missing the same block send one request: the second waits for the first's.</li>
 * <li>Memory: at most {@code cacheBlocks} blocks are cached; a read in progress additionally holds
 * the blocks it fetched (fewer than two plus the read-ahead window, itself at most a quarter of the
 * cache) until it returns; direct reads use only the caller's array.</li>
 * <li>A source that returns fewer bytes than the object holds is an error, never zeros.</li>
 * <li>Failures are {@link io.nczarr.error.StoreException}s naming the source's location; a thread
 * that waited for a block another thread failed to fetch gets that failure on its own stack.</li>
 * </ul>
 */
public final class BlockCache implements Closeable {
    private final RangeSource source;
    private final int blockSize;
    private final int maxBlocks;
    private final int readAheadMax;
    /** A read starting at most this far after the previous one's end still counts as sequential. */
    private final int sequentialGap;

    private final int maxRequestBlocks;
    private final int maxRequestBytes;
    private final long directReadBytes;
    /** Guarded by {@code this}; access order = LRU. */
    private final LinkedHashMap<Long, byte[]> blocks;
    /** Blocks some thread is fetching right now. Guarded by {@code this}. */
    private final Map<Long, CompletableFuture<byte[]>> inflight = new HashMap<>();

    private final AtomicLong hits = new AtomicLong();
    private final AtomicLong misses = new AtomicLong();
    private final AtomicLong readAhead = new AtomicLong();
    private final AtomicLong evictions = new AtomicLong();
    private final AtomicLong directReads = new AtomicLong();
    private int refs = 1;
    private volatile boolean closed;

    /** Counters of a cache; blocks fetched by read-ahead count in {@code readAheadBlocks} only. */
    public record Stats(
            long hits, long misses, long readAheadBlocks, long evictions, long directReads, int cachedBlocks) {}

    /**
     * Sequential-access tracking of one reader (one file pointer). Not shared between threads
     * that read different places, or read-ahead just stays off for them.
     */
    public static final class ReadState {
        private long lastStart = -1;
        private long nextPos = -1;
        private int window;

        /** Records a read at {@code pos}; whether it continues the previous one (within {@code gap}). */
        synchronized boolean begin(long pos, int len, int gap) {
            boolean seq = nextPos >= 0 && pos >= lastStart && pos <= nextPos + gap;
            lastStart = pos;
            nextPos = pos + len;
            if (!seq) {
                window = 0;
            }
            return seq;
        }

        /** The read-ahead window for a miss in a sequential stream: 1, 2, 4... up to {@code max}. */
        synchronized int grow(int max) {
            window = Math.min(max, window == 0 ? 1 : window * 2);
            return window;
        }
    }

    public BlockCache(RangeSource source, ByteRangeConfig config) {
        this.source = Objects.requireNonNull(source, "source");
        this.blockSize = config.blockSize();
        this.maxBlocks = config.cacheBlocks();
        this.readAheadMax = Math.min(config.readAheadBlocks(), config.cacheBlocks() / 4);
        this.sequentialGap = Math.min(config.blockSize(), 64 * 1024);
        this.maxRequestBytes = config.maxRequestBytes();
        this.maxRequestBlocks = Math.max(1, config.maxRequestBytes() / config.blockSize());
        this.directReadBytes = Math.max(blockSize, Math.min(2L * blockSize, config.cacheBytes() / 4));
        this.blocks = new LinkedHashMap<>(Math.min(maxBlocks, 1024) * 2, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, byte[]> eldest) {
                if (size() > maxBlocks) {
                    evictions.incrementAndGet();
                    return true;
                }
                return false;
            }
        };
    }

    public RangeSource source() {
        return source;
    }

    public int blockSize() {
        return blockSize;
    }

    /** Reads at least this long bypass the cache. */
    public long directReadBytes() {
        return directReadBytes;
    }

    public Stats stats() {
        int cached;
        synchronized (this) {
            cached = blocks.size();
        }
        return new Stats(hits.get(), misses.get(), readAhead.get(), evictions.get(), directReads.get(), cached);
    }

    /**
     * The object's length. If the source does not know it yet, block 0 is fetched: its ranged GET
     * tells the length too, so opening a file costs one request, not a HEAD and a GET.
     */
    public long length() throws IOException {
        long n = source.knownLength();
        if (n >= 0) {
            return n;
        }
        ensureOpen();
        getBlocks(0, 0, -1, null);
        n = source.knownLength();
        return n >= 0 ? n : source.length();
    }

    /**
     * Reads up to {@code len} bytes at {@code pos}: exactly {@code len} unless the object ends
     * first, {@code -1} at or past the end.
     *
     * @param state the reader's sequential-access state, or {@code null} for no read-ahead
     */
    public int read(long pos, byte[] b, int off, int len, ReadState state) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (pos < 0) {
            throw new IOException(source.location() + ": negative position " + pos);
        }
        ensureOpen();
        if (len == 0) {
            return 0;
        }
        long length = length();
        if (pos >= length) {
            return -1;
        }
        int n = (int) Math.min(len, length - pos);
        boolean sequential = state != null && state.begin(pos, n, sequentialGap);
        if (n >= directReadBytes) {
            readDirect(pos, b, off, n);
            return n;
        }
        long first = pos / blockSize;
        long last = (pos + n - 1) / blockSize;
        byte[][] got = getBlocks(first, last, length, sequential ? state : null);
        int done = 0;
        for (int i = 0; i < got.length; i++) {
            long blockStart = (first + i) * blockSize;
            int from = (int) Math.max(0, pos + done - blockStart);
            int count = Math.min(got[i].length - from, n - done);
            if (count <= 0) {
                throw new StoreException(
                        source.location(),
                        null,
                        "block " + (first + i) + " holds " + got[i].length + " bytes, too few for a read at "
                                + (pos + done),
                        false,
                        null);
            }
            System.arraycopy(got[i], from, b, off + done, count);
            done += count;
        }
        if (done != n) {
            throw new IOException(source.location() + ": internal error: copied " + done + " of " + n + " bytes");
        }
        return n;
    }

    private void readDirect(long pos, byte[] b, int off, int n) throws IOException {
        directReads.incrementAndGet();
        int done = 0;
        while (done < n) {
            int want = Math.min(maxRequestBytes, n - done);
            readExactly(pos + done, b, off + done, want);
            done += want;
        }
    }

    /** Reads exactly {@code want} bytes that the object is known to hold. */
    private void readExactly(long pos, byte[] b, int off, int want) throws IOException {
        int got = source.read(pos, b, off, want);
        if (got != want) {
            throw shortRead(got, want, pos);
        }
    }

    /**
     * Blocks {@code first..last}, fetching the missing ones.
     *
     * @param length the object length, or -1 if not known yet (only for block 0: its fetch learns it)
     * @param sequential the reader's state if this read continues its previous one, else null
     */
    private byte[][] getBlocks(long first, long last, long length, ReadState sequential) throws IOException {
        int count = (int) (last - first + 1);
        byte[][] out = new byte[count][];
        List<Long> mine = new ArrayList<>();
        Map<Long, CompletableFuture<byte[]>> claimed = new HashMap<>();
        Map<Integer, CompletableFuture<byte[]>> theirs = new HashMap<>();
        synchronized (this) {
            for (int i = 0; i < count; i++) {
                long idx = first + i;
                byte[] blk = blocks.get(idx);
                if (blk != null) {
                    out[i] = blk;
                    hits.incrementAndGet();
                    continue;
                }
                CompletableFuture<byte[]> f = inflight.get(idx);
                if (f != null) {
                    theirs.put(i, f);
                    hits.incrementAndGet();
                    continue;
                }
                f = new CompletableFuture<>();
                inflight.put(idx, f);
                claimed.put(idx, f);
                mine.add(idx);
                misses.incrementAndGet();
            }
            if (sequential != null
                    && readAheadMax > 0
                    && length > 0
                    && !mine.isEmpty()
                    && mine.get(mine.size() - 1) == last) {
                int window = sequential.grow(readAheadMax);
                long blockCount = (length + blockSize - 1) / blockSize;
                for (int k = 1; k <= window; k++) {
                    long idx = last + k;
                    if (idx >= blockCount || blocks.containsKey(idx) || inflight.containsKey(idx)) {
                        break;
                    }
                    CompletableFuture<byte[]> f = new CompletableFuture<>();
                    inflight.put(idx, f);
                    claimed.put(idx, f);
                    mine.add(idx);
                    readAhead.incrementAndGet();
                }
            }
        }
        try {
            fetchRuns(mine, claimed, first, out, length);
        } catch (IOException | RuntimeException | Error e) {
            synchronized (this) {
                for (Map.Entry<Long, CompletableFuture<byte[]>> c : claimed.entrySet()) {
                    if (!c.getValue().isDone()) {
                        inflight.remove(c.getKey(), c.getValue());
                        c.getValue().completeExceptionally(e);
                    }
                }
            }
            throw e;
        }
        for (Map.Entry<Integer, CompletableFuture<byte[]>> t : theirs.entrySet()) {
            out[t.getKey()] = await(t.getValue(), first + t.getKey());
        }
        return out;
    }

    private void fetchRuns(
            List<Long> mine, Map<Long, CompletableFuture<byte[]>> claimed, long first, byte[][] out, long length)
            throws IOException {
        int i = 0;
        while (i < mine.size()) {
            long a = mine.get(i);
            int j = i;
            while (j + 1 < mine.size() && mine.get(j + 1) == mine.get(j) + 1 && j + 1 - i < maxRequestBlocks) {
                j++;
            }
            long b = mine.get(j);
            long start = a * blockSize;
            long end = (b + 1) * blockSize;
            if (length >= 0) {
                end = Math.min(end, length);
            }
            int want = (int) (end - start);
            byte[] data = new byte[want];
            int got = source.read(start, data, 0, want);
            long len = source.knownLength();
            // with the length unknown (only block 0's first fetch) a short answer means the object ended
            int expected = len >= 0 ? (int) Math.max(0, Math.min(want, len - start)) : Math.max(got, 0);
            if (Math.max(got, 0) != expected) {
                throw shortRead(got, expected, start);
            }
            got = expected;
            for (long idx = a; idx <= b; idx++) {
                int from = (int) ((idx - a) * blockSize);
                int to = Math.min(got, from + blockSize);
                byte[] blk = a == b && to == data.length
                        ? data
                        : java.util.Arrays.copyOfRange(data, from, Math.max(from, to));
                CompletableFuture<byte[]> f = claimed.get(idx);
                synchronized (this) {
                    if (!closed) {
                        blocks.put(idx, blk);
                    }
                    inflight.remove(idx, f);
                }
                f.complete(blk);
                long slot = idx - first;
                if (slot >= 0 && slot < out.length) {
                    out[(int) slot] = blk;
                }
            }
            i = j + 1;
        }
    }

    private byte[] await(CompletableFuture<byte[]> f, long idx) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException(source.location() + ": interrupted waiting for block " + idx);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof IOException io) {
                throw StoreFailures.rethrown(source.location(), io);
            }
            throw new StoreException(source.location(), null, "reading block " + idx + " failed: " + c, false, c);
        }
    }

    /** The source answered fewer bytes than the object holds there: never zeros, and not retried. */
    private StoreException shortRead(int got, int expected, long offset) {
        return new StoreException(
                source.location(),
                null,
                "short read: " + Math.max(got, 0) + " of " + expected + " bytes at offset " + offset
                        + " (object length " + source.knownLength() + ")",
                false,
                null);
    }

    private void ensureOpen() throws StoreException {
        if (closed) {
            throw new StoreException(source.location(), null, "closed", false, null);
        }
    }

    /** One more user (a new view); pair with {@link #close()}. */
    public synchronized BlockCache retain() throws IOException {
        ensureOpen();
        refs++;
        return this;
    }

    /** Releases one user; the last one drops the blocks and closes the source. */
    @Override
    public void close() throws IOException {
        synchronized (this) {
            if (closed || --refs > 0) {
                return;
            }
            closed = true;
            blocks.clear();
        }
        source.close();
    }
}
