package io.nczarr.codec;

import com.github.luben.zstd.ZstdDecompressCtx;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * zstd decompression contexts reused across chunks. {@code Zstd.decompressByteArray} creates and frees a native
 * context per call (ZSTD_createDCtx: about 100 KiB allocated and set up), which took 14 % of the CPU of a read of
 * 128 × 128 inner chunks. A context is used by one thread at a time ({@link #take}, then {@link #give}); at most
 * {@link #MAX_IDLE} idle ones are kept (zstd-jni contexts have no cleaner, so none may be left to the GC).
 */
final class ZstdContexts {
    static final int MAX_IDLE = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
    private static final ConcurrentLinkedDeque<ZstdDecompressCtx> IDLE = new ConcurrentLinkedDeque<>();
    private static final AtomicInteger IDLE_COUNT = new AtomicInteger();

    private ZstdContexts() {}

    static ZstdDecompressCtx take() {
        ZstdDecompressCtx c = IDLE.pollFirst();
        if (c == null) {
            return new ZstdDecompressCtx();
        }
        IDLE_COUNT.decrementAndGet();
        return c;
    }

    /** Returns a context after a successful call; after a failed one, {@code ok} false closes it instead. */
    static void give(ZstdDecompressCtx c, boolean ok) {
        if (ok && IDLE_COUNT.incrementAndGet() <= MAX_IDLE) {
            IDLE.offerFirst(c);
            return;
        }
        if (ok) {
            IDLE_COUNT.decrementAndGet();
        }
        c.close();
    }

    /** ZSTD_decompress into {@code out[0, len)} with a pooled context; the decoded size, or a ZstdException. */
    static int decompress(byte[] out, int len, byte[] encoded) {
        ZstdDecompressCtx c = take();
        boolean ok = false;
        try {
            int r = c.decompressByteArray(out, 0, len, encoded, 0, encoded.length);
            ok = true;
            return r;
        } finally {
            give(c, ok);
        }
    }
}
