package io.nczarr.chunk;

import io.nczarr.codec.CodecRegistry;
import io.nczarr.codec.ShardingCodec;
import io.nczarr.error.ChunkException;
import io.nczarr.error.LimitExceededException;
import io.nczarr.error.NcZarrException;
import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.model.ArrayMeta;
import io.nczarr.model.ChunkEdges;
import io.nczarr.model.ElementType;
import io.nczarr.model.NcType;
import io.nczarr.model.VarModel;
import io.nczarr.store.MemoryLimits;
import io.nczarr.store.Store;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;

/**
 * Reads a section of one variable: a {@link SectionPlan} says which chunks the section touches;
 * this fetches and decodes only those (concurrently when an executor is given) and copies each
 * decoded chunk straight into the result array. Missing chunks read as the fill value.
 *
 * <p>Failures are {@link NcZarrException}s naming the dataset, the chunk key and the variable: a
 * {@link ChunkException} for a chunk of the wrong size, the codec's own exception type for a
 * decode failure, the store's {@code StoreException} for a failed fetch, a {@link
 * LimitExceededException} for a read or a chunk larger than the {@link MemoryLimits} allow (checked
 * before the memory is allocated).
 */
public final class ChunkReader {

    /**
     * What one string element is taken to cost in memory besides its characters: the reference in the
     * array, the String object and its empty value array, rounded up. Strings are counted with it
     * against the limits before they exist.
     */
    static final int STRING_OBJECT_BYTES = 48;

    /**
     * What a read keeps per chunk it touches while it runs (the chunk's plan, its task, its future),
     * rounded up: a section of a million tiny chunks needs memory for its plan before any data.
     */
    static final int PLAN_BYTES_PER_CHUNK = 256;

    private final Store store;
    private final VarModel var;
    private final int[] chunkShape;
    private final long[] arrayShape;
    private final MemoryLimits limits;
    /** Partial reads of shards; {@code null} unless the chain is one sharding_indexed codec. */
    private final ShardReader shards;

    private final ChunkDecoder decoder;
    /** A rectilinear grid's boundaries, else {@code null}. */
    private final ChunkEdges edges;
    /** A rectilinear grid's decoders by chunk shape (each chunk's codecs see its own shape). */
    private final Map<List<Integer>, ChunkDecoder> decoders = new ConcurrentHashMap<>();

    private final CodecRegistry codecs;
    private final ChunkTasks runner;
    private volatile ReadProgress progress;

    /**
     * A reader within the default limits for this heap ({@link MemoryLimits#defaults()}).
     *
     * @param executor runs chunk fetch+decode tasks in parallel; {@code null} = the calling thread only
     */
    public ChunkReader(Store store, VarModel var, CodecRegistry codecs, ExecutorService executor) {
        this(store, var, codecs, executor, MemoryLimits.defaults());
    }

    /**
     * @param executor runs chunk fetch+decode tasks in parallel; {@code null} = the calling thread only
     * @param limits bound the result of a read ({@link MemoryLimits#read()}) and each decoded chunk
     *     ({@link MemoryLimits#chunk()}); stored chunks are bounded by the store's own object limit
     */
    public ChunkReader(Store store, VarModel var, CodecRegistry codecs, ExecutorService executor, MemoryLimits limits) {
        this.store = store;
        this.limits = limits;
        this.var = var;
        ArrayMeta a = var.array();
        // a 0-d array is one chunk of one element, stored under key "0"
        this.arrayShape = a.shape().length == 0 ? new long[] {1} : a.shape();
        int[] inner = V3Chunks.innerShape(var);
        this.shards = inner == null
                ? null
                : new ShardReader(store, var, inner, limits.chunk().bytes());
        // a sharded array is read by inner chunks: the section is planned on their grid
        this.chunkShape = inner != null ? inner : a.chunks().length == 0 ? new int[] {1} : a.chunks();
        this.decoder = new ChunkDecoder(store, var, codecs, limits, (int) a.chunkElements());
        this.edges = a.edges();
        this.codecs = codecs;
        this.runner = new ChunkTasks(executor, store, var);
    }

    public VarModel variable() {
        return var;
    }

    /** Reports chunk completion of later reads to {@code p} ({@code null} = nobody). */
    public void setProgress(ReadProgress p) {
        this.progress = p;
    }

    /** An empty primitive array for {@code n} elements of a netCDF type. */
    public static Object allocate(NcType type, int n) {
        switch (type) {
            case BYTE:
            case UBYTE:
            case CHAR:
                return new byte[n];
            case SHORT:
            case USHORT:
                return new short[n];
            case INT:
            case UINT:
                return new int[n];
            case INT64:
            case UINT64:
                return new long[n];
            case FLOAT:
                return new float[n];
            case DOUBLE:
                return new double[n];
            case OPAQUE:
                return new byte[n][];
            default:
                return new String[n];
        }
    }

    /**
     * Reads the whole variable.
     *
     * @throws LimitExceededException when the result would be larger than {@link MemoryLimits#read()}
     */
    public Object readAll() throws IOException {
        int rank = var.shape().length;
        long[] origin = new long[rank];
        int[] count = new int[rank];
        int[] stride = new int[rank];
        for (int d = 0; d < rank; d++) {
            if (var.shape()[d] > Integer.MAX_VALUE) {
                throw tooLarge("dimension " + d + " is too long to read whole");
            }
            count[d] = (int) var.shape()[d];
            stride[d] = 1;
        }
        return read(origin, count, stride);
    }

    /**
     * Reads a strided section in the variable's (netCDF) index space, C order.
     *
     * @return {@code byte[]} (byte, ubyte, char; packed records for a structure), {@code byte[][]}
     *     (opaque), {@code short[]}, {@code int[]}, {@code long[]},
     *     {@code float[]}, {@code double[]} or {@code String[]}
     * @throws LimitExceededException when the result (with the read's per-chunk bookkeeping) would be
     *     larger than {@link MemoryLimits#read()}, or a chunk decodes to more than {@link
     *     MemoryLimits#chunk()}
     */
    public Object read(long[] origin, int[] count, int[] stride) throws IOException {
        if (var.isScalar()) {
            // the one element of the stored array, whatever its rank (NCZarr stores a scalar as [1])
            int rank = arrayShape.length;
            origin = new long[rank];
            count = new int[rank];
            stride = new int[rank];
            Arrays.fill(count, 1);
            Arrays.fill(stride, 1);
        }
        SectionPlan.Extent extent;
        try {
            extent = SectionPlan.measure(arrayShape, chunkShape, origin, count, stride, edges);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + " of " + var.name(), e);
        }
        // before the plan and the result exist: both grow with the section
        checkReadBudget(extent);
        if (extent.elements() > Integer.MAX_VALUE - 8) {
            throw tooLarge("section of more than 2^31 elements cannot be one Java array");
        }
        if (var.type() == NcType.STRUCTURE
                && extent.elements() > (Integer.MAX_VALUE - 8) / var.element().itemSize()) {
            throw tooLarge("section of more than 2^31 bytes of records cannot be one Java array");
        }
        SectionPlan plan =
                SectionPlan.of(arrayShape, chunkShape, var.array().fortranOrder(), origin, count, stride, edges);
        Object dest = var.type() == NcType.STRUCTURE
                ? new byte[(int) plan.elementCount() * var.element().itemSize()]
                : allocate(var.type(), (int) plan.elementCount());
        if (plan.elementCount() == 0) {
            return dest;
        }
        if (shards != null) {
            shards.read(
                    plan, dest, (ShardingCodec) decoder.pipeline().decodeSteps().get(0), this::run);
            return dest;
        }
        List<ChunkTask> tasks = new ArrayList<>();
        for (ChunkPlan chunk : plan.chunks()) {
            tasks.add(new ChunkTask(chunk, dest));
        }
        run(tasks);
        return dest;
    }

    /** Refuses a read whose result and plan would take more than {@link MemoryLimits#read()}. */
    private void checkReadBudget(SectionPlan.Extent extent) throws LimitExceededException {
        long bytes =
                plus(times(extent.elements(), resultBytesPerElement()), times(extent.chunks(), PLAN_BYTES_PER_CHUNK));
        limits.read()
                .check(
                        store.location(),
                        null,
                        var.name(),
                        "a read of " + extent.elements() + " " + var.type().cdlName() + " elements in "
                                + extent.chunks() + " chunks",
                        bytes);
    }

    /** Bytes one element of a read's result takes: its size, or for a string an estimate (see {@link #STRING_OBJECT_BYTES}). */
    private long resultBytesPerElement() {
        if (var.type() == NcType.STRUCTURE) {
            return var.element().itemSize();
        }
        if (var.type() != NcType.STRING && var.type() != NcType.OPAQUE) {
            return var.type().size();
        }
        // fixed-size strings have at most their item size in characters; vlen ones are counted per chunk
        return STRING_OBJECT_BYTES + var.element().itemSize();
    }

    /** Bytes one decoded chunk of {@code var} takes: its elements, plus the String objects a string chunk is parsed into. */
    public static long decodedChunkBytes(VarModel var) {
        long elements = var.array().chunkElements();
        long bytes = times(elements, var.element().itemSize());
        return var.element().layout() == ElementType.Layout.NUMERIC
                        || var.element().layout() == ElementType.Layout.RECORD
                ? bytes
                : plus(bytes, times(elements, STRING_OBJECT_BYTES));
    }

    private static long times(long a, long b) {
        return a != 0 && b > Long.MAX_VALUE / a ? Long.MAX_VALUE : a * b;
    }

    private static long plus(long a, long b) {
        return a > Long.MAX_VALUE - b ? Long.MAX_VALUE : a + b;
    }

    private UnsupportedFeatureException tooLarge(String detail) {
        return new UnsupportedFeatureException(
                store.location(), null, var.name(), "reads of 2^31 elements or more", detail, null);
    }

    private void run(List<? extends Callable<Void>> tasks) throws IOException {
        runner.run(tasks, progress);
    }

    /** Fetch, decode and copy one chunk. */
    private final class ChunkTask implements Callable<Void> {
        private final ChunkPlan chunk;
        private final Object dest;

        ChunkTask(ChunkPlan chunk, Object dest) {
            this.chunk = chunk;
            this.dest = dest;
        }

        @Override
        public Void call() throws IOException {
            ChunkData data = load(chunk.index(), ChunkDecoder.sink(var, chunk, dest));
            if (data == null) {
                return null; // decoded straight into the result
            }
            // offsets fit in int: a chunk has at most 2^30 bytes and the section at most 2^31 elements
            chunk.forEachRun((src, srcStride, dst, n) -> data.copy((int) src, (int) srcStride, dest, (int) dst, n));
            return null;
        }
    }

    /** The store key of a chunk: indexes joined by the dimension separator ({@code "0"} for 0-d). */
    String chunkKey(long[] idx) {
        if (var.array().isV3()) {
            return var.array().v3().chunkKey(var.key(), idx, var.array().shape().length);
        }
        StringBuilder sb = new StringBuilder(var.key());
        if (!var.key().isEmpty()) {
            sb.append('/'); // an empty key: the dataset is this one array
        }
        if (var.array().shape().length == 0) {
            return sb.append('0').toString();
        }
        String sep = var.array().separator();
        for (int d = 0; d < idx.length; d++) {
            if (d > 0) {
                sb.append(sep);
            }
            sb.append(idx[d]);
        }
        return sb.toString();
    }

    /**
     * The decoder of the chunk at {@code idx}: the variable's one, or on a rectilinear grid the one for that
     * chunk's shape (a handful of shapes in practice; the cache starts over past {@link #MAX_SHAPES}).
     */
    private ChunkDecoder decoder(long[] idx) {
        if (edges == null) {
            return decoder;
        }
        int[] shape = edges.chunkShape(idx);
        List<Integer> k = Arrays.stream(shape).boxed().toList();
        if (decoders.size() > MAX_SHAPES) {
            decoders.clear();
        }
        return decoders.computeIfAbsent(k, x -> {
            VarModel v = new VarModel(
                    var.name(),
                    var.key(),
                    var.dimensions(),
                    var.shape(),
                    var.array().withChunks(shape),
                    var.element(),
                    var.fill(),
                    var.attributes());
            return new ChunkDecoder(
                    store, v, codecs, limits, Math.toIntExact(v.array().chunkElements()));
        });
    }

    /** Most chunk shapes of a rectilinear grid whose decoders are kept. */
    static final int MAX_SHAPES = 64;

    /** A chunk decoded, or {@code null} when {@code sink} is given and the chunk was decoded into it. */
    private ChunkData load(long[] idx, io.nczarr.codec.ElementSink sink) throws IOException {
        ChunkDecoder decoder = decoder(idx);
        String key = chunkKey(idx);
        try {
            if (decoder.readsIntoBuffer()) {
                // the stored bytes into this thread's input buffer: no array per chunk for the GC, and for a
                // native decoder native memory it reads in place
                boolean direct = var.element().layout() == ElementType.Layout.NUMERIC
                        && decoder.pipeline().decodesDirectInput();
                Optional<ByteBuffer> raw = store.get(
                        key, direct ? ChunkBuffers::directInput : n -> ByteBuffer.wrap(ChunkBuffers.input(n)));
                if (raw.isEmpty()) {
                    return ChunkDecoder.fillChunk(var);
                }
                ByteBuffer b = raw.get();
                if (sink != null && !b.isDirect() && decoder.decodeInto(key, b.array(), b.limit(), sink)) {
                    return null;
                }
                return b.isDirect() ? decoder.decodeDirect(key, b) : decoder.decode(key, b.array(), b.limit());
            }
            Optional<byte[]> raw = store.get(key);
            if (raw.isEmpty()) {
                return ChunkDecoder.fillChunk(var);
            }
            if (sink != null && decoder.decodeInto(key, raw.get(), raw.get().length, sink)) {
                return null;
            }
            return decoder.decode(key, raw.get(), raw.get().length);
        } catch (NcZarrException e) {
            // a codec knows only bytes, a store only keys: name all three, keeping the type
            throw withContext(e, key);
        }
    }

    private NcZarrException withContext(NcZarrException e, String key) {
        if (e.dataset() != null && e.key() != null && e.variable() != null) {
            return e;
        }
        return e.withContext(store.location(), key, var.name());
    }

    /** Builds the codec pipeline now, so an unknown codec id fails early with a clear message. */
    public void checkCodecs() throws IOException {
        decoder.pipeline();
    }
}
