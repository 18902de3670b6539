package io.nczarr.codec;

import java.util.Arrays;

/**
 * A growable byte buffer that refuses to pass a hard limit, so a decoder's output size is never
 * taken from the (untrusted) input.
 */
final class BoundedOutput {
    private final String codecId;
    private final int limit;
    private byte[] buf;
    private int size;

    BoundedOutput(String codecId, int limit, int sizeHint) {
        this.codecId = codecId;
        this.limit = limit;
        this.buf = new byte[Math.max(16, Math.min(limit, Math.max(sizeHint, 0)))];
    }

    /**
     * Room to write at least one more byte. Capacity may reach {@code limit + 1} so a decoder can
     * show that it has more output than allowed; {@link #advance} then fails.
     */
    byte[] buffer() throws CodecException {
        if (size == buf.length) {
            if (size > limit) {
                throw overflow();
            }
            buf = Arrays.copyOf(buf, (int) Math.min(limit + 1L, Math.max(16L, 2L * buf.length)));
        }
        return buf;
    }

    int size() {
        return size;
    }

    void advance(int n) throws CodecException {
        size += n;
        if (size > limit) {
            throw overflow();
        }
    }

    CodecException overflow() {
        return new CodecException(codecId + ": decoded data exceeds the expected " + limit + " bytes");
    }

    byte[] toArray() {
        return size == buf.length ? buf : Arrays.copyOf(buf, size);
    }
}
