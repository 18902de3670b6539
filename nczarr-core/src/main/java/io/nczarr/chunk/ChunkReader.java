package io.nczarr.chunk;

import io.nczarr.codec.Codec;
import io.nczarr.codec.CodecConfig;
import io.nczarr.codec.CodecPipeline;
import io.nczarr.codec.CodecRegistry;
import io.nczarr.codec.ShardingCodec;
import io.nczarr.codec.V2Pipeline;
import io.nczarr.error.ChunkException;
import io.nczarr.error.NcZarrException;
import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.model.ArrayMeta;
import io.nczarr.model.ElementType;
import io.nczarr.model.NcType;
import io.nczarr.model.VarModel;
import io.nczarr.store.Store;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads a section of one variable: a {@link SectionPlan} says which chunks the section touches;
 * this fetches and decodes only those (concurrently when an executor is given) and copies each
 * decoded chunk straight into the result array. Missing chunks read as the fill value.
 *
 * <p>Failures are {@link NcZarrException}s naming the dataset, the chunk key and the variable: a
 * {@link ChunkException} for a chunk of the wrong size, the codec's own exception type for a
 * decode failure, the store's {@code StoreException} for a failed fetch.
 */
public final class ChunkReader {

    /** Bound on a decoded vlen-string chunk (its size is not known from the metadata). */
    static final int MAX_VLEN_CHUNK_BYTES = 256 << 20;

    private final Store store;
    private final VarModel var;
    private final CodecRegistry codecs;
    private final ExecutorService executor;
    private final int[] chunkShape;
    private final long[] arrayShape;
    private final int chunkElements;
    /** Partial reads of shards; {@code null} unless the chain is one sharding_indexed codec. */
    private final ShardReader shards;

    private volatile CodecPipeline pipeline;
    private volatile ReadProgress progress;

    /**
     * @param executor runs chunk fetch+decode tasks in parallel; {@code null} = the calling thread only
     */
    public ChunkReader(Store store, VarModel var, CodecRegistry codecs, ExecutorService executor) {
        this.store = store;
        this.var = var;
        this.codecs = codecs;
        this.executor = executor;
        ArrayMeta a = var.array();
        // a 0-d array is one chunk of one element, stored under key "0"
        this.arrayShape = a.shape().length == 0 ? new long[] {1} : a.shape();
        int[] inner = V3Chunks.innerShape(var);
        this.shards = inner == null ? null : new ShardReader(store, var, inner);
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
            default:
                return new String[n];
        }
    }

    /** Reads the whole variable. */
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
     * @return {@code byte[]} (byte, ubyte, char), {@code short[]}, {@code int[]}, {@code long[]},
     *     {@code float[]}, {@code double[]} or {@code String[]}
     */
    public Object read(long[] origin, int[] count, int[] stride) throws IOException {
        if (var.isScalar()) {
            origin = new long[] {0};
            count = new int[] {1};
            stride = new int[] {1};
        }
        SectionPlan plan;
        try {
            plan = SectionPlan.of(arrayShape, chunkShape, var.array().fortranOrder(), origin, count, stride);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + " of " + var.name(), e);
        }
        if (plan.elementCount() > Integer.MAX_VALUE - 8) {
            throw tooLarge("section of more than 2^31 elements cannot be one Java array");
        }
        Object dest = allocate(var.type(), (int) plan.elementCount());
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
        IOException first = null;
        for (Future<Void> f : futures) {
            try {
                f.get();
            } catch (ExecutionException e) {
                if (first == null) {
                    first = e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
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
            throw first;
        }
    }

    /** Runs a task in this thread, its failures as they are. */
    private static void call(Callable<Void> t) throws IOException {
        try {
            t.call();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
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
            Optional<byte[]> raw = store.get(key);
            if (raw.isEmpty()) {
                return new FillChunk(var.fill());
            }
            return decode(key, raw.get());
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

    private ChunkData decode(String key, byte[] data) throws IOException {
        ElementType et = var.element();
        boolean vlen = et.layout() == ElementType.Layout.VLEN_UTF8;
        long expected = (long) chunkElements * et.itemSize();
        CodecPipeline steps = pipeline();
        boolean inScratch = false;
        if (vlen) {
            data = steps.decode(data, MAX_VLEN_CHUNK_BYTES);
        } else if (!steps.isEmpty()) {
            // the last step decodes into this thread's reusable buffer when the size is right
            byte[] scratch = expected <= MAX_SCRATCH_BYTES ? scratch((int) expected) : null;
            data = steps.decodeInto(data, scratch, (int) expected);
            inScratch = scratch != null && data == scratch;
        }
        int size = inScratch ? (int) expected : data.length;
        if (vlen) {
            try {
                return StringChunk.parse(data, et, chunkElements);
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
        if (et.layout() == ElementType.Layout.NUMERIC) {
            return new NumericChunk(data, et.order());
        }
        return StringChunk.parse(data, et, chunkElements);
    }

    /** Largest decode buffer kept per thread for reuse; bigger chunks get a fresh array each. */
    static final int MAX_SCRATCH_BYTES = 256 << 20;

    /**
     * This thread's reusable decode buffer, at least {@code len} bytes. A decoded chunk lives in it
     * only while its task copies it out, before the thread decodes anything else. Soft, so idle
     * threads' buffers can be reclaimed.
     */
    private static final ThreadLocal<java.lang.ref.SoftReference<byte[]>> SCRATCH = new ThreadLocal<>();

    private static byte[] scratch(int len) {
        java.lang.ref.SoftReference<byte[]> ref = SCRATCH.get();
        byte[] b = ref == null ? null : ref.get();
        if (b == null || b.length < len) {
            b = new byte[len];
            SCRATCH.set(new java.lang.ref.SoftReference<>(b));
        }
        return b;
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
                p = V3Chunks.pipeline(var, this::create, chunkElements);
                pipeline = p;
                return p;
            }
            // vlen-utf8 turns bytes into strings: that is the element layout's job (StringChunk)
            p = V2Pipeline.build(
                    a.compressor(),
                    a.filters(),
                    this::create,
                    chunkElements,
                    (long) chunkElements * var.element().itemSize(),
                    var.element().layout() == ElementType.Layout.VLEN_UTF8);
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
