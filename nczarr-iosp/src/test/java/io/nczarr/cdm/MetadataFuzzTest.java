package io.nczarr.cdm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.nczarr.error.MetadataException;
import io.nczarr.error.NcZarrException;
import io.nczarr.error.UnsupportedFeatureException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Hostile metadata (issue 10): the metadata of every real dataset of the corpus, mutated
 * ({@link MetadataMutator}), opened through the binding and read. Every case must end in the
 * project's exception naming the dataset, or open and read without anything else escaping; counts by
 * outcome are printed. Deterministic: the seed ({@code -Dfuzz.seed}) is printed, each case's own seed
 * is derived from it, the dataset and the case number. A few hand-made cases pin the known dangers.
 */
class MetadataFuzzTest {

    static final long SEED = Long.getLong("fuzz.seed", 0x5EED_0010L);
    static final int CASES_PER_DATASET = Integer.getInteger("fuzz.metadata.casesPerDataset", 140);
    /** {@code -Dfuzz.verbose=true} prints every case and its outcome. */
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
        System.out.println("metadata fuzz " + seed.name() + ": " + tally.report(KINDS));
        assertEquals(0, tally.count(FuzzOutcome.Kind.ESCAPE), () -> tally.report(KINDS));
    }

    private static FuzzOutcome run(String location, FuzzSeeds.Seed seed, NavigableMap<String, byte[]> objects) {
        long start = System.nanoTime();
        FuzzOutcome o = FuzzProbe.openAndRead(location, objects, seed.format(), seed.xarray());
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        return took.compareTo(SLOW) > 0 ? FuzzOutcome.escape("took " + took + " (" + o + ")") : o;
    }

    // ---- hand-made cases ------------------------------------------------------------------------

    /**
     * A named change to one seed, the key its error must name ({@code null}: it must open and read) and
     * the type of that error.
     */
    private record Case(
            String name,
            String seed,
            UnaryOperator<NavigableMap<String, byte[]>> change,
            String key,
            Class<? extends NcZarrException> type) {

        Case(String name, String seed, UnaryOperator<NavigableMap<String, byte[]>> change, String key) {
            this(name, seed, change, key, MetadataException.class);
        }
    }

    private static NavigableMap<String, byte[]> put(NavigableMap<String, byte[]> m, String key, String text) {
        m.put(key, text.getBytes(StandardCharsets.UTF_8));
        return m;
    }

    private static String text(NavigableMap<String, byte[]> m, String key) {
        return new String(m.get(key), StandardCharsets.UTF_8);
    }

    private static final String GROUPS_ROOT =
            "{\"zarr_format\": 2, \"_NCZARR_SUPERBLOCK\": {\"version\": \"2.0.0\"}, \"_NCZARR_GROUP\": {\"dims\":"
                    + " {\"time\": 4, \"x\": 5}, \"vars\": %s, \"groups\": %s}}";

    private static List<Case> cases() {
        List<Case> c = new ArrayList<>();
        c.add(new Case(
                "100,000 nested arrays in .zattrs",
                "nczarr_groups",
                m -> put(m, ".zattrs", "{\"a\": " + HostileJson.nested(100_000) + "}"),
                ".zattrs"));
        c.add(new Case(
                "100,000 nested objects in a .zarray",
                "nczarr_groups",
                m -> put(m, "time/.zarray", HostileJson.nestedObjects(100_000)),
                "time/.zarray"));
        c.add(new Case(
                "a .zmetadata that is 100,000 nested arrays",
                "zarr_groups_consolidated",
                m -> put(m, ".zmetadata", HostileJson.nested(100_000)),
                ".zmetadata"));
        c.add(new Case(
                "a variable listed twice",
                "nczarr_groups",
                m -> put(m, ".zgroup", GROUPS_ROOT.formatted("[\"time\", \"x\", \"time\"]", "[\"forecast\", \"obs\"]")),
                ".zgroup"));
        c.add(new Case(
                "a group listed twice",
                "nczarr_groups",
                m -> put(m, ".zgroup", GROUPS_ROOT.formatted("[\"time\", \"x\"]", "[\"forecast\", \"obs\", \"obs\"]")),
                ".zgroup"));
        c.add(new Case(
                "a name that is both a variable and a group",
                "nczarr_groups",
                m -> put(m, ".zgroup", GROUPS_ROOT.formatted("[\"time\", \"x\", \"obs\"]", "[\"forecast\", \"obs\"]")),
                ".zgroup"));
        c.add(new Case(
                "a dimension reference to nothing",
                "nczarr_groups",
                m -> put(m, "x/.zarray", text(m, "x/.zarray").replace("\"/x\"", "\"/nosuch\"")),
                "x/.zarray"));
        c.add(new Case(
                "a dimension reference through '..'",
                "nczarr_groups",
                m -> put(m, "x/.zarray", text(m, "x/.zarray").replace("\"/x\"", "\"/forecast/../x\"")),
                "x/.zarray"));
        c.add(new Case(
                "a dimension reference naming a group",
                "nczarr_groups",
                m -> put(m, "x/.zarray", text(m, "x/.zarray").replace("\"/x\"", "\"/forecast\"")),
                "x/.zarray"));
        c.add(new Case(
                "an attribute type that is no int",
                "nczarr_groups",
                m -> put(m, ".zattrs", "{\"a\": 1, \"_NCZARR_ATTR\": {\"types\": {\"a\": \"99999999999\"}}}"),
                null));
        c.add(new Case(
                "a dimension of 2^63-1",
                "nczarr_groups",
                m -> put(m, ".zgroup", text(m, ".zgroup").replace("\"time\": 4", "\"time\": 9223372036854775807")),
                "time/.zarray"));
        c.add(new Case(
                "a shape whose product overflows a long",
                "zarr_dtypes",
                m -> put(
                        m, firstKey(m, ".zarray"), shaped(text(m, firstKey(m, ".zarray")), "[4294967296, 4294967296]")),
                null));
        c.add(new Case("an empty .zgroup", "nczarr_groups", m -> put(m, ".zgroup", ""), ".zgroup"));
        c.add(new Case(
                "a variable name with a control character",
                "nczarr_groups",
                m -> put(m, ".zgroup", GROUPS_ROOT.formatted("[\"time\", \"x\\u0001\"]", "[\"forecast\", \"obs\"]")),
                ".zgroup"));
        c.add(new Case(
                "a dimension name with a trailing blank",
                "nczarr_groups",
                m -> put(m, ".zgroup", text(m, ".zgroup").replace("\"x\": 5", "\"x \": 5")),
                ".zgroup"));
        c.add(new Case(
                "_ARRAY_DIMENSIONS with a NUL character (anonymous dimensions instead)",
                "zarr_zip",
                m -> put(m, "values/.zattrs", "{\"_ARRAY_DIMENSIONS\": [\"row\\u0000\", \"col\"]}"),
                null));
        c.add(new Case(
                "arrays 'a b' and 'a_b', one name to netCDF-Java",
                "zarr_zip",
                m -> {
                    m.put("a b/.zarray", m.get("sub/flags/.zarray"));
                    m.put("a_b/.zarray", m.get("sub/flags/.zarray"));
                    return m;
                },
                "a_b/.zarray",
                UnsupportedFeatureException.class));
        c.add(new Case(
                "non-UTF-8 bytes in .zattrs",
                "nczarr_groups",
                m -> {
                    m.put(".zattrs", new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xFF, (byte) 0xFE, '"', '}'});
                    return m;
                },
                ".zattrs"));
        return c;
    }

    private static String firstKey(NavigableMap<String, byte[]> m, String suffix) {
        return m.keySet().stream()
                .filter(k -> k.endsWith("/" + suffix))
                .findFirst()
                .orElseThrow();
    }

    private static String shaped(String zarray, String shape) {
        return zarray.replaceFirst("\"shape\": *\\[[^]]*]", "\"shape\": " + shape)
                .replaceFirst("\"chunks\": *\\[[^]]*]", "\"chunks\": [1, 1]");
    }

    /** The hand-made cases: each a clean MetadataException naming its key, or a clean open and read. */
    @TestFactory
    Stream<DynamicTest> handMadeCases() {
        return cases().stream()
                .map(c -> dynamicTest(c.name(), () -> {
                    FuzzSeeds.Seed seed = FuzzSeeds.byName(c.seed());
                    String location = "memory:handmade/" + c.name().replace(' ', '_');
                    NavigableMap<String, byte[]> objects = c.change().apply(new TreeMap<>(seed.objects()));
                    FuzzOutcome o = assertTimeoutPreemptively(
                            SLOW, () -> FuzzProbe.openAndRead(location, objects, seed.format(), seed.xarray()));
                    if (c.key() == null) {
                        assertTrue(o.kind() != FuzzOutcome.Kind.ESCAPE, o::toString);
                        return;
                    }
                    assertEquals(FuzzOutcome.Kind.CLEAN_ERROR, o.kind(), o::toString);
                    NcZarrException e = openError(location, objects, seed);
                    assertTrue(c.type().isInstance(e), e::toString);
                    assertTrue(e.getMessage().contains(c.key()), e::getMessage);
                }));
    }

    private static NcZarrException openError(
            String location, NavigableMap<String, byte[]> objects, FuzzSeeds.Seed seed) {
        try (var nc = FuzzProbe.open(location, objects, seed.format(), seed.xarray())) {
            throw new AssertionError("opened: " + nc.getLocation());
        } catch (NcZarrException e) {
            return e;
        } catch (java.io.IOException e) {
            throw new AssertionError("not the project's exception", e);
        }
    }
}
