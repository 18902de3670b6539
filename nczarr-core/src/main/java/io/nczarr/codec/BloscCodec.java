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
        return decode(in, in.length, maxDecodedBytes, null);
    }

    /** Reads the frame in {@code in[0, length)} where it lies (the caller's reused buffer of stored chunks). */
    @Override
    public byte[] decodeInto(byte[] in, int length, byte[] out, int len) throws CodecException {
        return decode(in, length, len, out);
    }

    /**
     * Decodes the frame in {@code in[0, length)}, into {@code reuse} when it holds exactly {@code
     * maxDecodedBytes} bytes and reuse is big enough.
     */
    private byte[] decode(byte[] in, int length, int maxDecodedBytes, byte[] reuse) throws CodecException {
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
        long nblocksL = (nbytes + blocksize - 1) / blocksize;
        if (HEADER + 4 * nblocksL > cbytes) {
            throw new CodecException("blosc: frame is truncated (block offsets)");
        }
        new Blocks(in, (int) cbytes, flags, typesize, version, out, vector).decode((int) nblocksL, blocksize, nbytes);
        return out;
    }

    /** The blocks of one frame: each block's streams, decompressed or stored, then unshuffled into out. */
    private static final class Blocks {
        private final byte[] in;
        private final int end;
        private final int typesize;
        private final int version;
        private final int compformat;
        private final boolean byteShuffle;
        private final boolean bitShuffle;
        private final boolean dontSplit;
        private final byte[] out;
        private final boolean vector;
        /** Each stream's first byte and compressed size in the block at hand. */
        private final int[] streamAt = new int[MAX_SPLITS];

        private final int[] streamSize = new int[MAX_SPLITS];

        Blocks(byte[] in, int end, int flags, int typesize, int version, byte[] out, boolean vector) {
            this.in = in;
            this.vector = vector;
            this.end = end;
            this.typesize = typesize;
            this.version = version;
            this.out = out;
            this.compformat = (flags >>> COMPRESSOR_SHIFT) & COMPRESSOR_MASK;
            this.byteShuffle = (flags & BYTE_SHUFFLE) != 0 && typesize > 1;
            this.bitShuffle = (flags & BIT_SHUFFLE) != 0;
            this.dontSplit = (flags & DONT_SPLIT) != 0;
        }

        void decode(int nblocks, long blocksize, long nbytes) throws CodecException {
            byte[] tmp = byteShuffle || bitShuffle ? blockBuffer((int) Math.min(blocksize, nbytes)) : null;
            for (int j = 0; j < nblocks; j++) {
                int dstOff = (int) ((long) j * blocksize);
                int bsize = (int) Math.min(blocksize, nbytes - dstOff);
                boolean leftover = bsize < blocksize;
                int start = CodecSupport.le32(in, HEADER + 4 * j);
                if (start < HEADER + 4 * nblocks || start >= end) {
                    throw new CodecException("blosc: corrupt block offset " + start + " for block " + j);
                }
                int nsplits = !dontSplit && typesize <= MAX_SPLITS && bsize / typesize >= MIN_BUFFERSIZE && !leftover
                        ? typesize
                        : 1;
                if (bsize % nsplits != 0) {
                    throw new CodecException("blosc: corrupt frame (block size " + bsize + " not divisible into "
                            + nsplits + " streams)");
                }
                int neblock = bsize / nsplits;
                boolean stored = streams(j, start, nsplits, neblock);
                if (stored && byteShuffle) {
                    unshuffleStored(nsplits, bsize, dstOff);
                    continue;
                }
                byte[] target = tmp != null ? tmp : out;
                int tOff = tmp != null ? 0 : dstOff;
                for (int s = 0; s < nsplits; s++) {
                    int o = tOff + s * neblock;
                    int ip = streamAt[s];
                    int cs = streamSize[s];
                    if (cs == neblock) {
                        System.arraycopy(in, ip, target, o, neblock);
                    } else {
                        int got = decompress(compformat, in, ip, cs, target, o, neblock);
                        if (got != neblock) {
                            throw new CodecException(
                                    "blosc: block " + j + " decoded to " + got + " bytes, expected " + neblock);
                        }
                    }
                }
                if (byteShuffle) {
                    ByteUnshuffle.unshuffle(typesize, bsize, tmp, 0, out, dstOff, vector);
                } else if (bitShuffle) {
                    BitUnshuffle.bitunshuffle(version, typesize, bsize, tmp, out, dstOff);
                }
            }
        }

        /** Finds the block's streams (bounds-checked); whether all of them are stored raw. */
        private boolean streams(int j, int start, int nsplits, int neblock) throws CodecException {
            int ip = start;
            boolean stored = true;
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
                streamAt[s] = ip;
                streamSize[s] = cs;
                stored &= cs == neblock;
                ip += cs;
            }
            return stored;
        }

        /** A byte-shuffled block stored raw: unshuffled straight from the frame, no copy in between. */
        private void unshuffleStored(int nsplits, int bsize, int dstOff) {
            int count = bsize / typesize;
            int[] rows = new int[typesize];
            for (int i = 0; i < typesize; i++) {
                // split: one stream per row; else the rows follow each other in the one stream
                rows[i] = nsplits == typesize ? streamAt[i] : streamAt[0] + i * count;
            }
            ByteUnshuffle.rows(typesize, count, in, rows, out, dstOff, vector);
            int done = count * typesize;
            if (done < bsize) {
                // only an unsplit block has bytes after its whole elements
                System.arraycopy(in, streamAt[0] + done, out, dstOff + done, bsize - done);
            }
        }
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
