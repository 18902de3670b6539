package io.nczarr.codec;

import io.nczarr.error.CodecException;

/**
 * BloscLZ block decompressor, hand-written in Java from the format c-blosc 1.x's blosclz.c
 * produces (a FastLZ derivative): there is no Java BloscLZ on Maven Central. Every read and write
 * is bounds-checked; the caller gets the exact number of bytes or a {@link CodecException}.
 *
 * <p>Format: a sequence of instructions; the first byte's low 5 bits start a literal run.
 * <ul>
 * <li>{@code ctrl < 32}: literal run of {@code ctrl + 1} bytes that follow</li>
 * <li>{@code ctrl >= 32}: match; length code {@code (ctrl >> 5) - 1} (7 means: add following bytes
 * while they are 255), then a distance byte; distance = {@code ((ctrl & 31) << 8) + byte}, except
 * that {@code (ctrl & 31) == 31} with byte 255 announces a 16-bit big-endian far distance
 * {@code + 8191}. The match copies {@code length + 3} bytes from {@code distance + 1} back
 * (overlapping copies repeat the pattern, distance 0 is a run of the previous byte).</li>
 * </ul>
 */
final class BloscLz {
    private static final int MAX_DISTANCE = 8191;

    private BloscLz() {}

    /** Decompresses {@code src[off, off+len)} into {@code dst[dOff, dOff+dLen)}; returns the bytes written. */
    static int decompress(byte[] src, int off, int len, byte[] dst, int dOff, int dLen) throws CodecException {
        if (len <= 0) {
            throw corrupt("empty block");
        }
        int ip = off;
        final int ipEnd = off + len;
        int op = dOff;
        final int opEnd = dOff + dLen;
        int ctrl = src[ip++] & 31;
        while (true) {
            if (ctrl >= 32) {
                int mlen = (ctrl >>> 5) - 1;
                int ofs = (ctrl & 31) << 8;
                if (mlen == 6) {
                    int code;
                    do {
                        if (ip >= ipEnd) {
                            throw corrupt("truncated match length");
                        }
                        code = src[ip++] & 0xFF;
                        mlen += code;
                    } while (code == 255);
                }
                if (ip >= ipEnd) {
                    throw corrupt("truncated match distance");
                }
                int code = src[ip++] & 0xFF;
                long dist = ofs + code;
                if (code == 255 && ofs == (31 << 8)) {
                    if (ip + 2 > ipEnd) {
                        throw corrupt("truncated far distance");
                    }
                    dist = (((src[ip] & 0xFF) << 8) | (src[ip + 1] & 0xFF)) + (long) MAX_DISTANCE;
                    ip += 2;
                }
                long ref = op - dist - 1;
                long n = mlen + 3L;
                if (ref < dOff) {
                    throw corrupt("match refers before the start of the block");
                }
                if (op + n > opEnd) {
                    throw corrupt("match runs past the end of the block");
                }
                int r = (int) ref;
                int cnt = (int) n;
                if (op - r >= cnt) {
                    System.arraycopy(dst, r, dst, op, cnt);
                    op += cnt;
                } else {
                    for (int k = 0; k < cnt; k++) {
                        dst[op++] = dst[r++];
                    }
                }
            } else {
                int n = ctrl + 1;
                if (op + n > opEnd) {
                    throw corrupt("literal run past the end of the block");
                }
                if (ip + n > ipEnd) {
                    throw corrupt("truncated literal run");
                }
                System.arraycopy(src, ip, dst, op, n);
                ip += n;
                op += n;
            }
            if (ip >= ipEnd) {
                break;
            }
            ctrl = src[ip++] & 0xFF;
        }
        return op - dOff;
    }

    private static CodecException corrupt(String what) {
        return new CodecException("blosc: corrupt blosclz data (" + what + ")");
    }
}
