package io.nczarr.chunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.codec.CodecRegistry;
import io.nczarr.meta.MetadataReader;
import io.nczarr.model.DatasetModel;
import io.nczarr.model.GroupModel;
import io.nczarr.model.VarModel;
import io.nczarr.store.ReadPool;
import io.nczarr.store.Store;
import io.nczarr.store.TestStores;
import io.nczarr.testkit.Corpus;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Strided sections read through the chunk reader equal the same elements picked out of a whole
 * read, and touch only the chunks they need.
 */
class SectionReadTest {
    /** Test threads, as a host would pass them in. */
    private static final ReadPool POOL = new ReadPool(2, 8, "section-test");

    /**
     * How many variables of a dataset get random sections compared, and how many have a
     * zero-length dimension (read whole, but there is no section to pick). Together they are every
     * {@code .zarray} of the dataset, so a filter or reader that silently drops variables fails here.
     */
    record Expected(int compared, int zeroLength) {}

    static final Map<String, Expected> CHECKED = Map.ofEntries(
            Map.entry("nczarr_shapes", new Expected(9, 0)),
            Map.entry("nczarr_types", new Expected(12, 0)),
            Map.entry("nczarr_fill", new Expected(9, 0)),
            Map.entry("zarr_dtypes", new Expected(14, 0)),
            Map.entry("zarr_chunk_edges", new Expected(6, 0)),
            Map.entry("edge", new Expected(8, 0)),
            Map.entry("nczarr_scalars", new Expected(6, 0)),
            Map.entry("zarr_scalar_attrs", new Expected(3, 2)),
            // issue 22: shards with inner chunks in morton/colexicographic order, [scale_offset, cast_value] in shards
            Map.entry("autumn_zarr342_codecs", new Expected(7, 0)),
            Map.entry("autumn_eopf_s2_like", new Expected(5, 0)),
            // rectilinear chunk grids, one with a rectilinear outer grid of shards
            Map.entry("autumn_zarr342_rectilinear", new Expected(5, 0)));

    static Stream<String> datasets() {
        return CHECKED.keySet().stream().sorted();
    }

    /** A corpus dataset's store and model, closed together. */
    record Opened(Store store, DatasetModel model) implements AutoCloseable {
        VarModel rootVariable(java.util.function.Predicate<VarModel> which) {
            return model.root().variables().stream().filter(which).findFirst().orElseThrow();
        }

        @Override
        public void close() throws IOException {
            store.close();
        }
    }

    static Opened open(String corpusName) throws IOException {
        DatasetUrl url = DatasetUrl.parse(Corpus.byName(corpusName).url());
        Store store = TestStores.open(url);
        return new Opened(store, MetadataReader.read(store, url.format(), url.useXarrayDimensions()));
    }

    static List<VarModel> variables(GroupModel g) {
        List<VarModel> out = new ArrayList<>(g.variables());
        g.groups().forEach(c -> out.addAll(variables(c)));
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("datasets")
    void randomSectionsMatchWholeRead(String name) throws IOException {
        Random rnd = new Random(42);
        List<String> checked = new ArrayList<>();
        List<String> withoutSections = new ArrayList<>();
        try (Opened o = open(name)) {
            Store store = o.store();
            for (VarModel v : variables(o.model().root())) {
                // no variable is skipped for its codecs: every one of these datasets is readable
                ChunkReader reader = new ChunkReader(store, v, CodecRegistry.standard(), null);
                Object whole = reader.readAll();
                int rank = v.shape().length;
                if (Arrays.stream(v.shape()).anyMatch(len -> len == 0)) {
                    withoutSections.add(v.name());
                    continue;
                }
                for (int trial = 0; trial < 25; trial++) {
                    long[] origin = new long[rank];
                    int[] count = new int[rank];
                    int[] stride = new int[rank];
                    for (int d = 0; d < rank; d++) {
                        int len = (int) v.shape()[d];
                        origin[d] = rnd.nextInt(len);
                        stride[d] = 1 + rnd.nextInt(3);
                        int max = (int) ((len - 1 - origin[d]) / stride[d]) + 1;
                        count[d] = 1 + rnd.nextInt(max);
                    }
                    Object part = new ChunkReader(store, v, CodecRegistry.standard(), POOL.decodePool())
                            .read(origin, count, stride);
                    Object expected = pick(whole, v.shape(), origin, count, stride);
                    assertTrue(java.util.Objects.deepEquals(expected, part), v.name() + " section " + trial);
                }
                checked.add(v.name());
            }
        }
        String found = name + ": variables compared " + checked + ", zero-length " + withoutSections;
        assertEquals(CHECKED.get(name), new Expected(checked.size(), withoutSections.size()), found);
    }

    /** The reference: elements of a whole C-order array picked one by one. */
    static Object pick(Object whole, long[] shape, long[] origin, int[] count, int[] stride) {
        int rank = shape.length;
        int n = 1;
        for (int c : count) {
            n *= c;
        }
        Object out = Array.newInstance(whole.getClass().getComponentType(), n);
        int[] m = new int[rank];
        for (int k = 0; k < n; k++) {
            long idx = 0;
            for (int d = 0; d < rank; d++) {
                idx = idx * shape[d] + origin[d] + (long) m[d] * stride[d];
            }
            Array.set(out, k, Array.get(whole, (int) idx));
            for (int d = rank - 1; d >= 0; d--) {
                if (++m[d] < count[d]) {
                    break;
                }
                m[d] = 0;
            }
        }
        return out;
    }

    @Test
    void aSectionFetchesOnlyTheChunksItTouches() throws IOException {
        // nczarr_shapes /v4d: shape [3, 4, 5, 6], chunks [2, 3, 2, 4]
        try (Opened o = open("nczarr_shapes")) {
            VarModel v = o.rootVariable(x -> x.shape().length == 4);
            CountingStore store = new CountingStore(o.store());
            ChunkReader reader = new ChunkReader(store, v, CodecRegistry.standard(), null);
            int[] c = v.array().chunks();
            // one element in the last chunk of every dimension
            long[] origin = new long[4];
            for (int d = 0; d < 4; d++) {
                origin[d] = v.shape()[d] - 1;
            }
            Object one = reader.read(origin, new int[] {1, 1, 1, 1}, new int[] {1, 1, 1, 1});
            assertEquals(1, Array.getLength(one));
            assertEquals(1, store.fetched.size(), store.fetched.toString());
            String expectedKey = v.key() + "/" + (v.shape()[0] - 1) / c[0] + "." + (v.shape()[1] - 1) / c[1] + "."
                    + (v.shape()[2] - 1) / c[2] + "." + (v.shape()[3] - 1) / c[3];
            assertEquals(Set.of(expectedKey), store.fetched);
            // the first row along the last dimension spans all its chunks and nothing else
            store.fetched.clear();
            reader.read(new long[4], new int[] {1, 1, 1, (int) v.shape()[3]}, new int[] {1, 1, 1, 1});
            assertEquals((v.shape()[3] + c[3] - 1) / c[3], store.fetched.size(), store.fetched.toString());
        }
    }

    @Test
    void progressCountsEveryChunkOnce() throws IOException {
        try (Opened o = open("nczarr_shapes")) {
            Store store = o.store();
            VarModel v = o.rootVariable(x -> x.shape().length == 4);
            for (java.util.concurrent.ExecutorService pool : java.util.Arrays.asList(null, POOL.decodePool())) {
                ChunkReader reader = new ChunkReader(store, v, CodecRegistry.standard(), pool);
                java.util.concurrent.atomic.AtomicLong calls = new java.util.concurrent.atomic.AtomicLong();
                java.util.concurrent.atomic.AtomicLong maxDone = new java.util.concurrent.atomic.AtomicLong();
                long[] total = new long[1];
                reader.setProgress((name, done, t) -> {
                    calls.incrementAndGet();
                    maxDone.accumulateAndGet(done, Math::max);
                    total[0] = t;
                });
                reader.readAll();
                long chunks = 1;
                for (int d = 0; d < 4; d++) {
                    chunks *= (v.shape()[d] + v.array().chunks()[d] - 1)
                            / v.array().chunks()[d];
                }
                assertEquals(chunks, calls.get());
                assertEquals(chunks, maxDone.get());
                assertEquals(chunks, total[0]);
            }
        }
    }

    @Test
    void parallelAndSequentialReadsAgree() throws IOException {
        try (Opened o = open("nczarr_shapes")) {
            Store store = o.store();
            for (VarModel v : o.model().root().variables()) {
                Object seq = new ChunkReader(store, v, CodecRegistry.standard(), null).readAll();
                Object par = new ChunkReader(store, v, CodecRegistry.standard(), POOL.decodePool()).readAll();
                assertTrue(java.util.Objects.deepEquals(seq, par), v.name());
            }
        }
    }

    @Test
    void fortranOrderChunksAreTransposed() throws IOException {
        try (Opened o = open("zarr_dtypes")) {
            Store store = o.store();
            VarModel f = o.rootVariable(x -> x.name().equals("order_F_2d"));
            assertTrue(f.array().fortranOrder());
            Object whole = new ChunkReader(store, f, CodecRegistry.standard(), null).readAll();
            // written by zarr-python as np.arange(n).reshape(shape): C-order values 0, 1, 2, ...
            long[] expected = new long[Array.getLength(whole)];
            for (int i = 0; i < expected.length; i++) {
                expected[i] = i;
            }
            long[] actual = new long[expected.length];
            for (int i = 0; i < actual.length; i++) {
                actual[i] = ((Number) Array.get(whole, i)).longValue();
            }
            assertArrayEquals(expected, actual);
        }
    }
}
