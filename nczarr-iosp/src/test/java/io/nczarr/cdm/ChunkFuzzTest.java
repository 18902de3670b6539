package io.nczarr.cdm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.nczarr.read.ZarrVariableReader;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/**
 * Corrupt chunks (issue 10): for every codec configuration of the corpus ({@link ChunkTargets}) real
 * chunks are truncated, extended, bit-flipped, replaced and emptied ({@link ChunkMutator}), and the
 * variable is read whole. Each read must give the project's exception naming dataset and chunk key,
 * the data of the intact chunk, or (only where nothing protects the chunk: no checksum anywhere in
 * its chain) different data. Wrong data from a checksummed chunk is silent corruption, an escape like
 * any other exception. The seed ({@code -Dfuzz.seed}) is printed; counts by outcome too.
 */
class ChunkFuzzTest {

    static final long SEED = Long.getLong("fuzz.seed", 0x5EED_0010L);
    /**
     * Corruptions per encoded chunk; uncompressed chunks (half the corpus, and little to find: any
     * bytes of the right size are data) get a third as many. About 5,000 cases over the corpus.
     */
    static final int CASES_PER_CHUNK = Integer.getInteger("fuzz.chunk.casesPerChunk", 24);

    private static final FuzzOutcome.Kind[] KINDS = {
        FuzzOutcome.Kind.CLEAN_ERROR,
        FuzzOutcome.Kind.CORRECT_DATA,
        FuzzOutcome.Kind.DIFFERENT_DATA_ALLOWED,
        FuzzOutcome.Kind.ESCAPE
    };
    private static final FuzzTally TOTAL = new FuzzTally();
    /** Per codec chain (and whether a checksum protects it), for the report. */
    private static final Map<String, FuzzTally> BY_CHAIN = new ConcurrentSkipListMap<>();

    @AfterAll
    static void report() {
        System.out.println("chunk fuzz, seed 0x" + Long.toHexString(SEED) + ": " + TOTAL.summary(KINDS));
        BY_CHAIN.forEach((chain, t) -> System.out.println("  " + chain + ": " + t.summary(KINDS)));
    }

    /** One dynamic test per chunk target. */
    @TestFactory
    Stream<DynamicTest> corruptChunks() {
        List<ChunkTargets.Target> targets = ChunkTargets.all();
        return targets.stream().map(t -> dynamicTest(t.name() + " [" + t.codecs() + "]", () -> fuzz(t)));
    }

    private static void fuzz(ChunkTargets.Target t) throws Exception {
        Object expected = read(t, t.objects(), "memory:chunkfuzz/" + t.name() + "/intact");
        long targetSeed = SEED * 31 + t.name().hashCode();
        FuzzTally tally = new FuzzTally();
        // the intact chunk must read as itself: the one outcome the comparison has to get right
        tally.add(t.name() + " intact", outcome(t, t.objects(), -1, expected));
        assertTimeoutPreemptively(Duration.ofMinutes(1), () -> {
            int cases = t.codecs().equals("raw") ? CASES_PER_CHUNK / 3 : CASES_PER_CHUNK;
            for (int i = 0; i < cases; i++) {
                long caseSeed = targetSeed + i * 0x9E3779B97F4A7C15L;
                byte[] chunk = t.objects().get(t.chunkKey());
                ChunkMutator.Mutation m = ChunkMutator.mutate(chunk, new Random(caseSeed));
                NavigableMap<String, byte[]> objects = new TreeMap<>(t.objects());
                objects.put(t.chunkKey(), m.bytes());
                String name = t.name() + " [" + t.codecs() + "] #" + i + " (case seed 0x" + Long.toHexString(caseSeed)
                        + ": " + m.description() + ")";
                tally.add(name, outcome(t, objects, i, expected));
            }
        });
        TOTAL.addAll(tally);
        BY_CHAIN.computeIfAbsent(t.codecs() + (t.checksummed() ? " (checksummed)" : ""), k -> new FuzzTally())
                .addAll(tally);
        assertEquals(0, tally.count(FuzzOutcome.Kind.ESCAPE), () -> tally.report(KINDS));
    }

    private static FuzzOutcome outcome(
            ChunkTargets.Target t, NavigableMap<String, byte[]> objects, int i, Object expected) {
        String location = "memory:chunkfuzz/" + t.name() + "/" + i;
        Object data;
        try {
            data = read(t, objects, location);
        } catch (Throwable e) { // an Error is exactly what this looks for
            return FuzzOutcome.ofFailure(e, location, t.chunkKey());
        }
        if (Objects.deepEquals(data, expected)) {
            return FuzzOutcome.of(FuzzOutcome.Kind.CORRECT_DATA);
        }
        if (i < 0) {
            return FuzzOutcome.escape("the intact chunk reads differently the second time");
        }
        return t.checksummed()
                ? FuzzOutcome.escape("silent corruption: a checksummed chunk read as different data")
                : FuzzOutcome.of(FuzzOutcome.Kind.DIFFERENT_DATA_ALLOWED);
    }

    /** The target's variable, read whole through the binding, as a Java array. */
    private static Object read(ChunkTargets.Target t, NavigableMap<String, byte[]> objects, String location)
            throws IOException {
        try (NetcdfFile nc = FuzzProbe.open(location, objects, t.format(), t.xarray())) {
            for (Variable v : nc.getVariables()) {
                if (((ZarrVariableReader) v.getSPobject()).variable().key().equals(t.variableKey())) {
                    return v.read().copyTo1DJavaArray();
                }
            }
            throw new AssertionError("no variable " + t.variableKey() + " in " + t.name());
        }
    }
}
