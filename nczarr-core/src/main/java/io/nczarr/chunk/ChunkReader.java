package io.nczarr.chunk;

import io.nczarr.codec.Codec;
import io.nczarr.codec.CodecConfig;
import io.nczarr.codec.CodecPipeline;
import io.nczarr.codec.CodecRegistry;
import io.nczarr.codec.ShardingCodec;
import io.nczarr.codec.V2Pipeline;
import io.nczarr.error.ChunkException;
import io.nczarr.error.CodecException;
import io.nczarr.error.LimitExceededException;
import io.nczarr.error.NcZarrException;
import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.model.ArrayMeta;
import io.nczarr.model.ElementType;
import io.nczarr.model.NcType;
import io.nczarr.model.VarModel;
import io.nczarr.store.MemoryLimits;
import io.nczarr.store.Store;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicLong;

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
    private final CodecRegistry codecs;
    private final ExecutorService executor;
    private final int[] chunkShape;
    private final long[] arrayShape;
    private final int chunkElements;
    private final MemoryLimits limits;
    /** Partial reads of shards; {@code null} unless the chain is one sharding_indexed codec. */
    private final ShardReader shards;

    private volatile CodecPipeline pipeline;
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
        this.codecs = codecs;
        this.executor = executor;
        ArrayMeta a = var.array();
        // a 0-d array is one chunk of one element, stored under key "0"
        this.arrayShape = a.shape().length == 0 ? new long[] {1} : a.shape();
        int[] inner = V3Chunks.innerShape(var);
        this.shards = inner == null
                ? null
                : new ShardReader(store, var, inner, limits.chunk().bytes());
        // a sharded array is read by inner chunks: the section is planned on their grid
        this.chunkShape = inner != null ? inner : a.chunks().length == 0 ? new int[] {1} : a.chunks();
        this.chunkElements = (int) a.chunkElements();
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
            extent = SectionPlan.measure(arrayShape, chunkShape, origin, count, stride);
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
        SectionPlan plan = SectionPlan.of(arrayShape, chunkShape, var.array().fortranOrder(), origin, count, stride);
        Object dest = var.type() == NcType.STRUCTURE
                ? new byte[(int) plan.elementCount() * var.element().itemSize()]
                : allocate(var.type(), (int) plan.elementCount());
        if (plan.elementCount() == 0) {
            return dest;
        }
        if (shards != null) {
            shards.read(plan, dest, (ShardingCodec) pipeline().decodeSteps().get(0), this::run);
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
        ReadProgress p = progress;
        AtomicLong done = new AtomicLong();
        long total = tasks.size();
        if (executor == null || tasks.size() == 1) {
            for (Callable<Void> t : tasks) {
                call(t);
                if (p != null) {
                    p.chunksDone(var.name(), done.incrementAndGet(), total);
                }
            }
            return;
        }
        if (executor instanceof ThreadPoolExecutor pool && store.preferredConcurrency() <= 0) {
            // local: the caller and pool threads share the tasks, as many workers as the pool has threads
            Throwable failed = SharedTasks.run(tasks, pool, pool.getMaximumPoolSize() - 1, () -> {
                if (p != null) {
                    p.chunksDone(var.name(), done.incrementAndGet(), total);
                }
            });
            if (failed != null) {
                throw rethrown(failed);
            }
            return;
        }
        List<Future<Void>> futures = new ArrayList<>(tasks.size());
        for (Callable<Void> t : tasks) {
            futures.add(executor.submit(() -> {
                t.call();
                if (p != null) {
                    p.chunksDone(var.name(), done.incrementAndGet(), total);
                }
                return null;
            }));
        }
        Throwable first = null;
        for (Future<Void> f : futures) {
            try {
                f.get();
            } catch (ExecutionException e) {
                if (first == null) {
                    first = e.getCause();
                    futures.forEach(x -> x.cancel(false));
                }
            } catch (InterruptedException e) {
                futures.forEach(x -> x.cancel(true));
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("read of " + var.name() + " interrupted");
            } catch (CancellationException e) {
                // cancelled after an earlier failure
            }
        }
        if (first != null) {
            throw rethrown(first);
        }
    }

    /**
     * A task's failure as this thread throws it: the same exception, as a serial read would have
     * thrown it (a task only throws IOExceptions, RuntimeExceptions and Errors).
     */
    private IOException rethrown(Throwable t) {
        if (t instanceof IOException io) {
            return io;
        }
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new ChunkException(store.location(), null, var.name(), "chunk read failed: " + t, t);
    }

    /** Runs a task in this thread, its failures as they are. */
    private static void call(Callable<Void> t) throws IOException {
        try {
            t.call();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new ChunkException(null, null, null, "chunk read failed: " + e, e);
        }
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
            ChunkData data = load(chunk.index());
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
        StringBuilder sb = new StringBuilder(var.key()).append('/');
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

    private ChunkData load(long[] idx) throws IOException {
        String key = chunkKey(idx);
        try {
            if (readsIntoBuffer()) {
                // the stored bytes into this thread's input buffer: no array per chunk for the GC, and for a
                // native decoder native memory it reads in place
                boolean direct = var.element().layout() == ElementType.Layout.NUMERIC
                        && pipeline().decodesDirectInput();
                Optional<ByteBuffer> raw =
                        store.get(key, direct ? ChunkReader::directInput : n -> ByteBuffer.wrap(input(n)));
                if (raw.isEmpty()) {
                    return fillChunk(var);
                }
                ByteBuffer b = raw.get();
                return b.isDirect() ? decodeDirect(key, b) : decode(key, b.array(), b.limit());
            }
            Optional<byte[]> raw = store.get(key);
            if (raw.isEmpty()) {
                return fillChunk(var);
            }
            return decode(key, raw.get(), raw.get().length);
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

    /**
     * Whether chunks are read into a reused buffer: worth it only where the codec decodes that buffer in
     * place into another reused one (fixed-size elements, one codec that reads in place).
     */
    private boolean readsIntoBuffer() throws IOException {
        return !isVlen(var.element())
                && (long) chunkElements * var.element().itemSize() <= MAX_SCRATCH_BYTES
                && pipeline().decodesInPlace();
    }

    /** Decodes numbers stored in a direct buffer, by a chain that {@link CodecPipeline#decodesDirectInput()}. */
    private ChunkData decodeDirect(String key, ByteBuffer stored) throws IOException {
        long expected = (long) chunkElements * var.element().itemSize();
        limits.chunk().check(store.location(), key, var.name(), "one decoded chunk", decodedChunkBytes(var));
        return ownChunk(key, pipeline().decodeToOwnBuffer(stored, (int) expected), expected);
    }

    /** Numbers a codec decoded into its own buffer, checked against the chunk's size. */
    private ChunkData ownChunk(String key, ByteBuffer own, long expected) throws ChunkException {
        if (own.remaining() != expected) {
            throw chunkError(key, "chunk decodes to " + own.remaining() + " bytes, " + expected + " expected", null);
        }
        return new NumericChunk(own, var.element().order());
    }

    /** Decodes the chunk stored in {@code data[0..length)}. */
    private ChunkData decode(String key, byte[] data, int length) throws IOException {
        ElementType et = var.element();
        boolean vlen = isVlen(et);
        long expected = (long) chunkElements * et.itemSize();
        // the metadata says how large the chunk decodes: refuse before any of it is allocated
        limits.chunk().check(store.location(), key, var.name(), "one decoded chunk", decodedChunkBytes(var));
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
            byte[] scratch = expected <= MAX_SCRATCH_BYTES ? scratch((int) expected) : null;
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
        if (et.layout() == ElementType.Layout.NUMERIC || et.layout() == ElementType.Layout.RECORD) {
            return fixedChunk(data, et);
        }
        return StringChunk.parse(data, et, chunkElements);
    }

    static boolean isVlen(ElementType et) {
        return et.layout() == ElementType.Layout.VLEN_UTF8 || et.layout() == ElementType.Layout.VLEN_BYTES;
    }

    /** A decoded chunk of numbers or records. */
    static ChunkData fixedChunk(byte[] data, ElementType et) {
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
        long strings = decodedChunkBytes(var);
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

    /** Largest decode buffer kept per thread for reuse; bigger chunks get a fresh array each. */
    static final int MAX_SCRATCH_BYTES = 256 << 20;

    /**
     * This thread's reusable decode buffer, at least {@code len} bytes. A decoded chunk lives in it
     * only while its task copies it out, before the thread decodes anything else. Soft, so idle
     * threads' buffers can be reclaimed.
     */
    private static final ThreadLocal<java.lang.ref.SoftReference<byte[]>> SCRATCH = new ThreadLocal<>();

    static byte[] scratch(int len) {
        return reused(SCRATCH, len, len);
    }

    /** This thread's buffer in {@code kept} if it has {@code len} bytes, else a new one of {@code size}, kept. */
    private static byte[] reused(ThreadLocal<java.lang.ref.SoftReference<byte[]>> kept, int len, int size) {
        java.lang.ref.SoftReference<byte[]> ref = kept.get();
        byte[] b = ref == null ? null : ref.get();
        if (b == null || b.length < len) {
            b = new byte[size];
            kept.set(new java.lang.ref.SoftReference<>(b));
        }
        return b;
    }

    /** Largest stored chunk kept per thread for reuse; bigger ones get a fresh array each. */
    static final int MAX_INPUT_BYTES = 64 << 20;

    /** This thread's reusable buffer for stored chunks, as {@link #SCRATCH} is for decoded ones. */
    private static final ThreadLocal<java.lang.ref.SoftReference<byte[]>> INPUT = new ThreadLocal<>();

    /** This thread's reusable direct buffer for stored chunks a native decoder reads in place (a heap one once refused). */
    private static final ThreadLocal<java.lang.ref.SoftReference<ByteBuffer>> DIRECT_INPUT = new ThreadLocal<>();

    static ByteBuffer directInput(int len) {
        if (len > MAX_INPUT_BYTES) {
            return ByteBuffer.wrap(new byte[len]);
        }
        java.lang.ref.SoftReference<ByteBuffer> ref = DIRECT_INPUT.get();
        ByteBuffer b = ref == null ? null : ref.get();
        if (b == null || b.capacity() < len) {
            try {
                b = ByteBuffer.allocateDirect(Math.min(MAX_INPUT_BYTES, len + (len >> 3)));
            } catch (OutOfMemoryError e) {
                // direct memory has a bound of its own (-XX:MaxDirectMemorySize): the heap path still works,
                // and this thread keeps to it rather than wait for the JVM's refusal per chunk
                b = ByteBuffer.wrap(input(len));
            }
            DIRECT_INPUT.set(new java.lang.ref.SoftReference<>(b));
        }
        return b;
    }

    static byte[] input(int len) {
        if (len > MAX_INPUT_BYTES) {
            return new byte[len];
        }
        // room for the next chunk's being a little larger: stored sizes vary, decoded ones do not
        return reused(INPUT, len, Math.min(MAX_INPUT_BYTES, len + (len >> 3)));
    }

    private ChunkException chunkError(String key, String detail, Throwable cause) {
        return new ChunkException(store.location(), key, var.name(), detail, cause);
    }

    /** Builds the codec pipeline now, so an unknown codec id fails early with a clear message. */
    public void checkCodecs() throws IOException {
        pipeline();
    }

    /** Decode order: compressor first, then filters in reverse. Built once, on first use. */
    private CodecPipeline pipeline() throws IOException {
        CodecPipeline p = pipeline;
        if (p == null) {
            ArrayMeta a = var.array();
            if (a.isV3()) {
                p = V3Chunks.pipeline(
                        store.location(),
                        var,
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
}
