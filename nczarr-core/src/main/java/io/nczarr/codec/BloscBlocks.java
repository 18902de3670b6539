package io.nczarr.codec;

import io.nczarr.error.CodecException;

/**
 * The blocks of one Blosc 1 frame ({@link BloscCodec}): each block's streams, decompressed or stored, then
 * unshuffled into the output, either a byte array or a run of the read's result ({@link ElementSink}). Into a
 * result array a byte-shuffled block whose typesize is the element size is unshuffled straight into the
 * elements (no decoded chunk in between); any other block is decoded into a per-thread block buffer as
 * before and copied from there while it is in the cache.
 */
final class BloscBlocks {

    // when a block is split into typesize streams (c-blosc 1.21 MAX_SPLITS, MIN_BUFFERSIZE)
    private static final int MAX_SPLITS = 16;
    private static final int MIN_BUFFERSIZE = 128;

    /** Per-thread block buffer for the shuffled streams (blocks are at most a few MB). */
    private static final ThreadLocal<byte[]> BLOCK = new ThreadLocal<>();
    /** Per-thread buffer for an unshuffled block on its way into an {@link ElementSink}. */
    private static final ThreadLocal<byte[]> STAGE = new ThreadLocal<>();

    private static byte[] buffer(ThreadLocal<byte[]> kept, int size) {
        byte[] b = kept.get();
        if (b == null || b.length < size) {
            b = new byte[size];
            if (size <= (16 << 20)) {
                kept.set(b);
            }
        }
        return b;
    }

    private final byte[] in;
    private final int end;
    private final int typesize;
    private final int version;
    private final int compformat;
    private final boolean byteShuffle;
    private final boolean bitShuffle;
    private final boolean dontSplit;
    /** The output: a byte array, or else the sink. */
    private final byte[] out;

    private final ElementSink sink;
    private final boolean vector;
    /** Each stream's first byte and compressed size in the block at hand. */
    private final int[] streamAt = new int[MAX_SPLITS];

    private final int[] streamSize = new int[MAX_SPLITS];

    BloscBlocks(
            byte[] in, int end, int flags, int typesize, int version, byte[] out, ElementSink sink, boolean vector) {
        this.in = in;
        this.vector = vector;
        this.end = end;
        this.typesize = typesize;
        this.version = version;
        this.out = out;
        this.sink = sink;
        this.compformat = (flags >>> BloscCodec.COMPRESSOR_SHIFT) & BloscCodec.COMPRESSOR_MASK;
        this.byteShuffle = (flags & BloscCodec.BYTE_SHUFFLE) != 0 && typesize > 1;
        this.bitShuffle = (flags & BloscCodec.BIT_SHUFFLE) != 0;
        this.dontSplit = (flags & BloscCodec.DONT_SPLIT) != 0;
    }

    void decode(int nblocks, long blocksize, long nbytes) throws CodecException {
        int maxBlock = (int) Math.min(blocksize, nbytes);
        byte[] tmp = byteShuffle || bitShuffle || sink != null ? buffer(BLOCK, maxBlock) : null;
        // unshuffled into the sink's elements directly only when a row is one byte of each element and the
        // Vector API assembles them: the scalar byte loop into the cached stage buffer plus a bulk copy is faster
        // than a scalar loop that assembles and stores whole elements (2.9 vs 3.3 ms of CPU per 4 MB chunk)
        boolean fused = sink != null
                && byteShuffle
                && typesize == sink.itemSize()
                && vector
                && VectorUnshuffle.assembles(typesize);
        // a bit unshuffle is a bit transpose into byte rows, then the byte unshuffle: 12-17 % less CPU than one pass
        // writing each byte at its element's place (scalar), 25-30 % with the vector byte unshuffle
        byte[] stage = (sink != null && byteShuffle && !fused) || bitShuffle ? buffer(STAGE, maxBlock) : null;
        for (int j = 0; j < nblocks; j++) {
            int dstOff = (int) ((long) j * blocksize);
            int bsize = (int) Math.min(blocksize, nbytes - dstOff);
            boolean leftover = bsize < blocksize;
            int start = CodecSupport.le32(in, BloscCodec.HEADER + 4 * j);
            if (start < BloscCodec.HEADER + 4 * nblocks || start >= end) {
                throw new CodecException("blosc: corrupt block offset " + start + " for block " + j);
            }
            int nsplits = !dontSplit && typesize <= MAX_SPLITS && bsize / typesize >= MIN_BUFFERSIZE && !leftover
                    ? typesize
                    : 1;
            if (bsize % nsplits != 0) {
                throw new CodecException(
                        "blosc: corrupt frame (block size " + bsize + " not divisible into " + nsplits + " streams)");
            }
            int neblock = bsize / nsplits;
            boolean stored = streams(j, start, nsplits, neblock);
            if (stored && byteShuffle) {
                unshuffleStored(nsplits, bsize, dstOff, fused, stage);
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
                    int got = BloscCodec.decompress(compformat, in, ip, cs, target, o, neblock);
                    if (got != neblock) {
                        throw new CodecException(
                                "blosc: block " + j + " decoded to " + got + " bytes, expected " + neblock);
                    }
                }
            }
            if (bitShuffle) {
                bitUnshuffleByRows(tmp, stage, bsize, dstOff);
            } else if (sink != null) {
                toSink(tmp, stage, bsize, dstOff, fused);
            } else if (byteShuffle) {
                ByteUnshuffle.unshuffle(typesize, bsize, tmp, 0, out, dstOff, vector);
            }
        }
    }

    /**
     * The bit unshuffle in two passes: the bit rows in {@code tmp} transposed into byte rows in {@code stage}
     * ({@link BitUnshuffle#toByteRows}), then unshuffled into the output as byte-shuffled data is (into the
     * result through {@code tmp}, free by then, unless the vector path assembles the elements).
     */
    private void bitUnshuffleByRows(byte[] tmp, byte[] stage, int bsize, int dstOff) {
        int elems = BitUnshuffle.shuffledElements(version, typesize, bsize);
        int done = elems * typesize;
        if (elems > 0) {
            BitUnshuffle.toByteRows(typesize, elems, tmp, stage, 0);
            int[] rows = new int[typesize];
            for (int i = 0; i < typesize; i++) {
                rows[i] = i * elems;
            }
            if (sink == null) {
                ByteUnshuffle.rows(typesize, elems, stage, rows, out, dstOff, vector);
            } else if (vector && typesize == sink.itemSize() && VectorUnshuffle.assembles(typesize)) {
                sink.unshuffle(elems, stage, rows, dstOff, true);
            } else {
                // elems is a multiple of 8: done is whole elements of any size
                ByteUnshuffle.rows(typesize, elems, stage, rows, tmp, 0, vector);
                sink.put(tmp, 0, dstOff, done);
            }
        }
        if (done < bsize) {
            // the elements after the last group of 8 (or a whole block c-blosc left unshuffled) as they are
            if (sink != null) {
                sink.put(tmp, done, dstOff + done, bsize - done);
            } else {
                System.arraycopy(tmp, done, out, dstOff + done, bsize - done);
            }
        }
    }

    /** A block decoded into {@code tmp}, not bit-shuffled, goes into the sink: unshuffled into it, or through {@code stage}. */
    private void toSink(byte[] tmp, byte[] stage, int bsize, int dstOff, boolean fused) {
        if (fused) {
            int count = bsize / typesize;
            int[] rows = new int[typesize];
            for (int i = 0; i < typesize; i++) {
                rows[i] = i * count;
            }
            sink.unshuffle(count, tmp, rows, dstOff, vector);
        } else if (byteShuffle) {
            ByteUnshuffle.unshuffle(typesize, bsize, tmp, 0, stage, 0, vector);
            sink.put(stage, 0, dstOff, bsize);
        } else {
            sink.put(tmp, 0, dstOff, bsize);
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
    private void unshuffleStored(int nsplits, int bsize, int dstOff, boolean fused, byte[] stage) {
        int count = bsize / typesize;
        int[] rows = new int[typesize];
        for (int i = 0; i < typesize; i++) {
            // split: one stream per row; else the rows follow each other in the one stream
            rows[i] = nsplits == typesize ? streamAt[i] : streamAt[0] + i * count;
        }
        if (fused) {
            // typesize is the element size and blocks are whole elements: no bytes after the last element
            sink.unshuffle(count, in, rows, dstOff, vector);
            return;
        }
        byte[] to = sink != null ? stage : out;
        int at = sink != null ? 0 : dstOff;
        ByteUnshuffle.rows(typesize, count, in, rows, to, at, vector);
        int done = count * typesize;
        if (done < bsize) {
            // only an unsplit block has bytes after its whole elements
            System.arraycopy(in, streamAt[0] + done, to, at + done, bsize - done);
        }
        if (sink != null) {
            sink.put(stage, 0, dstOff, bsize);
        }
    }
}
