package io.nczarr.cdm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.time.Duration;
import java.util.NavigableMap;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Hostile metadata (issue 10): the metadata of every real dataset of the corpus, mutated
 * ({@link MetadataMutator}), opened through the binding and read. Every case must end in the
 * project's exception naming the dataset, or open and read without anything else escaping; counts by
 * outcome are printed. Deterministic: the seed ({@code -Dfuzz.seed}) is printed, each case's own seed
 * is derived from it, the dataset and the case number. {@link HostileMetadataTest} pins the known
 * dangers one by one.
 */
class MetadataFuzzTest {

    static final long SEED = Long.getLong("fuzz.seed", 0x5EED_0010L);
    static final int CASES_PER_DATASET = Integer.getInteger("fuzz.metadata.casesPerDataset", 140);
    /** {@code -Dfuzz.verbose=true} prints every case and its outcome, and the counts per dataset. */
    static final boolean VERBOSE = Boolean.getBoolean("fuzz.verbose");
    /** A case slower than this counts as a hang. */
    static final Duration SLOW = Duration.ofSeconds(10);

    private static final FuzzOutcome.Kind[] KINDS = {
        FuzzOutcome.Kind.CLEAN_ERROR, FuzzOutcome.Kind.OPENED_AND_READ, FuzzOutcome.Kind.ESCAPE
    };
    private static final FuzzTally TOTAL = new FuzzTally();

    @AfterAll
    static void report() {
        System.out.println("metadata fuzz, seed 0x" + Long.toHexString(SEED) + ": " + TOTAL.summary(KINDS));
    }

    /** One dynamic test per corpus dataset, each running its mutations. */
    @TestFactory
    Stream<DynamicTest> mutatedCorpus() {
        return FuzzSeeds.all().stream().map(seed -> dynamicTest(seed.name(), () -> fuzz(seed)));
    }

    private static void fuzz(FuzzSeeds.Seed seed) {
        long datasetSeed = SEED * 31 + seed.name().hashCode();
        FuzzTally tally = new FuzzTally();
        assertTimeoutPreemptively(Duration.ofMinutes(2), () -> {
            for (int i = 0; i < CASES_PER_DATASET; i++) {
                long caseSeed = datasetSeed + i * 0x9E3779B97F4A7C15L;
                MetadataMutator.Mutation m = MetadataMutator.mutate(seed, new Random(caseSeed));
                String name = seed.name() + " #" + i + " (case seed 0x" + Long.toHexString(caseSeed) + ": "
                        + m.description() + ")";
                FuzzOutcome o = run("memory:fuzz/" + seed.name() + "/" + i, seed, m.objects());
                if (VERBOSE) {
                    System.out.println(name + " -> " + o);
                }
                tally.add(name, o);
            }
        });
        TOTAL.addAll(tally);
        if (VERBOSE) {
            System.out.println("metadata fuzz " + seed.name() + ": " + tally.report(KINDS));
        }
        assertEquals(0, tally.count(FuzzOutcome.Kind.ESCAPE), () -> tally.report(KINDS));
    }

    private static FuzzOutcome run(String location, FuzzSeeds.Seed seed, NavigableMap<String, byte[]> objects) {
        long start = System.nanoTime();
        FuzzOutcome o = FuzzProbe.openAndRead(location, objects, seed.format(), seed.xarray());
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        return took.compareTo(SLOW) > 0 ? FuzzOutcome.escape("took " + took + " (" + o + ")") : o;
    }
}
