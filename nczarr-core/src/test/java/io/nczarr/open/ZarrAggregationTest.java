package io.nczarr.open;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.aggregation.AggregatedVariable;
import io.nczarr.error.NcZarrException;
import io.nczarr.read.ArraySection;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A CF-1.13 aggregation read by the core alone, as a Spark executor reads it: the aggregation file is a Zarr store
 * and its fragments are Zarr stores beside it (written here byte by byte: uncompressed little-endian chunks), one
 * of them of another type (float64 into the float32 aggregation).
 */
class ZarrAggregationTest {
    @TempDir
    Path dir;

    static void array(Path store, String name, String shape, String dtype, String attrs, byte[] chunk)
            throws IOException {
        Path a = store.resolve(name);
        Files.createDirectories(a);
        String chunks = shape.equals("[]") ? "[]" : shape;
        Files.writeString(
                a.resolve(".zarray"),
                "{\"zarr_format\": 2, \"shape\": " + shape + ", \"chunks\": " + chunks + ", \"dtype\": \"" + dtype
                        + "\", \"compressor\": null, \"fill_value\": null, \"order\": \"C\", \"filters\": null}");
        Files.writeString(a.resolve(".zattrs"), attrs);
        if (chunk != null) {
            Files.write(a.resolve("0"), chunk);
        }
    }

    static void group(Path store) throws IOException {
        Files.createDirectories(store);
        Files.writeString(store.resolve(".zgroup"), "{\"zarr_format\": 2}");
    }

    static byte[] floats(float... v) {
        ByteBuffer b = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float x : v) {
            b.putFloat(x);
        }
        return b.array();
    }

    static byte[] doubles(double... v) {
        ByteBuffer b = ByteBuffer.allocate(8 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (double x : v) {
            b.putDouble(x);
        }
        return b.array();
    }

    static byte[] longs(long... v) {
        ByteBuffer b = ByteBuffer.allocate(8 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (long x : v) {
            b.putLong(x);
        }
        return b.array();
    }

    private void write(String f1Units) throws IOException {
        Path agg = dir.resolve("agg.zarr");
        group(agg);
        array(agg, "time", "[5]", "<f8", "{\"_ARRAY_DIMENSIONS\": [\"time\"]}", doubles(0, 1, 2, 3, 4));
        array(agg, "fragment_map", "[2]", "<i8", "{\"_ARRAY_DIMENSIONS\": [\"i\"]}", longs(2, 3));
        array(
                agg,
                "fragment_uris",
                "[2]",
                "|S7",
                "{\"_ARRAY_DIMENSIONS\": [\"f\"]}",
                "f0.zarrf1.zarr".getBytes(StandardCharsets.US_ASCII));
        array(
                agg,
                "fragment_identifiers",
                "[2]",
                "|S3",
                "{\"_ARRAY_DIMENSIONS\": [\"f\"]}",
                "tastas".getBytes(StandardCharsets.US_ASCII));
        array(
                agg,
                "tas",
                "[]",
                "<f4",
                "{\"_ARRAY_DIMENSIONS\": [], \"units\": \"K\", \"aggregated_dimensions\": \"time\","
                        + " \"aggregated_data\": \"map: fragment_map uris: fragment_uris"
                        + " identifiers: fragment_identifiers\"}",
                null);
        Path f0 = dir.resolve("f0.zarr");
        group(f0);
        array(f0, "tas", "[2]", "<f4", "{\"_ARRAY_DIMENSIONS\": [\"time\"], \"units\": \"K\"}", floats(280.5f, 281f));
        Path f1 = dir.resolve("f1.zarr");
        group(f1);
        array(
                f1,
                "tas",
                "[3]",
                "<f8",
                "{\"_ARRAY_DIMENSIONS\": [\"time\"], \"units\": \"" + f1Units + "\"}",
                doubles(282.25, 283, 284.75));
    }

    private OpenDataset open() throws IOException {
        return Datasets.open(
                Datasets.parse(dir.resolve("agg.zarr").toUri() + "#mode=zarr,file"), NcZarrOptions.shared());
    }

    @Test
    void zarrFragmentsAreReadWithoutAHost() throws IOException {
        write("K");
        try (OpenDataset ds = open();
                ZarrAggregation agg = ZarrAggregation.of(ds)) {
            AggregatedVariable tas = agg.variables().get("/tas");
            assertArrayEquals(new long[] {5}, tas.shape());
            assertEquals(List.of("/time"), tas.dimensions());
            assertTrue(tas.attributes().stream().noneMatch(a -> a.name().startsWith("aggregated_")));
            assertTrue(
                    agg.bookkeeping().containsAll(List.of("/fragment_map", "/fragment_uris", "/fragment_identifiers")));
            assertArrayEquals(
                    new float[] {280.5f, 281f, 282.25f, 283f, 284.75f},
                    tas.readAll().floats());
            assertArrayEquals(
                    new float[] {281f, 284.75f},
                    tas.read(new ArraySection(new long[] {1}, new int[] {2}, new int[] {3}))
                            .floats());
            assertEquals(2, agg.fragmentCounts()[0]);
        }
    }

    @Test
    void otherUnitsAreRefusedWithoutAUnitsLibraryNamingTheFragment() throws IOException {
        write("degC");
        try (OpenDataset ds = open();
                ZarrAggregation agg = ZarrAggregation.of(ds)) {
            AggregatedVariable tas = agg.variables().get("/tas");
            NcZarrException e = assertThrows(NcZarrException.class, tas::readAll);
            assertTrue(e.getMessage().contains("degC") && e.getMessage().contains("f1.zarr"), e.getMessage());
            assertEquals("tas", e.variable());
        }
    }
}
