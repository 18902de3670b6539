package io.nczarr.raf;

import io.nczarr.http.RequestStats;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import ucar.unidata.io.RandomAccessFile;

/**
 * A netCDF-Java {@link RandomAccessFile} over a {@link RangeSource}, through a {@link BlockCache}:
 * what {@code #mode=bytes} hands to cdm's own netCDF-3 and HDF5 readers via
 * {@code NetcdfFile.open(raf, location, null, null)}.
 *
 * <p>Like every cdm {@code RandomAccessFile}, one instance has one file pointer and one small
 * read buffer (the base class's), so one instance must not be used by several threads at once.
 * The block cache and the source behind it are thread-safe: concurrent readers use
 * {@link #duplicate()} (a view with its own pointer sharing the cache) or the positional
 * {@link #readAt}, which is safe on a shared instance.
 *
 * <p>{@link #open} fetches block 0 at once, so a missing object, a refused request or a server
 * that ignores ranges fails the open, and the length is known from that first response.
 */
public class BlockCacheRandomAccessFile extends RandomAccessFile {
    /** The base class's buffer in front of the cache: small reads (headers) are served from it. */
    private static final int MAX_BASE_BUFFER = 32 * 1024;
    /** Chunk of {@link #readToByteChannel}. */
    private static final int CHANNEL_CHUNK = 1024 * 1024;

    private final BlockCache cache;
    private final BlockCache.ReadState state = new BlockCache.ReadState();
    private volatile boolean closed;

    private BlockCacheRandomAccessFile(BlockCache cache, int bufferSize) {
        super(bufferSize);
        this.cache = cache;
        this.location = cache.source().location();
    }

    /**
     * Opens a file over {@code source}; closing the file closes the source.
     *
     * @throws IOException if the first ranged read fails (the source is closed then)
     */
    public static BlockCacheRandomAccessFile open(RangeSource source, ByteRangeConfig config) throws IOException {
        BlockCache cache = new BlockCache(source, config);
        try {
            cache.length();
            return new BlockCacheRandomAccessFile(cache, baseBufferSize(config));
        } catch (IOException | RuntimeException e) {
            cache.close();
            throw e;
        }
    }

    private static int baseBufferSize(ByteRangeConfig config) {
        return Math.max(1, Math.min(config.blockSize(), MAX_BASE_BUFFER));
    }

    /** A new view with its own file pointer and read buffer, sharing this file's cache and source. */
    public BlockCacheRandomAccessFile duplicate() throws IOException {
        ensureOpen();
        BlockCacheRandomAccessFile d = new BlockCacheRandomAccessFile(cache.retain(), getBufferSize());
        d.order(bigEndian ? BIG_ENDIAN : LITTLE_ENDIAN);
        return d;
    }

    @Override
    protected int read_(long pos, byte[] b, int offset, int len) throws IOException {
        ensureOpen();
        return cache.read(pos, b, offset, len, state);
    }

    /**
     * Positional read that neither uses nor moves the file pointer; safe to call from several
     * threads on one instance.
     *
     * @return {@code len} bytes, fewer only if the object ends first; {@code -1} at or past the end
     */
    public int readAt(long pos, byte[] b, int off, int len) throws IOException {
        ensureOpen();
        return cache.read(pos, b, off, len, null);
    }

    @Override
    public long length() throws IOException {
        return cache.length();
    }

    /** Copies {@code nbytes} at {@code offset} to {@code dest}; fewer only if the object ends first. */
    @Override
    public long readToByteChannel(WritableByteChannel dest, long offset, long nbytes) throws IOException {
        ensureOpen();
        if (nbytes <= 0) {
            return 0;
        }
        byte[] tmp = new byte[(int) Math.min(nbytes, CHANNEL_CHUNK)];
        long done = 0;
        while (done < nbytes) {
            int want = (int) Math.min(tmp.length, nbytes - done);
            int n = cache.read(offset + done, tmp, 0, want, state);
            if (n <= 0) {
                break;
            }
            ByteBuffer bb = ByteBuffer.wrap(tmp, 0, n);
            while (bb.hasRemaining()) {
                dest.write(bb);
            }
            done += n;
            if (n < want) {
                break;
            }
        }
        return done;
    }

    @Override
    public long getLastModified() {
        return cache.source().lastModified();
    }

    /** Request counters of the source (shared by all views). */
    public RequestStats stats() {
        return cache.source().stats();
    }

    /** Cache counters (shared by all views). */
    public BlockCache.Stats cacheStats() {
        return cache.stats();
    }

    public RangeSource source() {
        return cache.source();
    }

    @Override
    public synchronized void close() throws IOException {
        if (fileCache != null) {
            super.close(); // handed back to cdm's file cache: stays open
            return;
        }
        if (closed) {
            return;
        }
        closed = true;
        try {
            cache.close();
        } finally {
            super.close();
        }
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException(location + ": closed");
        }
    }

    @Override
    public String toString() {
        return "BlockCacheRandomAccessFile[" + location + "]";
    }
}
