package io.nczarr.chunk;

import io.nczarr.codec.Codec;
import io.nczarr.codec.CodecConfig;
import io.nczarr.codec.CodecPipeline;
import io.nczarr.codec.V2Pipeline;
import io.nczarr.error.CodecException;
import io.nczarr.codec.CodecRegistry;
import io.nczarr.model.ArrayMeta;
import io.nczarr.model.ElementType;
import io.nczarr.model.NcType;
import io.nczarr.model.VarModel;
import io.nczarr.store.Store;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Reads a section of one variable: works out which chunks the section touches, fetches and
 * decodes only those (concurrently when an executor is given), and copies each decoded chunk
 * straight into the result array. Missing chunks read as the fill value.
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
    private final int[] chunkStrides;
    private final int chunkElements;
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
        this.chunkShape = a.chunks().length == 0 ? new int[] {1} : a.chunks();
        this.chunkElements = (int) a.chunkElements();
        int rank = chunkShape.length;
        this.chunkStrides = new int[rank];
        int s = 1;
        if (a.fortranOrder()) {
            for (int d = 0; d < rank; d++) {
                chunkStrides[d] = s;
                s *= chunkShape[d];
            }
        } else {
            for (int d = rank - 1; d >= 0; d--) {
                chunkStrides[d] = s;
                s *= chunkShape[d];
            }
        }
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
                throw new IOException(where() + ": dimension " + d + " is too long to read whole");
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
        int rank = chunkShape.length;
        if (origin.length != rank || count.length != rank || stride.length != rank) {
            throw new IllegalArgumentException("section rank does not match variable rank " + rank);
        }
        long total = 1;
        for (int d = 0; d < rank; d++) {
            if (count[d] < 0 || stride[d] < 1 || origin[d] < 0
                    || (count[d] > 0 && origin[d] + (long) (count[d] - 1) * stride[d] >= arrayShape[d])) {
                throw new IllegalArgumentException("section out of bounds in dimension " + d + " of " + var.name());
            }
            total *= count[d];
            if (total > Integer.MAX_VALUE - 8) {
                throw new IOException(where() + ": section of more than 2^31 elements cannot be one Java array");
            }
        }
        Object dest = allocate(var.type(), (int) total);
        if (total == 0) {
            return dest;
        }
        List<List<Segment>> perDim = new ArrayList<>(rank);
        for (int d = 0; d < rank; d++) {
            perDim.add(segments(origin[d], count[d], stride[d], chunkShape[d]));
        }
        int[] destStrides = new int[rank];
        int ds = 1;
        for (int d = rank - 1; d >= 0; d--) {
            destStrides[d] = ds;
            ds *= count[d];
        }
        List<ChunkTask> tasks = new ArrayList<>();
        int[] pick = new int[rank];
        while (true) {
            Segment[] segs = new Segment[rank];
            for (int d = 0; d < rank; d++) {
                segs[d] = perDim.get(d).get(pick[d]);
            }
            tasks.add(new ChunkTask(segs, origin, stride, destStrides, dest));
            int d = rank - 1;
            while (d >= 0 && ++pick[d] == perDim.get(d).size()) {
                pick[d] = 0;
                d--;
            }
            if (d < 0) {
                break;
            }
        }
        run(tasks);
        return dest;
    }

    private void run(List<ChunkTask> tasks) throws IOException {
        ReadProgress p = progress;
        java.util.concurrent.atomic.AtomicLong done = new java.util.concurrent.atomic.AtomicLong();
        long total = tasks.size();
        if (executor == null || tasks.size() == 1) {
            for (ChunkTask t : tasks) {
                t.call();
                if (p != null) {
                    p.chunksDone(var.name(), done.incrementAndGet(), total);
                }
            }
            return;
        }
        List<Future<Void>> futures = new ArrayList<>(tasks.size());
        for (ChunkTask t : tasks) {
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
                throw new java.io.InterruptedIOException("read of " + var.name() + " interrupted");
            } catch (java.util.concurrent.CancellationException e) {
                // cancelled after an earlier failure
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** Along one dimension: chunk index {@code chunk} covers section positions {@code [m0, m0+n)}. */
    private record Segment(long chunk, int m0, int n) {
    }

    private static List<Segment> segments(long origin, int count, int stride, int chunk) {
        List<Segment> out = new ArrayList<>();
        int m = 0;
        while (m < count) {
            long i = origin + (long) m * stride;
            long ci = i / chunk;
            long chunkEnd = (ci + 1) * chunk;
            long last = Math.min(count - 1, (chunkEnd - 1 - origin) / stride);
            out.add(new Segment(ci, m, (int) (last - m + 1)));
            m = (int) last + 1;
        }
        return out;
    }

    /** Fetch, decode and copy one chunk. */
    private final class ChunkTask implements java.util.concurrent.Callable<Void> {
        private final Segment[] segs;
        private final long[] origin;
        private final int[] stride;
        private final int[] destStrides;
        private final Object dest;

        ChunkTask(Segment[] segs, long[] origin, int[] stride, int[] destStrides, Object dest) {
            this.segs = segs;
            this.origin = origin;
            this.stride = stride;
            this.destStrides = destStrides;
            this.dest = dest;
        }

        @Override
        public Void call() throws IOException {
            long[] idx = new long[segs.length];
            for (int d = 0; d < segs.length; d++) {
                idx[d] = segs[d].chunk();
            }
            ChunkData data = load(idx);
            int rank = segs.length;
            int last = rank - 1;
            int innerCount = segs[last].n();
            int srcStride = stride[last] * chunkStrides[last];
            int[] m = new int[rank];
            for (int d = 0; d < rank; d++) {
                m[d] = segs[d].m0();
            }
            while (true) {
                int src = 0;
                int dst = 0;
                for (int d = 0; d < rank; d++) {
                    long local = origin[d] + (long) m[d] * stride[d] - segs[d].chunk() * chunkShape[d];
                    src += (int) local * chunkStrides[d];
                    dst += m[d] * destStrides[d];
                }
                data.copy(src, srcStride, dest, dst, innerCount);
                int d = last - 1;
                while (d >= 0 && ++m[d] == segs[d].m0() + segs[d].n()) {
                    m[d] = segs[d].m0();
                    d--;
                }
                if (d < 0) {
                    return null;
                }
            }
        }
    }

    /** The store key of a chunk: indexes joined by the dimension separator ({@code "0"} for 0-d). */
    String chunkKey(long[] idx) {
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
        Optional<byte[]> raw = store.get(key);
        if (raw.isEmpty()) {
            return new FillChunk(var.fill());
        }
        try {
            return decode(key, raw.get());
        } catch (CodecException e) {
            throw new IOException(store.location() + ": chunk '" + key + "' of variable " + var.name() + ": "
                    + e.getMessage(), e);
        }
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
                throw new IOException(where(key) + e.getMessage());
            }
        }
        if (size != expected) {
            throw new IOException(where(key) + (!steps.isEmpty()
                    ? "decodes to " + size + " bytes, " + expected + " expected"
                    : "has " + size + " bytes, " + expected + " expected (truncated or wrong chunk size)"));
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

    private String where() {
        return store.location() + ": variable " + var.name();
    }

    private String where(String key) {
        return store.location() + ": chunk '" + key + "' of variable " + var.name() + " ";
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
            // vlen-utf8 turns bytes into strings: that is the element layout's job (StringChunk)
            p = V2Pipeline.build(a.compressor(), a.filters(), this::create, chunkElements,
                    (long) chunkElements * var.element().itemSize(),
                    var.element().layout() == ElementType.Layout.VLEN_UTF8);
            pipeline = p;
        }
        return p;
    }

    private Codec create(CodecConfig c) throws IOException {
        try {
            return codecs.create(c);
        } catch (CodecException e) {
            throw new IOException(store.location() + ": " + var.key() + "/.zarray: variable " + var.name() + ": "
                    + e.getMessage() + (c == var.array().compressor() ? " (compressor)" : " (filter)"), e);
        }
    }
}
