package io.nczarr.codec;

import com.github.luben.zstd.ZstdDecompressCtx;
import java.util.ArrayDeque;

/**
 * zstd decompression contexts reused across chunks. {@code Zstd.decompressByteArray} creates and frees a native
 * context per call (ZSTD_createDCtx: about 100 KiB allocated and set up), which took 14 % of the CPU of a read of
 * 128 × 128 inner chunks. A context is used by one thread at a time ({@link #take}, then {@link #give}); at most
 * {@link #MAX_IDLE} idle ones are kept (zstd-jni contexts have no cleaner, so none may be left to the GC).
 */
final class ZstdContexts {
    static final int MAX_IDLE = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
    // a plain locked stack: ConcurrentLinkedDeque's pollFirst spent 15 % of a row read walking dead nodes
    private static final ArrayDeque<ZstdDecompressCtx> IDLE = new ArrayDeque<>();

    private ZstdContexts() {}

    private static ZstdDecompressCtx take() {
        ZstdDecompressCtx c;
        synchronized (IDLE) {
            c = IDLE.pollFirst();
        }
        return c != null ? c : new ZstdDecompressCtx();
    }

    /** Returns a context after a successful call; after a failed one, {@code ok} false closes it instead. */
    private static void give(ZstdDecompressCtx c, boolean ok) {
        if (ok) {
            synchronized (IDLE) {
                if (IDLE.size() < MAX_IDLE) {
                    IDLE.offerFirst(c);
                    return;
                }
            }
        }
        c.close();
    }

    /** ZSTD_decompress into {@code out[0, len)} with a pooled context; the decoded size, or a ZstdException. */
    static int decompress(byte[] out, int len, byte[] encoded) {
        return decompress(out, 0, len, encoded, 0, encoded.length);
    }

    /** ZSTD_decompress of {@code src[off, off + len)} into {@code dst[dOff, dOff + n)} with a pooled context. */
    static int decompress(byte[] dst, int dOff, int n, byte[] src, int off, int len) {
        ZstdDecompressCtx c = take();
        boolean ok = false;
        try {
            int r = c.decompressByteArray(dst, dOff, n, src, off, len);
            ok = true;
            return r;
        } finally {
            give(c, ok);
        }
    }
}
