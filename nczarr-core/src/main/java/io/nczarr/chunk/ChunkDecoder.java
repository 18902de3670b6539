package io.nczarr.chunk;

import io.nczarr.codec.Codec;
import io.nczarr.codec.CodecConfig;
import io.nczarr.codec.CodecPipeline;
import io.nczarr.codec.CodecRegistry;
import io.nczarr.codec.ElementSink;
import io.nczarr.codec.V2Pipeline;
import io.nczarr.error.ChunkException;
import io.nczarr.error.CodecException;
import io.nczarr.error.LimitExceededException;
import io.nczarr.error.NcZarrException;
import io.nczarr.model.ArrayMeta;
import io.nczarr.model.ElementType;
import io.nczarr.model.VarModel;
import io.nczarr.store.MemoryLimits;
import io.nczarr.store.Store;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.atomic.LongAdder;

/**
 * Decodes the stored chunks of one variable: builds its codec chain on first use (an unknown codec fails the
 * reads, naming the metadata object), checks every decoded size against the chunk and the {@link
 * MemoryLimits} before allocating, and gives the decoded chunk as {@link ChunkData}. Thread-safe.
 */
final class ChunkDecoder {
    private final Store store;
    private final VarModel var;
    private final CodecRegistry codecs;
    private final MemoryLimits limits;
    private final int chunkElements;

    private volatile CodecPipeline pipeline;

    ChunkDecoder(Store store, VarModel var, CodecRegistry codecs, MemoryLimits limits, int chunkElements) {
        this.store = store;
        this.var = var;
        this.codecs = codecs;
        this.limits = limits;
        this.chunkElements = chunkElements;
    }

    /**
     * Whether chunks are read into a reused buffer: worth it only where the codec decodes that buffer in
     * place into another reused one (fixed-size elements, one codec that reads in place).
     */
    boolean readsIntoBuffer() throws IOException {
        return !isVlen(var.element())
                && (long) chunkElements * var.element().itemSize() <= ChunkBuffers.MAX_SCRATCH_BYTES
                && pipeline().decodesInPlace();
    }

    /** Decodes numbers stored in a direct buffer, by a chain that {@link CodecPipeline#decodesDirectInput()}. */
    ChunkData decodeDirect(String key, ByteBuffer stored) throws IOException {
        long expected = (long) chunkElements * var.element().itemSize();
        limits.chunk()
                .check(store.location(), key, var.name(), "one decoded chunk", ChunkReader.decodedChunkBytes(var));
        return ownChunk(key, pipeline().decodeToOwnBuffer(stored, (int) expected), expected);
    }

    /**
     * Decodes a chunk of numbers stored in {@code data[0..length)} straight into a run of the result; {@code
     * false}: not taken, nothing written ({@link CodecPipeline#decodeInto(byte[], int, ElementSink)}). The chunk
     * limit is checked as for every decoded chunk.
     */
    boolean decodeInto(String key, byte[] data, int length, ElementSink sink) throws IOException {
        limits.chunk()
                .check(store.location(), key, var.name(), "one decoded chunk", ChunkReader.decodedChunkBytes(var));
        if (!pipeline().decodeInto(data, length, sink)) {
            return false;
        }
        DIRECT_DECODES.increment();
        return true;
    }

    /** Chunks decoded straight into a result ({@link #decodeInto(String, byte[], int, ElementSink)}), for tests. */
    static final LongAdder DIRECT_DECODES = new LongAdder();

    /**
     * The run of {@code dest} (a read's result) a chunk of numbers can be decoded into: the chunk lands there
     * whole and contiguous ({@link ChunkPlan#wholeRun()}) and the result's elements are its stored ones; else
     * {@code null} (decoded, then copied run by run).
     */
    static ElementSink sink(VarModel var, ChunkPlan chunk, Object dest) {
        long at = var.element().layout() == ElementType.Layout.NUMERIC ? chunk.wholeRun() : -1;
        return at < 0
                ? null
                : ElementSink.of(
                        dest,
                        (int) at,
                        (int) chunk.elementCount(),
                        var.element().itemSize(),
                        var.element().order());
    }

    /** Numbers a codec decoded into its own buffer, checked against the chunk's size. */
    private ChunkData ownChunk(String key, ByteBuffer own, long expected) throws ChunkException {
        if (own.remaining() != expected) {
            throw chunkError(key, "chunk decodes to " + own.remaining() + " bytes, " + expected + " expected", null);
        }
        return new NumericChunk(own, var.element().order());
    }

    /** Decodes the chunk stored in {@code data[0..length)}. */
    ChunkData decode(String key, byte[] data, int length) throws IOException {
        ElementType et = var.element();
        boolean vlen = isVlen(et);
        long expected = (long) chunkElements * et.itemSize();
        // the metadata says how large the chunk decodes: refuse before any of it is allocated
        limits.chunk()
                .check(store.location(), key, var.name(), "one decoded chunk", ChunkReader.decodedChunkBytes(var));
        CodecPipeline steps = pipeline();
        boolean inScratch = false;
        if (length != data.length && (vlen || steps.isEmpty())) {
            data = Arrays.copyOf(data, length); // not reached: only an in-place codec gets a part
        }
        if (et.layout() == ElementType.Layout.NUMERIC && steps.decodesInPlace()) {
            // a native decoder's own output buffer: numbers are copied from there into the result
            ByteBuffer own = steps.decodeToOwnBuffer(data, length, (int) expected);
            if (own != null) {
                return ownChunk(key, own, expected);
            }
        }
        if (vlen) {
            data = decodeVlen(key, steps, data);
        } else if (!steps.isEmpty()) {
            // the last step decodes into this thread's reusable buffer when the size is right
            byte[] scratch = expected <= ChunkBuffers.MAX_SCRATCH_BYTES ? ChunkBuffers.scratch((int) expected) : null;
            data = decodeFixed(key, steps, data, length, scratch, (int) expected);
            inScratch = scratch != null && data == scratch;
        }
        int size = inScratch ? (int) expected : data.length;
        if (vlen) {
            try {
                return vlenChunk(data, et, chunkElements);
            } catch (IllegalArgumentException e) {
                throw chunkError(key, e.getMessage(), e);
            }
        }
        if (size != expected) {
            throw chunkError(
                    key,
                    !steps.isEmpty()
                            ? "chunk decodes to " + size + " bytes, " + expected + " expected"
                            : "chunk has " + size + " bytes, " + expected + " expected (truncated or wrong chunk size)",
                    null);
        }
        if (et.layout() == ElementType.Layout.NUMERIC
                || et.layout() == ElementType.Layout.RECORD
                || et.layout() == ElementType.Layout.FIXED_OPAQUE) {
            return fixedChunk(data, et);
        }
        return StringChunk.parse(data, et, chunkElements);
    }

    static boolean isVlen(ElementType et) {
        return et.layout() == ElementType.Layout.VLEN_UTF8 || et.layout() == ElementType.Layout.VLEN_BYTES;
    }

    /** A decoded chunk of numbers, records or fixed-length raw bytes. */
    static ChunkData fixedChunk(byte[] data, ElementType et) {
        if (et.layout() == ElementType.Layout.FIXED_OPAQUE) {
            return BytesChunk.fixed(data, et.itemSize());
        }
        return et.layout() == ElementType.Layout.RECORD
                ? RecordChunk.of(data, et.itemSize())
                : new NumericChunk(data, et.order());
    }

    /** A decoded chunk of {@code n} variable-length strings or byte strings. */
    static ChunkData vlenChunk(byte[] data, ElementType et, int n) {
        return et.layout() == ElementType.Layout.VLEN_BYTES
                ? BytesChunk.parse(data, n)
                : StringChunk.parse(data, et, n);
    }

    /** What a missing chunk of this variable reads as. */
    static ChunkData fillChunk(VarModel var) {
        return var.element().layout() == ElementType.Layout.RECORD
                ? RecordChunk.fill((byte[]) var.fill(), var.element().itemSize())
                : new FillChunk(var.fill());
    }

    /**
     * A vlen chunk's size is known only once decoded: its decoded bytes get what the chunk limit leaves
     * after its String objects, and reaching that bound is reported as the limit it is.
     */
    private byte[] decodeVlen(String key, CodecPipeline steps, byte[] data) throws IOException {
        long strings = ChunkReader.decodedChunkBytes(var);
        int bound = (int) Math.max(
                1, Math.min(MemoryLimits.MAX_ARRAY_BYTES, limits.chunk().bytes() - strings));
        byte[] decoded;
        try {
            decoded = steps.decode(data, bound);
        } catch (CodecException e) {
            if (reachedBound(e, bound)) {
                throw limitHit(key, "one decoded vlen-utf8 chunk", e);
            }
            throw e;
        }
        // without a compressor nothing bounded it: the stored bytes are the decoded ones
        limits.chunk()
                .check(store.location(), key, var.name(), "one decoded vlen-utf8 chunk", plus(decoded.length, strings));
        return decoded;
    }

    /** Decodes a chunk of known size; an intermediate stage stopped by the chunk limit is reported as the limit. */
    private byte[] decodeFixed(String key, CodecPipeline steps, byte[] data, int length, byte[] scratch, int expected)
            throws IOException {
        try {
            return steps.decodeInto(data, length, scratch, expected);
        } catch (CodecException e) {
            long limit = limits.chunk().bytes();
            if (limit != expected && reachedBound(e, limit)) {
                throw limitHit(key, "an intermediate codec stage of one chunk", e);
            }
            throw e;
        }
    }

    /** Whether a codec stopped at {@code bound}: every codec words that the same way. */
    private static boolean reachedBound(CodecException e, long bound) {
        return String.valueOf(e.getMessage()).contains("exceeds the expected " + bound + " bytes");
    }

    private LimitExceededException limitHit(String key, String what, CodecException cause) {
        return limits.chunk().exceeded(store.location(), key, var.name(), what, -1, cause);
    }

    private ChunkException chunkError(String key, String detail, Throwable cause) {
        return new ChunkException(store.location(), key, var.name(), detail, cause);
    }

    /** Decode order: compressor first, then filters in reverse. Built once, on first use. */
    CodecPipeline pipeline() throws IOException {
        CodecPipeline p = pipeline;
        if (p == null) {
            ArrayMeta a = var.array();
            if (a.isV3()) {
                p = V3Chunks.pipeline(
                        store.location(),
                        var,
                        codecs,
                        this::create,
                        chunkElements,
                        limits.chunk().bytes());
                pipeline = p;
                return p;
            }
            // vlen-utf8 turns bytes into strings: that is the element layout's job (StringChunk)
            // stages before the last are bounded by the chunk limit too (their sizes are not declared)
            p = V2Pipeline.build(
                    a.compressor(),
                    a.filters(),
                    this::create,
                    chunkElements,
                    (long) chunkElements * var.element().itemSize(),
                    isVlen(var.element()),
                    limits.chunk().bytes(),
                    a.dtype());
            pipeline = p;
        }
        return p;
    }

    private Codec create(CodecConfig c) throws IOException {
        try {
            return codecs.create(c);
        } catch (NcZarrException e) {
            // an unknown codec or bad parameters: the type stays, the .zarray that names the codec is added
            throw e.withContext(
                    store.location(), var.key() + (var.array().isV3() ? "/zarr.json" : "/.zarray"), var.name());
        }
    }

    private static long plus(long a, long b) {
        return a > Long.MAX_VALUE - b ? Long.MAX_VALUE : a + b;
    }
}
