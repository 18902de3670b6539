package io.nczarr.chunk;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

/**
 * Decoded fixed-size numbers in the dtype's byte order. Contiguous runs are bulk copies through
 * typed buffer views (no per-element boxing); strided runs fall back to indexed gets.
 */
final class NumericChunk implements ChunkData {
    private final ByteBuffer bytes;

    NumericChunk(byte[] data, ByteOrder order) {
        this(ByteBuffer.wrap(data), order);
    }

    /** Over {@code data}'s bytes from its position (heap or direct). */
    NumericChunk(ByteBuffer data, ByteOrder order) {
        this.bytes = data.slice().order(order);
    }

    @Override
    public void copy(int srcStart, int srcStride, Object dest, int destStart, int count) {
        if (dest instanceof byte[] a) {
            if (srcStride == 1) {
                bytes.get(srcStart, a, destStart, count);
            } else {
                for (int i = 0; i < count; i++) {
                    a[destStart + i] = bytes.get(srcStart + i * srcStride);
                }
            }
        } else if (dest instanceof short[] a) {
            ShortBuffer v = bytes.asShortBuffer();
            if (srcStride == 1) {
                v.get(srcStart, a, destStart, count);
            } else {
                for (int i = 0; i < count; i++) {
                    a[destStart + i] = v.get(srcStart + i * srcStride);
                }
            }
        } else if (dest instanceof int[] a) {
            IntBuffer v = bytes.asIntBuffer();
            if (srcStride == 1) {
                v.get(srcStart, a, destStart, count);
            } else {
                for (int i = 0; i < count; i++) {
                    a[destStart + i] = v.get(srcStart + i * srcStride);
                }
            }
        } else if (dest instanceof long[] a) {
            LongBuffer v = bytes.asLongBuffer();
            if (srcStride == 1) {
                v.get(srcStart, a, destStart, count);
            } else {
                for (int i = 0; i < count; i++) {
                    a[destStart + i] = v.get(srcStart + i * srcStride);
                }
            }
        } else if (dest instanceof float[] a) {
            FloatBuffer v = bytes.asFloatBuffer();
            if (srcStride == 1) {
                v.get(srcStart, a, destStart, count);
            } else {
                for (int i = 0; i < count; i++) {
                    a[destStart + i] = v.get(srcStart + i * srcStride);
                }
            }
        } else if (dest instanceof double[] a) {
            DoubleBuffer v = bytes.asDoubleBuffer();
            if (srcStride == 1) {
                v.get(srcStart, a, destStart, count);
            } else {
                for (int i = 0; i < count; i++) {
                    a[destStart + i] = v.get(srcStart + i * srcStride);
                }
            }
        } else {
            throw new IllegalArgumentException("unsupported destination " + dest.getClass());
        }
    }
}
