package io.nczarr.chunk;

import java.nio.ByteBuffer;

/**
 * The per-thread buffers the chunk readers reuse: a decoded chunk's ({@link #scratch}), a stored chunk's
 * ({@link #input}) and a direct one a native decoder reads in place ({@link #directInput}). Soft, so that idle
 * threads' buffers can be reclaimed; a chunk larger than the bound gets a fresh array.
 */
final class ChunkBuffers {
    private ChunkBuffers() {}

    /** Largest decode buffer kept per thread for reuse; bigger chunks get a fresh array each. */
    static final int MAX_SCRATCH_BYTES = 256 << 20;

    /**
     * This thread's reusable decode buffer, at least {@code len} bytes. A decoded chunk lives in it
     * only while its task copies it out, before the thread decodes anything else. Soft, so idle
     * threads' buffers can be reclaimed.
     */
    private static final ThreadLocal<java.lang.ref.SoftReference<byte[]>> SCRATCH = new ThreadLocal<>();

    static byte[] scratch(int len) {
        return reused(SCRATCH, len, len);
    }

    /** This thread's buffer in {@code kept} if it has {@code len} bytes, else a new one of {@code size}, kept. */
    private static byte[] reused(ThreadLocal<java.lang.ref.SoftReference<byte[]>> kept, int len, int size) {
        java.lang.ref.SoftReference<byte[]> ref = kept.get();
        byte[] b = ref == null ? null : ref.get();
        if (b == null || b.length < len) {
            b = new byte[size];
            kept.set(new java.lang.ref.SoftReference<>(b));
        }
        return b;
    }

    /** Largest stored chunk kept per thread for reuse; bigger ones get a fresh array each. */
    static final int MAX_INPUT_BYTES = 64 << 20;

    /** This thread's reusable buffer for stored chunks, as {@link #SCRATCH} is for decoded ones. */
    private static final ThreadLocal<java.lang.ref.SoftReference<byte[]>> INPUT = new ThreadLocal<>();

    /** This thread's reusable direct buffer for stored chunks a native decoder reads in place (a heap one once refused). */
    private static final ThreadLocal<java.lang.ref.SoftReference<ByteBuffer>> DIRECT_INPUT = new ThreadLocal<>();

    static ByteBuffer directInput(int len) {
        if (len > MAX_INPUT_BYTES) {
            return ByteBuffer.wrap(new byte[len]);
        }
        java.lang.ref.SoftReference<ByteBuffer> ref = DIRECT_INPUT.get();
        ByteBuffer b = ref == null ? null : ref.get();
        if (b == null || b.capacity() < len) {
            try {
                b = ByteBuffer.allocateDirect(Math.min(MAX_INPUT_BYTES, len + (len >> 3)));
            } catch (OutOfMemoryError e) {
                // direct memory has a bound of its own (-XX:MaxDirectMemorySize): the heap path still works,
                // and this thread keeps to it rather than wait for the JVM's refusal per chunk
                b = ByteBuffer.wrap(input(len));
            }
            DIRECT_INPUT.set(new java.lang.ref.SoftReference<>(b));
        }
        return b;
    }

    static byte[] input(int len) {
        if (len > MAX_INPUT_BYTES) {
            return new byte[len];
        }
        // room for the next chunk's being a little larger: stored sizes vary, decoded ones do not
        return reused(INPUT, len, Math.min(MAX_INPUT_BYTES, len + (len >> 3)));
    }
}
