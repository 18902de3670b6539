package io.nczarr.codec;

import com.github.luben.zstd.Zstd;
import io.nczarr.error.CodecException;
import java.io.IOException;
import org.xerial.snappy.Snappy;

/**
 * numcodecs / netcdf-c {@code blosc}: decoder for Blosc 1 frames (c-blosc 1.x format, version
 * bytes 1-3), written by hand because Maven Central has no Blosc decoder that works without a
 * system library. The internal codecs use the libraries of the stand-alone codecs (lz4-java,
 * zstd-jni, snappy-java, the JDK's Inflater) plus the hand-written {@link BloscLz}; the shuffle
 * and bitshuffle inverses are implemented here.
 *
 * <p>Frame: 16-byte header {@code version, versionlz, flags, typesize, nbytes, blocksize, cbytes}
 * (little-endian int32s). Flags: {@link #BYTE_SHUFFLE}, {@link #MEMCPYED} (raw data follows the
 * header), {@link #BIT_SHUFFLE}, {@link #DONT_SPLIT}, and in bits 5-7 the internal compressor
 * ({@link #BLOSCLZ}, {@link #LZ4} (also lz4hc), {@link #SNAPPY}, {@link #ZLIB}, {@link #ZSTD}).
 * Otherwise an int32 start offset per block follows, and each block holds one compressed stream
 * (or {@code typesize} streams when split), each preceded by its int32 compressed size; a size
 * equal to the stream's decoded size means stored raw. Splitting follows c-blosc 1.21: split
 * unless {@link #DONT_SPLIT} is set, but only when typesize &lt;= 16, blocksize/typesize &gt;= 128
 * and the block is not the short last block.
 */
final class BloscCodec implements BytesBytesCodec {

    static final int HEADER = 16;

    // header layout: byte offsets of the fields
    private static final int VERSION_AT = 0;
    private static final int FLAGS_AT = 2;
    private static final int TYPESIZE_AT = 3;
    private static final int NBYTES_AT = 4;
    private static final int BLOCKSIZE_AT = 8;
    private static final int CBYTES_AT = 12;

    // header flag bits (c-blosc's BLOSC_DOSHUFFLE, BLOSC_MEMCPYED, BLOSC_DOBITSHUFFLE and its "don't split" bit)
    /** Flag: the block bytes were byte-shuffled by typesize. */
    static final int BYTE_SHUFFLE = 0x01;
    /** Flag: the data follows the header uncompressed. */
    static final int MEMCPYED = 0x02;
    /** Flag: the block bytes were bit-shuffled by typesize. */
    static final int BIT_SHUFFLE = 0x04;
    /** Flag: blocks are one stream each, not split into typesize streams. */
    static final int DONT_SPLIT = 0x10;
    /** Both shuffles at once cannot happen in Blosc 1: Blosc 2 uses it to mark its extended header. */
    static final int BLOSC2_EXTENDED_HEADER = BYTE_SHUFFLE | BIT_SHUFFLE;
    /** The internal compressor code sits in flag bits 5-7. */
    static final int COMPRESSOR_SHIFT = 5;

    static final int COMPRESSOR_MASK = 0x07;

    // internal compressor codes (c-blosc BLOSC_*_FORMAT)
    static final int BLOSCLZ = 0;
    static final int LZ4 = 1;
    static final int SNAPPY = 2;
    static final int ZLIB = 3;
    static final int ZSTD = 4;

    /** Highest frame format version decoded (0 is never written). */
    static final int MAX_VERSION = 4;

    // when a block is split into typesize streams (c-blosc 1.21 MAX_SPLITS, MIN_BUFFERSIZE)
    private static final int MAX_SPLITS = 16;
    private static final int MIN_BUFFERSIZE = 128;

    /** Per-thread block buffer for the shuffled streams (blocks are at most a few MB). */
    private static final ThreadLocal<byte[]> BLOCK = new ThreadLocal<>();

    private static byte[] blockBuffer(int size) {
        byte[] b = BLOCK.get();
        if (b == null || b.length < size) {
            b = new byte[size];
            if (size <= (16 << 20)) {
                BLOCK.set(b);
            }
        }
        return b;
    }

    @Override
    public byte[] decode(byte[] in, int maxDecodedBytes) throws CodecException {
        return decode(in, maxDecodedBytes, null);
    }

    @Override
    public byte[] decodeInto(byte[] in, byte[] out, int len) throws CodecException {
        return decode(in, len, out);
    }

    /** Decodes into {@code reuse} when the frame holds exactly {@code maxDecodedBytes} bytes and reuse is big enough. */
    private byte[] decode(byte[] in, int maxDecodedBytes, byte[] reuse) throws CodecException {
        if (in.length < HEADER) {
            throw new CodecException(
                    "blosc: frame is truncated (" + in.length + " bytes, header needs " + HEADER + ")");
        }
        int version = in[VERSION_AT] & 0xFF;
        int flags = in[FLAGS_AT] & 0xFF;
        int typesize = in[TYPESIZE_AT] & 0xFF;
        long nbytes = CodecSupport.le32(in, NBYTES_AT) & 0xFFFFFFFFL;
        long blocksize = CodecSupport.le32(in, BLOCKSIZE_AT) & 0xFFFFFFFFL;
        long cbytes = CodecSupport.le32(in, CBYTES_AT) & 0xFFFFFFFFL;
        if (version == 0 || version > MAX_VERSION) {
            throw new CodecException("blosc: unsupported frame format version " + version);
        }
        if ((flags & BLOSC2_EXTENDED_HEADER) == BLOSC2_EXTENDED_HEADER) {
            throw new CodecException("blosc: Blosc2 extended header frames are not supported");
        }
        if (nbytes > maxDecodedBytes) {
            throw CodecSupport.tooLarge("blosc", nbytes, maxDecodedBytes);
        }
        if (cbytes < HEADER || cbytes > in.length) {
            throw new CodecException("blosc: frame is truncated or corrupt (header says " + cbytes
                    + " compressed bytes, have " + in.length + ")");
        }
        if (typesize == 0) {
            throw new CodecException("blosc: corrupt header (typesize 0)");
        }
        byte[] out =
                reuse != null && nbytes == maxDecodedBytes && reuse.length >= nbytes ? reuse : new byte[(int) nbytes];
        if (nbytes == 0) {
            return out;
        }
        if ((flags & MEMCPYED) != 0) {
            if (cbytes < HEADER + nbytes) {
                throw new CodecException("blosc: memcpyed frame is truncated");
            }
            System.arraycopy(in, HEADER, out, 0, (int) nbytes);
            return out;
        }
        if (blocksize == 0) {
            throw new CodecException("blosc: corrupt header (blocksize 0)");
        }
        int bs = (int) Math.min(blocksize, nbytes);
        long nblocksL = (nbytes + blocksize - 1) / blocksize;
        if (HEADER + 4 * nblocksL > cbytes) {
            throw new CodecException("blosc: frame is truncated (block offsets)");
        }
        int nblocks = (int) nblocksL;
        int end = (int) cbytes;
        int compformat = (flags >>> COMPRESSOR_SHIFT) & COMPRESSOR_MASK;
        boolean byteShuffle = (flags & BYTE_SHUFFLE) != 0 && typesize > 1;
        boolean bitShuffle = (flags & BIT_SHUFFLE) != 0;
        boolean dontSplit = (flags & DONT_SPLIT) != 0;
        byte[] tmp = byteShuffle || bitShuffle ? blockBuffer(bs) : null;
        for (int j = 0; j < nblocks; j++) {
            int dstOff = (int) ((long) j * blocksize);
            int bsize = (int) Math.min(blocksize, nbytes - dstOff);
            boolean leftover = bsize < blocksize;
            int start = CodecSupport.le32(in, HEADER + 4 * j);
            if (start < HEADER + 4 * nblocks || start >= end) {
                throw new CodecException("blosc: corrupt block offset " + start + " for block " + j);
            }
            byte[] target = tmp != null ? tmp : out;
            int tOff = tmp != null ? 0 : dstOff;
            int nsplits = !dontSplit && typesize <= MAX_SPLITS && bsize / typesize >= MIN_BUFFERSIZE && !leftover
                    ? typesize
                    : 1;
            if (bsize % nsplits != 0) {
                throw new CodecException(
                        "blosc: corrupt frame (block size " + bsize + " not divisible into " + nsplits + " streams)");
            }
            int neblock = bsize / nsplits;
            int ip = start;
            for (int s = 0; s < nsplits; s++) {
                if (ip + 4 > end) {
                    throw new CodecException("blosc: frame is truncated (block " + j + ")");
                }
                int cs = CodecSupport.le32(in, ip);
                ip += 4;
                if (cs < 0 || cs > end - ip) {
                    throw new CodecException(
                            "blosc: frame is truncated or corrupt (stream of " + cs + " bytes in block " + j + ")");
                }
                int o = tOff + s * neblock;
                if (cs == neblock) {
                    System.arraycopy(in, ip, target, o, neblock);
                } else {
                    int got = decompress(compformat, in, ip, cs, target, o, neblock);
                    if (got != neblock) {
                        throw new CodecException(
                                "blosc: block " + j + " decoded to " + got + " bytes, expected " + neblock);
                    }
                }
                ip += cs;
            }
            if (byteShuffle) {
                unshuffle(typesize, bsize, tmp, 0, out, dstOff);
            } else if (bitShuffle) {
                bitunshuffle(version, typesize, bsize, tmp, out, dstOff);
            }
        }
        return out;
    }

    private static int decompress(int format, byte[] src, int off, int len, byte[] dst, int dOff, int n)
            throws CodecException {
        switch (format) {
            case BLOSCLZ:
                return BloscLz.decompress(src, off, len, dst, dOff, n);
            case LZ4:
                return Lz4Codec.block("blosc", src, off, len, dst, dOff, n);
            case SNAPPY:
                return snappy(src, off, len, dst, dOff, n);
            case ZLIB:
                return inflate(src, off, len, dst, dOff, n);
            case ZSTD: {
                long r;
                try {
                    r = Zstd.decompressByteArray(dst, dOff, n, src, off, len);
                } catch (RuntimeException e) {
                    throw new CodecException("blosc: corrupt zstd data (" + e.getMessage() + ")", e);
                } catch (LinkageError e) {
                    throw new CodecException("blosc: zstd-jni native library is not available (" + e + ")", e);
                }
                if (Zstd.isError(r)) {
                    throw new CodecException("blosc: corrupt zstd data (" + Zstd.getErrorName(r) + ")");
                }
                return (int) r;
            }
            default:
                throw new CodecException("blosc: unknown internal compressor code " + format);
        }
    }

    private static int snappy(byte[] src, int off, int len, byte[] dst, int dOff, int n) throws CodecException {
        try {
            int ul = Snappy.uncompressedLength(src, off, len);
            if (ul != n) {
                throw new CodecException("blosc: snappy stream declares " + ul + " bytes, expected " + n);
            }
            if (!Snappy.isValidCompressedBuffer(src, off, len)) {
                throw new CodecException("blosc: corrupt snappy data");
            }
            return Snappy.uncompress(src, off, len, dst, dOff);
        } catch (IOException | RuntimeException e) {
            throw new CodecException("blosc: corrupt snappy data (" + e.getMessage() + ")", e);
        } catch (org.xerial.snappy.SnappyError | LinkageError e) {
            throw new CodecException("blosc: snappy native library is not available (" + e + ")", e);
        }
    }

    private static int inflate(byte[] src, int off, int len, byte[] dst, int dOff, int n) throws CodecException {
        byte[] r = ZlibCodec.inflate("blosc", src, off, len, n);
        System.arraycopy(r, 0, dst, dOff, r.length);
        return r.length;
    }

    /**
     * Inverse of the byte shuffle: byte i of element j lives at {@code i * (n / ts) + j}; leftover
     * bytes are unshuffled. Element sizes 2, 4 and 8 write each element's bytes in sequence from
     * the ts input rows (measured fastest here; this loop dominates decoding shuffled blosc data).
     */
    static void unshuffle(int ts, int size, byte[] src, int sOff, byte[] dst, int dOff) {
        int count = size / ts;
        switch (ts) {
            case 2: {
                int r1 = sOff + count;
                for (int j = 0, d = dOff; j < count; j++, d += 2) {
                    dst[d] = src[sOff + j];
                    dst[d + 1] = src[r1 + j];
                }
                break;
            }
            case 4: {
                int r1 = sOff + count;
                int r2 = r1 + count;
                int r3 = r2 + count;
                for (int j = 0, d = dOff; j < count; j++, d += 4) {
                    dst[d] = src[sOff + j];
                    dst[d + 1] = src[r1 + j];
                    dst[d + 2] = src[r2 + j];
                    dst[d + 3] = src[r3 + j];
                }
                break;
            }
            case 8: {
                int r1 = sOff + count;
                int r2 = r1 + count;
                int r3 = r2 + count;
                int r4 = r3 + count;
                int r5 = r4 + count;
                int r6 = r5 + count;
                int r7 = r6 + count;
                for (int j = 0, d = dOff; j < count; j++, d += 8) {
                    dst[d] = src[sOff + j];
                    dst[d + 1] = src[r1 + j];
                    dst[d + 2] = src[r2 + j];
                    dst[d + 3] = src[r3 + j];
                    dst[d + 4] = src[r4 + j];
                    dst[d + 5] = src[r5 + j];
                    dst[d + 6] = src[r6 + j];
                    dst[d + 7] = src[r7 + j];
                }
                break;
            }
            default:
                for (int i = 0; i < ts; i++) {
                    int row = sOff + i * count;
                    int d = dOff + i;
                    for (int j = 0; j < count; j++, d += ts) {
                        dst[d] = src[row + j];
                    }
                }
        }
        int done = count * ts;
        System.arraycopy(src, sOff + done, dst, dOff + done, size - done);
    }

    /** Byte i of x holds row i of an 8x8 bit matrix (bit j = column j); returns its transpose. */
    static long transpose8x8(long x) {
        long t = (x ^ (x >>> 7)) & 0x00AA00AA00AA00AAL;
        x = x ^ t ^ (t << 7);
        t = (x ^ (x >>> 14)) & 0x0000CCCC0000CCCCL;
        x = x ^ t ^ (t << 14);
        t = (x ^ (x >>> 28)) & 0x00000000F0F0F0F0L;
        return x ^ t ^ (t << 28);
    }

    /**
     * Inverse of bitshuffle's {@code bshuf_trans_bit_elem}: for element count {@code m} (a multiple
     * of 8) the input holds {@code 8 * ts} bit rows of {@code m / 8} bytes; row {@code 8 * byte + bit}
     * has, at bit position {@code e % 8} of its byte {@code e / 8}, that bit of element {@code e}.
     * c-blosc 1.x (frame version &lt;= 2) bit-shuffles a block only when its element count is a
     * multiple of 8 and copies it as-is otherwise; later frames shuffle the largest multiple of 8
     * elements. The bytes after the shuffled elements are copied unchanged.
     */
    static void bitunshuffle(int version, int ts, int size, byte[] src, byte[] dst, int dOff) {
        int elems = size / ts;
        if (version <= 2) {
            if (elems % 8 != 0) {
                System.arraycopy(src, 0, dst, dOff, size);
                return;
            }
        } else {
            elems -= elems % 8;
        }
        int done = elems * ts;
        int rowBytes = elems / 8;
        // per group of 8 elements and element byte: the 8 bit rows' bytes form an 8x8 bit matrix
        // whose transpose is those 8 elements' bytes (a bit loop per element was 10x slower)
        for (int byteIdx = 0; byteIdx < ts; byteIdx++) {
            int row0 = byteIdx * 8 * rowBytes;
            for (int q = 0; q < rowBytes; q++) {
                long x = 0;
                for (int bit = 0, r = row0 + q; bit < 8; bit++, r += rowBytes) {
                    x |= (src[r] & 0xFFL) << (8 * bit);
                }
                x = transpose8x8(x);
                for (int m = 0, d = dOff + q * 8 * ts + byteIdx; m < 8; m++, d += ts) {
                    dst[d] = (byte) (x >>> (8 * m));
                }
            }
        }
        System.arraycopy(src, done, dst, dOff + done, size - done);
    }
}
