package io.nczarr.codec;

import com.sun.jna.Memory;

/**
 * Per-thread native buffers for the native decoders: the compressed input is copied in once and the
 * decoded output copied out once, with no allocation per chunk. Buffers of more than {@link #KEEP} bytes
 * are not kept, so an odd huge chunk does not pin native memory in every decode thread.
 */
final class NativeBuffers {
    private NativeBuffers() {}

    static final long KEEP = 64L << 20;

    private static final ThreadLocal<Memory[]> BUFFERS = ThreadLocal.withInitial(() -> new Memory[2]);

    static Memory input(long size) {
        return buffer(0, size);
    }

    static Memory output(long size) {
        return buffer(1, size);
    }

    private static Memory buffer(int which, long size) {
        long n = Math.max(1, size);
        Memory[] kept = BUFFERS.get();
        Memory m = kept[which];
        if (m != null && m.size() >= n) {
            return m;
        }
        m = new Memory(n);
        if (n <= KEEP) {
            kept[which] = m; // the smaller one it replaces is freed by JNA's cleaner
        }
        return m;
    }
}
