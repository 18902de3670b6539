package io.nczarr.codec;

import com.sun.jna.Memory;
import io.nczarr.error.CodecException;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * numcodecs {@code blosc} decoded by c-blosc ({@link NativeCodecs}), with {@link BloscCodec} as the
 * decoder for every frame the library is not handed. c-blosc 1.x's decompressor has no source-length
 * argument: it trusts the header's compressed size and the block offsets and stream sizes inside the
 * frame. So each frame is walked here first, and only one whose every offset and stream size lies
 * within the bytes we have, with a known inner compressor, goes to the library; anything else (and any
 * frame the library refuses) is decoded by the Java path, which gives the answer or the error.
 */
final class NativeBloscCodec implements InPlaceBytesCodec {

    /** c-blosc 1.x writes format version 2; 1 is the older one it still reads. */
    private static final int MAX_NATIVE_VERSION = 2;
    /** Header flag bit 3 is unused by Blosc 1; c-blosc refuses frames with it. */
    private static final int RESERVED_FLAG = 0x08;

    // when a block is split into typesize streams: the same rule as BloscCodec (c-blosc 1.21)
    private static final int MAX_SPLITS = 16;
    private static final int MIN_BUFFERSIZE = 128;

    private static final Pattern RELEASE = Pattern.compile("^(\\d+)\\.(\\d+)");

    private final BloscCodec java = new BloscCodec();
    private final int formats;
    private final boolean onlyWhereFaster;

    /**
     * @param formats the inner compressors the library has ({@link #formats(String)})
     * @param onlyWhereFaster true: hand c-blosc only the frames it decodes faster than Java (see
     *     {@link #faster}); false: every frame it can take (the equivalence tests)
     */
    NativeBloscCodec(int formats, boolean onlyWhereFaster) {
        this.formats = formats;
        this.onlyWhereFaster = onlyWhereFaster;
    }

    /**
     * Whether this c-blosc release may be used: 1.21 or later in the 1.x line (the release tested here,
     * with the bounds checks of its fuzzing fixes; 1.x before 1.16 lacks {@code blosc_cbuffer_validate}).
     */
    static boolean supported(String version) {
        Matcher m = RELEASE.matcher(version.trim());
        return m.find()
                && Integer.parseInt(m.group(1)) == 1
                && m.group(2).length() <= 4
                && Integer.parseInt(m.group(2)) >= 21;
    }

    /** Bit {@code 1 << code} per inner compressor code in c-blosc's "blosclz,lz4,lz4hc,..." list. */
    static int formats(String names) {
        int mask = 0;
        for (String n : names.split(",", -1)) {
            switch (n.trim().toLowerCase(Locale.ROOT)) {
                case "blosclz" -> mask |= 1 << BloscCodec.BLOSCLZ;
                case "lz4", "lz4hc" -> mask |= 1 << BloscCodec.LZ4;
                case "snappy" -> mask |= 1 << BloscCodec.SNAPPY;
                case "zlib" -> mask |= 1 << BloscCodec.ZLIB;
                case "zstd" -> mask |= 1 << BloscCodec.ZSTD;
                default -> {
                    // a compressor this frame format has no code for
                }
            }
        }
        return mask;
    }

    /**
     * Whether c-blosc beats the Java path on this frame, copies in and out of native memory included
     * (CPU per 4 MB chunk, docs/performance.md): bit-shuffled frames (its SIMD bit transpose), BloscLZ
     * (vs our hand-written one) and zlib are 1.05-1.5x faster; lz4 and zstd with byte shuffle or none
     * are 0.85-1.05x, as lz4-java and zstd-jni are the same C code and the two copies are then the
     * difference.
     */
    static boolean faster(byte[] in) {
        int flags = in[2] & 0xFF;
        int format = (flags >>> BloscCodec.COMPRESSOR_SHIFT) & BloscCodec.COMPRESSOR_MASK;
        return (flags & BloscCodec.BIT_SHUFFLE) != 0 || format == BloscCodec.BLOSCLZ || format == BloscCodec.ZLIB;
    }

    private int eligible(byte[] in, int length, int maxDecodedBytes) {
        int n = nativeSize(in, length, maxDecodedBytes, formats);
        return n >= 0 && (!onlyWhereFaster || faster(in)) ? n : -1;
    }

    @Override
    public byte[] decode(byte[] in, int maxDecodedBytes) throws CodecException {
        int n = eligible(in, in.length, maxDecodedBytes);
        if (n < 0) {
            return java.decode(in, maxDecodedBytes);
        }
        byte[] out = new byte[n];
        return decompress(in, out, n) ? out : java.decode(in, maxDecodedBytes);
    }

    /** Reads the frame in {@code in[0, length)} where it lies, as {@link BloscCodec} does. */
    @Override
    public byte[] decodeInto(byte[] in, int length, byte[] out, int len) throws CodecException {
        int n = eligible(in, length, len);
        if (n < 0) {
            return java.decodeInto(in, length, out, len);
        }
        // the same reuse rule as BloscCodec
        byte[] target = n == len && out.length >= n ? out : new byte[n];
        return decompress(in, target, n) ? target : java.decodeInto(in, length, out, len);
    }

    /**
     * A frame the Java path decodes goes straight into the sink ({@link BloscCodec}); one c-blosc takes is not
     * taken here (it is decoded into the native output buffer and copied from there).
     */
    @Override
    public boolean decodeInto(byte[] in, int length, ElementSink sink) throws CodecException {
        return eligible(in, length, sink.byteLength()) < 0 && java.decodeInto(in, length, sink);
    }

    /**
     * A frame c-blosc takes is decoded into this thread's native output buffer, which the caller copies
     * into the result: one copy fewer than {@link #decodeInto(byte[], int, byte[], int)}. {@code null}
     * for every other frame (and one the library refuses): the Java path decodes those.
     */
    @Override
    public ByteBuffer decodeToOwnBuffer(byte[] in, int length, int len) {
        int n = eligible(in, length, len);
        if (n != len) {
            return null;
        }
        Memory dst = decompressNative(in, n);
        return dst == null ? null : dst.getByteBuffer(0, n);
    }

    /** Whether c-blosc decoded the frame into {@code out[0, n)}; false: it refused (the Java path says why). */
    static boolean decompress(byte[] in, byte[] out, int n) {
        Memory dst = decompressNative(in, n);
        if (dst == null) {
            return false;
        }
        dst.read(0, out, 0, n);
        return true;
    }

    /** This thread's native output buffer holding the n decoded bytes, or null when c-blosc refused the frame. */
    private static Memory decompressNative(byte[] in, int n) {
        int cbytes = CodecSupport.le32(in, 12);
        Memory src = NativeBuffers.input(cbytes);
        Memory dst = NativeBuffers.output(n);
        src.write(0, in, 0, cbytes);
        long[] declared = new long[1];
        if (LibBlosc.blosc_cbuffer_validate(src, cbytes, declared) != 0 || declared[0] != n) {
            return null;
        }
        if (LibBlosc.blosc_decompress_ctx(src, dst, n, 1) != n) {
            return null;
        }
        return dst;
    }

    /**
     * The decoded size when c-blosc may be given this frame, else -1: a Blosc 1 frame of a version it
     * reads, not memcpyed (Java copies those as fast), an inner compressor the library has, decoded
     * size within the bound, and a layout (header, block offsets, per-stream sizes) that stays inside
     * the header's compressed size, which is at most the bytes we have. The walk mirrors c-blosc 1.21's
     * {@code blosc_d}, so the library reads nothing the walk did not bound.
     */
    static int nativeSize(byte[] in, int maxDecodedBytes, int formats) {
        return nativeSize(in, in.length, maxDecodedBytes, formats);
    }

    /** {@link #nativeSize(byte[], int, int)} of the frame in {@code in[0, length)}. */
    static int nativeSize(byte[] in, int length, int maxDecodedBytes, int formats) {
        if (length < BloscCodec.HEADER) {
            return -1;
        }
        int version = in[0] & 0xFF;
        int flags = in[2] & 0xFF;
        int typesize = in[3] & 0xFF;
        long nbytes = CodecSupport.le32(in, 4) & 0xFFFFFFFFL;
        long blocksize = CodecSupport.le32(in, 8) & 0xFFFFFFFFL;
        long cbytes = CodecSupport.le32(in, 12) & 0xFFFFFFFFL;
        int format = (flags >>> BloscCodec.COMPRESSOR_SHIFT) & BloscCodec.COMPRESSOR_MASK;
        if (version == 0
                || version > MAX_NATIVE_VERSION
                || (flags & (BloscCodec.MEMCPYED | RESERVED_FLAG)) != 0
                || (flags & BloscCodec.BLOSC2_EXTENDED_HEADER) == BloscCodec.BLOSC2_EXTENDED_HEADER
                || (formats & (1 << format)) == 0
                || typesize == 0
                || nbytes == 0
                || nbytes > maxDecodedBytes
                || blocksize == 0
                || blocksize > nbytes
                || cbytes < BloscCodec.HEADER
                || cbytes > length) {
            return -1;
        }
        long nblocks = (nbytes + blocksize - 1) / blocksize;
        int end = (int) cbytes;
        if (BloscCodec.HEADER + 4 * nblocks > end) {
            return -1;
        }
        boolean dontSplit = (flags & BloscCodec.DONT_SPLIT) != 0;
        for (int j = 0; j < nblocks; j++) {
            long bsize = Math.min(blocksize, nbytes - j * blocksize);
            boolean leftover = bsize < blocksize;
            int nsplits = !dontSplit && typesize <= MAX_SPLITS && bsize / typesize >= MIN_BUFFERSIZE && !leftover
                    ? typesize
                    : 1;
            if (bsize % nsplits != 0) {
                return -1;
            }
            long ip = CodecSupport.le32(in, BloscCodec.HEADER + 4 * j);
            if (ip < BloscCodec.HEADER + 4 * nblocks || ip >= end) {
                return -1;
            }
            for (int s = 0; s < nsplits; s++) {
                if (ip + 4 > end) {
                    return -1;
                }
                int cs = CodecSupport.le32(in, (int) ip);
                ip += 4;
                if (cs <= 0 || cs > end - ip) {
                    return -1;
                }
                ip += cs;
            }
        }
        return (int) nbytes;
    }
}
