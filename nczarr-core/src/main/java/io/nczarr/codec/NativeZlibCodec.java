package io.nczarr.codec;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import io.nczarr.error.CodecException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * numcodecs {@code zlib} decoded by libdeflate ({@link NativeCodecs}); the same answers and errors
 * as {@link ZlibCodec}, which stays the decoder wherever the library is absent.
 */
final class NativeZlibCodec implements InPlaceBytesCodec {

    private static final String ID = "zlib";

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        int limit = Math.max(0, maxDecodedBytes);
        byte[] buf = new byte[ZlibCodec.initialSize(limit, encoded.length)];
        while (true) {
            long n = inflate(encoded, encoded.length, buf, buf.length);
            if (n >= 0) {
                return n == buf.length ? buf : Arrays.copyOf(buf, (int) n);
            }
            if (buf.length >= limit) {
                throw exceeds(limit);
            }
            // an output estimate below a huge limit was too small: decode again into a larger one
            buf = new byte[(int) Math.min(limit, 2L * Math.max(buf.length, 1))];
        }
    }

    @Override
    public byte[] decodeInto(byte[] encoded, int encodedLength, byte[] out, int len) throws CodecException {
        long n = inflate(encoded, encodedLength, out, len);
        if (n < 0) {
            throw exceeds(len);
        }
        return n == len ? out : Arrays.copyOf(out, (int) n);
    }

    /**
     * Decodes into this thread's native output buffer and answers a view of what was decoded: the one
     * copy left is the caller's, out of it into the result array.
     */
    @Override
    public ByteBuffer decodeToOwnBuffer(byte[] encoded, int encodedLength, int len) throws CodecException {
        Memory dst = NativeBuffers.output(len);
        long n = inflate(encoded, encodedLength, dst, len);
        if (n < 0) {
            throw exceeds(len);
        }
        return dst.getByteBuffer(0, n);
    }

    @Override
    public boolean readsDirectInput() {
        return true;
    }

    /** As {@link #decodeToOwnBuffer(byte[], int, int)}, libdeflate reading the direct buffer where it is. */
    @Override
    public ByteBuffer decodeToOwnBuffer(ByteBuffer stored, int len) throws CodecException {
        if (!stored.isDirect()) {
            throw new IllegalArgumentException("not a direct buffer");
        }
        Memory dst = NativeBuffers.output(len);
        Pointer src = Native.getDirectBufferPointer(stored).share(stored.position());
        long n = inflate(src, stored.remaining(), dst, len);
        if (n < 0) {
            throw exceeds(len);
        }
        return dst.getByteBuffer(0, n);
    }

    /** The error {@link ZlibCodec} gives for data that decodes to more than {@code limit} bytes. */
    private static CodecException exceeds(int limit) {
        return new CodecException(ID + ": decoded data exceeds the expected " + limit + " bytes");
    }

    /** Size decoded from {@code in[0..inLength)} into {@code out[0..outLength)}, or {@code -1} when that is too small. */
    private static long inflate(byte[] in, int inLength, byte[] out, int outLength) throws CodecException {
        Memory dst = NativeBuffers.output(outLength);
        long n = inflate(in, inLength, dst, outLength);
        if (n > 0) {
            dst.read(0, out, 0, (int) n);
        }
        return n;
    }

    /** Size decoded from {@code in[0..inLength)} into {@code dst[0..outLength)}, or {@code -1} when that is too small. */
    private static long inflate(byte[] in, int inLength, Memory dst, int outLength) throws CodecException {
        Memory src = NativeBuffers.input(inLength);
        src.write(0, in, 0, inLength);
        return inflate(src, inLength, dst, outLength);
    }

    /** Size decoded from {@code inLength} bytes at {@code src} into {@code dst[0..outLength)}, or {@code -1} when that is too small. */
    private static long inflate(Pointer src, int inLength, Memory dst, int outLength) throws CodecException {
        Pointer d = LibDeflate.libdeflate_alloc_decompressor();
        if (d == null) {
            throw new CodecException(ID + ": libdeflate could not allocate a decompressor (out of native memory)");
        }
        try {
            long[] actual = new long[1];
            int r = LibDeflate.libdeflate_zlib_decompress(d, src, inLength, dst, outLength, actual);
            switch (r) {
                case LibDeflate.SUCCESS:
                    return actual[0];
                case LibDeflate.INSUFFICIENT_SPACE:
                    return -1;
                case LibDeflate.BAD_DATA:
                    throw new CodecException(ID + ": corrupt or truncated compressed data");
                default:
                    throw new CodecException(ID + ": libdeflate failed (result " + r + ")");
            }
        } finally {
            LibDeflate.libdeflate_free_decompressor(d);
        }
    }
}
