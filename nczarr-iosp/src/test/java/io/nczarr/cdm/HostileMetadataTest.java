package io.nczarr.cdm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.nczarr.error.MetadataException;
import io.nczarr.error.NcZarrException;
import io.nczarr.error.UnsupportedFeatureException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import ucar.nc2.NetcdfFile;

/**
 * The hostile metadata issue 10 names, one case each, on real corpus datasets: deep nesting, names
 * listed twice, dimension references to nothing, names netCDF or netCDF-Java cannot take, overflowing
 * sizes. Each is refused with the given exception type naming the key and what is wrong, or opens and
 * reads cleanly.
 */
class HostileMetadataTest {

    /**
     * A change to a seed dataset and what must come of it.
     *
     * @param key the key the error must name; {@code null}: the dataset must open and read
     * @param mention a word the error must contain besides the key
     */
    private record Case(
            String name,
            String seed,
            UnaryOperator<NavigableMap<String, byte[]>> change,
            Class<? extends NcZarrException> type,
            String key,
            String mention) {

        static Case refused(
                String name,
                String seed,
                UnaryOperator<NavigableMap<String, byte[]>> change,
                String key,
                String mention) {
            return new Case(name, seed, change, MetadataException.class, key, mention);
        }

        static Case opens(String name, String seed, UnaryOperator<NavigableMap<String, byte[]>> change) {
            return new Case(name, seed, change, null, null, null);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private static final String GROUPS_ROOT =
            "{\"zarr_format\": 2, \"_NCZARR_SUPERBLOCK\": {\"version\": \"2.0.0\"}, \"_NCZARR_GROUP\": {\"dims\":"
                    + " {\"time\": 4, \"x\": 5}, \"vars\": %s, \"groups\": %s}}";

    private static List<Case> cases() {
        return List.of(
                Case.refused(
                        "100,000 nested arrays in .zattrs",
                        "nczarr_groups",
                        m -> put(m, ".zattrs", "{\"a\": " + HostileJson.nested(100_000) + "}"),
                        ".zattrs",
                        "nesting depth"),
                Case.refused(
                        "100,000 nested objects in a .zarray",
                        "nczarr_groups",
                        m -> put(m, "time/.zarray", HostileJson.nestedObjects(100_000)),
                        "time/.zarray",
                        "nesting depth"),
                Case.refused(
                        "a .zmetadata that is 100,000 nested arrays",
                        "zarr_groups_consolidated",
                        m -> put(m, ".zmetadata", HostileJson.nested(100_000)),
                        ".zmetadata",
                        "nesting depth"),
                Case.opens(
                        "JSON 999 deep in an attribute (within the limit)",
                        "nczarr_groups",
                        m -> put(m, ".zattrs", "{\"a\": " + HostileJson.nested(999) + "}")),
                Case.refused(
                        "a variable listed twice",
                        "nczarr_groups",
                        m -> put(m, ".zgroup", GROUPS_ROOT.formatted("[\"time\", \"x\", \"time\"]", "[\"forecast\"]")),
                        ".zgroup",
                        "'time' twice"),
                Case.refused(
                        "a group listed twice",
                        "nczarr_groups",
                        m -> put(m, ".zgroup", GROUPS_ROOT.formatted("[\"time\", \"x\"]", "[\"obs\", \"obs\"]")),
                        ".zgroup",
                        "'obs' twice"),
                Case.refused(
                        "a name that is both a variable and a group",
                        "nczarr_groups",
                        m -> put(m, ".zgroup", GROUPS_ROOT.formatted("[\"time\", \"obs\"]", "[\"forecast\", \"obs\"]")),
                        ".zgroup",
                        "'obs' both as a variable and as a subgroup"),
                Case.refused(
                        "a dimension reference to nothing",
                        "nczarr_groups",
                        m -> put(m, "x/.zarray", text(m, "x/.zarray").replace("\"/x\"", "\"/nosuch\"")),
                        "x/.zarray",
                        "'/nosuch'"),
                Case.refused(
                        "a dimension reference through '..'",
                        "nczarr_groups",
                        m -> put(m, "x/.zarray", text(m, "x/.zarray").replace("\"/x\"", "\"/forecast/../x\"")),
                        "x/.zarray",
                        "/forecast/../x"),
                Case.refused(
                        "a dimension reference naming a group",
                        "nczarr_groups",
                        m -> put(m, "x/.zarray", text(m, "x/.zarray").replace("\"/x\"", "\"/forecast\"")),
                        "x/.zarray",
                        "'/forecast'"),
                Case.refused(
                        "a dimension of 2^63-1",
                        "nczarr_groups",
                        m -> put(
                                m,
                                ".zgroup",
                                text(m, ".zgroup").replace("\"time\": 4", "\"time\": 9223372036854775807")),
                        "time/.zarray",
                        "9223372036854775807"),
                Case.refused(
                        "a dimension of 2^64",
                        "nczarr_groups",
                        m -> put(
                                m,
                                ".zgroup",
                                text(m, ".zgroup").replace("\"time\": 4", "\"time\": 18446744073709551616")),
                        ".zgroup",
                        "not an integer"),
                Case.refused(
                        "a shape whose product overflows a long",
                        "zarr_zip",
                        m -> put(
                                m,
                                "sub/flags/.zarray",
                                "{\"zarr_format\": 2, \"shape\": [4294967296, 4294967296], \"chunks\": [1, 1],"
                                        + " \"dtype\": \"|u1\", \"fill_value\": 0, \"compressor\": null}"),
                        "sub/flags/.zarray",
                        "2^63"),
                Case.opens(
                        "an attribute type of 11 digits (no nc_type: the value's own type)",
                        "nczarr_groups",
                        m -> put(m, ".zattrs", "{\"a\": 1, \"_NCZARR_ATTR\": {\"types\": {\"a\": \"99999999999\"}}}")),
                Case.refused(
                        "_nczarr_attr that is a string",
                        "nczarr_groups",
                        m -> put(m, ".zattrs", "{\"a\": 1, \"_NCZARR_ATTR\": \"x\"}"),
                        ".zattrs",
                        "_nczarr_attr"),
                Case.refused("an empty .zgroup", "nczarr_groups", m -> put(m, ".zgroup", ""), ".zgroup", "empty"),
                Case.refused(
                        "non-UTF-8 bytes in .zattrs",
                        "nczarr_groups",
                        m -> {
                            m.put(".zattrs", new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xFF, '"', '}'});
                            return m;
                        },
                        ".zattrs",
                        "UTF-8"),
                Case.refused(
                        "a variable name with a control character",
                        "nczarr_groups",
                        m -> put(m, ".zgroup", GROUPS_ROOT.formatted("[\"time\", \"x\\u0001\"]", "[]")),
                        ".zgroup",
                        "control character"),
                Case.refused(
                        "a dimension name with a trailing blank",
                        "nczarr_groups",
                        m -> put(m, ".zgroup", text(m, ".zgroup").replace("\"x\": 5", "\"x \": 5")),
                        ".zgroup",
                        "blank"),
                Case.opens("an NCZarr scalar stored as [1, 1] (read as its one element)", "nczarr_scalars", m -> {
                    m.put("s_int/0.0", m.remove("s_int/0"));
                    return put(m, "s_int/.zarray", text(m, "s_int/.zarray").replace("[1]", "[1, 1]"));
                }),
                Case.opens(
                        "_ARRAY_DIMENSIONS with a NUL character (anonymous dimensions instead)",
                        "zarr_zip",
                        m -> put(m, "values/.zattrs", "{\"_ARRAY_DIMENSIONS\": [\"row\\u0000\", \"col\"]}")),
                new Case(
                        "arrays 'a b' and 'a_b', one name to netCDF-Java",
                        "zarr_zip",
                        m -> {
                            m.put("a b/.zarray", m.get("sub/flags/.zarray"));
                            m.put("a_b/.zarray", m.get("sub/flags/.zarray"));
                            return m;
                        },
                        UnsupportedFeatureException.class,
                        "a_b/.zarray",
                        "'a_b'"));
    }

    @TestFactory
    Stream<DynamicTest> hostileMetadata() {
        return cases().stream().map(c -> dynamicTest(c.name(), () -> check(c)));
    }

    private static void check(Case c) {
        FuzzSeeds.Seed seed = FuzzSeeds.byName(c.seed());
        String location = "memory:hostile/" + c.name().replaceAll("[^A-Za-z0-9]+", "_");
        NavigableMap<String, byte[]> objects = c.change().apply(new TreeMap<>(seed.objects()));
        FuzzOutcome o = assertTimeoutPreemptively(
                Duration.ofSeconds(10), () -> FuzzProbe.openAndRead(location, objects, seed.format(), seed.xarray()));
        if (c.type() == null) {
            assertEquals(FuzzOutcome.Kind.OPENED_AND_READ, o.kind(), o::toString);
            return;
        }
        assertEquals(FuzzOutcome.Kind.CLEAN_ERROR, o.kind(), o::toString);
        NcZarrException e = openError(location, objects, seed);
        assertTrue(c.type().isInstance(e), e::toString);
        assertEquals(c.key(), e.key(), e::getMessage);
        assertTrue(e.getMessage().contains(c.mention()), e::getMessage);
        assertNotEquals(null, e.dataset());
    }

    private static NcZarrException openError(
            String location, NavigableMap<String, byte[]> objects, FuzzSeeds.Seed seed) {
        try (NetcdfFile nc = FuzzProbe.open(location, objects, seed.format(), seed.xarray())) {
            throw new AssertionError("opened: " + nc.getLocation());
        } catch (NcZarrException e) {
            return e;
        } catch (IOException e) {
            throw new AssertionError("not the project's exception", e);
        }
    }

    private static NavigableMap<String, byte[]> put(NavigableMap<String, byte[]> m, String key, String text) {
        m.put(key, text.getBytes(StandardCharsets.UTF_8));
        return m;
    }

    private static String text(NavigableMap<String, byte[]> m, String key) {
        return new String(m.get(key), StandardCharsets.UTF_8);
    }
}
