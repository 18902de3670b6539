package io.nczarr.codec;

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
final class BloscCodec implements InPlaceBytesCodec {

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

    /** Whether byte unshuffles use the Vector API ({@link ByteUnshuffle#VECTOR} unless a test says). */
    private final boolean vector;

    BloscCodec() {
        this(ByteUnshuffle.VECTOR);
    }

    BloscCodec(boolean vector) {
        this.vector = vector;
    }

    @Override
    public byte[] decode(byte[] in, int maxDecodedBytes) throws CodecException {
        return decode(in, in.length, maxDecodedBytes, null, null);
    }

    /** Reads the frame in {@code in[0, length)} where it lies (the caller's reused buffer of stored chunks). */
    @Override
    public byte[] decodeInto(byte[] in, int length, byte[] out, int len) throws CodecException {
        return decode(in, length, len, out, null);
    }

    /**
     * Decodes the frame in {@code in[0, length)} straight into the sink's elements: byte-shuffled blocks of the
     * element size are unshuffled into them, other blocks copied in from a per-thread block buffer. Not taken
     * (nothing written) when the frame does not decode to exactly the sink's bytes or its blocks are not whole
     * elements; a corrupt frame fails with the same error as {@link #decodeInto(byte[], int, byte[], int)}.
     */
    @Override
    public boolean decodeInto(byte[] in, int length, ElementSink sink) throws CodecException {
        return decode(in, length, sink.byteLength(), null, sink) == DONE;
    }

    /** What {@link #decode(byte[], int, int, byte[], ElementSink)} answers when it wrote into the sink. */
    private static final byte[] DONE = new byte[0];

    /**
     * Decodes the frame in {@code in[0, length)}: into {@code sink} when one is given ({@link #DONE}, or {@code
     * null} when the frame does not fit it, before anything is written), else into {@code reuse} when it holds
     * exactly {@code maxDecodedBytes} bytes and reuse is big enough.
     */
    private byte[] decode(byte[] in, int length, int maxDecodedBytes, byte[] reuse, ElementSink sink)
            throws CodecException {
        if (length < HEADER) {
            throw new CodecException("blosc: frame is truncated (" + length + " bytes, header needs " + HEADER + ")");
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
        if (sink != null
                && (nbytes != sink.byteLength()
                        || nbytes == 0
                        || ((flags & MEMCPYED) == 0 && blocksize % sink.itemSize() != 0))) {
            return null; // the usual decode tells what is wrong with the size
        }
        if (nbytes > maxDecodedBytes) {
            throw CodecSupport.tooLarge("blosc", nbytes, maxDecodedBytes);
        }
        if (cbytes < HEADER || cbytes > length) {
            throw new CodecException("blosc: frame is truncated or corrupt (header says " + cbytes
                    + " compressed bytes, have " + length + ")");
        }
        if (typesize == 0) {
            throw new CodecException("blosc: corrupt header (typesize 0)");
        }
        byte[] out = sink != null
                ? null
                : reuse != null && nbytes == maxDecodedBytes && reuse.length >= nbytes ? reuse : new byte[(int) nbytes];
        if (nbytes == 0) {
            return out;
        }
        if ((flags & MEMCPYED) != 0) {
            if (cbytes < HEADER + nbytes) {
                throw new CodecException("blosc: memcpyed frame is truncated");
            }
            if (sink != null) {
                sink.put(in, HEADER, 0, (int) nbytes);
                return DONE;
            }
            System.arraycopy(in, HEADER, out, 0, (int) nbytes);
            return out;
        }
        if (blocksize == 0) {
            throw new CodecException("blosc: corrupt header (blocksize 0)");
        }
        long nblocksL = (nbytes + blocksize - 1) / blocksize;
        if (HEADER + 4 * nblocksL > cbytes) {
            throw new CodecException("blosc: frame is truncated (block offsets)");
        }
        new BloscBlocks(in, (int) cbytes, flags, typesize, version, out, sink, vector)
                .decode((int) nblocksL, blocksize, nbytes);
        return sink != null ? DONE : out;
    }

    static int decompress(int format, byte[] src, int off, int len, byte[] dst, int dOff, int n) throws CodecException {
        switch (format) {
            case BLOSCLZ:
                return BloscLz.decompress(src, off, len, dst, dOff, n);
            case LZ4:
                return Lz4Codec.block("blosc", src, off, len, dst, dOff, n);
            case SNAPPY:
                return snappy(src, off, len, dst, dOff, n);
            case ZLIB:
                return inflate(src, off, len, dst, dOff, n);
            case ZSTD:
                return zstd(src, off, len, dst, dOff, n);
            default:
                throw new CodecException("blosc: unknown internal compressor code " + format);
        }
    }

    /** A zstd stream with a pooled context ({@link ZstdContexts}): blosc frames have one stream per block. */
    private static int zstd(byte[] src, int off, int len, byte[] dst, int dOff, int n) throws CodecException {
        try {
            return ZstdContexts.decompress(dst, dOff, n, src, off, len);
        } catch (RuntimeException e) {
            throw new CodecException("blosc: corrupt zstd data (" + e.getMessage() + ")", e);
        } catch (LinkageError e) {
            throw new CodecException("blosc: zstd-jni native library is not available (" + e + ")", e);
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
}
