package io.nczarr.store.kerchunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.LimitExceededException;
import io.nczarr.error.StoreException;
import io.nczarr.store.MemoryLimits;
import io.nczarr.store.Store;
import io.nczarr.store.StoreResources;
import io.nczarr.store.Stores;
import io.nczarr.store.TestStores;
import io.nczarr.testkit.Corpus;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ParquetReferenceStore} on test-data/parquet-refs and broken copies of it: chunk keys to records, inline,
 * range and missing chunks, the record cache and its budget, and clear errors naming the dataset, the key and the
 * record file for a broken {@code .zmetadata}, a corrupt or short record file, or a limit.
 */
class ParquetReferenceStoreTest {
    @TempDir
    Path tmp;

    static Path source() {
        return Corpus.testDataDir().resolve("parquet-refs");
    }

    /** A copy of folder {@code name} (and the netCDF file its references point to) in the temp dir. */
    Path copy(String name) throws IOException {
        Path to = tmp.resolve(name);
        Path from = source().resolve(name);
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Path q = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(q);
                } else {
                    Files.copy(p, q);
                }
            }
        }
        String nc = name.substring(0, name.indexOf('.')) + ".nc";
        Files.copy(source().resolve(nc), tmp.resolve(nc));
        return to;
    }

    static ParquetReferenceStore open(Path folder, StoreResources resources) throws IOException {
        Store s = Stores.open(DatasetUrl.parse(folder.toString()), resources);
        return assertInstanceOf(ParquetReferenceStore.class, s);
    }

    static StoreResources withLimits(MemoryLimits limits) {
        return new StoreResources(
                TestStores.S3_CLIENTS, TestStores.RESOURCES.environment(), limits, false, () -> TestStores.HTTP_CLIENT);
    }

    @Test
    void keysMapToRecordsAndTargets() throws IOException {
        try (ParquetReferenceStore s = open(source().resolve("nc4.pyarrow-zstd-v1.parq"), TestStores.RESOURCES)) {
            assertEquals(5, s.recordSize());
            String zm = new String(s.get(".zmetadata").orElseThrow(), StandardCharsets.UTF_8);
            assertTrue(zm.contains("\"zarr_consolidated_format\":1") && !zm.contains("record_size"), zm);
            assertTrue(s.get(".zgroup").isPresent());
            assertTrue(s.get("temp/.zarray").isPresent());
            // temp: grid 3 x 2 x 2; chunk 2.1.1 is number 11: row 1 of refs.2.parq, a range of nc4.nc
            assertEquals(199, s.get("temp/2.1.1").orElseThrow().length);
            assertEquals(20, s.get("flat/0").orElseThrow().length); // inline (raw)
            assertEquals(Optional.empty(), s.get("sparse/1.1")); // null path: never written
            assertTrue(s.get("sparse/0.0").isPresent());
            for (String k : new String[] {"temp/3.0.0", "temp/0.0", "temp/a.0.0", "temp/-1.0.0", "nosuch/0", "temp/"}) {
                assertEquals(Optional.empty(), s.get(k), k);
            }
            byte[] all = s.get("temp/0.0.0").orElseThrow();
            assertArrayEquals(
                    java.util.Arrays.copyOfRange(all, 5, 15),
                    s.getRange("temp/0.0.0", 5, 10).orElseThrow());
            assertTrue(
                    s.list("").containsAll(java.util.List.of(".zgroup", ".zattrs", "temp", "obs")),
                    s.list("").toString());
            assertEquals(java.util.List.of(".zattrs", ".zgroup", "elevation"), s.list("obs"));
            assertEquals(4, s.recordLoads(), "temp refs.0 and refs.2, flat, sparse");
            s.get("temp/1.0.0"); // chunk 4: refs.0.parq again
            assertEquals(4, s.recordLoads(), "cached");
            s.get("temp/1.0.1"); // chunk 5: refs.1.parq
            assertEquals(5, s.recordLoads());
        }
    }

    @Test
    void aSmallReadBudgetEvictsRecordFiles() throws IOException {
        MemoryLimits small = MemoryLimits.defaults();
        small = new MemoryLimits(small.maxObjectBytes(), small.maxChunkBytes(), small.maxMetadataBytes(), 600);
        try (ParquetReferenceStore s = open(source().resolve("nc4.fastparquet.parq"), withLimits(small))) {
            for (int round = 0; round < 2; round++) {
                for (String k : new String[] {"temp/0.0.0", "temp/1.0.0", "temp/2.0.0"}) {
                    assertTrue(s.get(k).isPresent());
                }
            }
            assertTrue(s.recordLoads() > 3, "evicted and read again: " + s.recordLoads());
        }
    }

    @Test
    void aMissingRecordFileHoldsNoChunk() throws IOException {
        Path f = copy("nc4.fastparquet.parq");
        Files.delete(f.resolve("temp/refs.2.parq"));
        try (ParquetReferenceStore s = open(f, TestStores.RESOURCES)) {
            assertEquals(Optional.empty(), s.get("temp/2.1.1"));
            assertTrue(s.get("temp/1.1.1").isPresent());
        }
    }

    @Test
    void aCorruptRecordFileFailsItsChunksOnlyNamingIt() throws IOException {
        Path f = copy("nc4.pyarrow-snappy-v2.parq");
        byte[] b = Files.readAllBytes(f.resolve("temp/refs.1.parq"));
        for (int i = 4; i < b.length / 2; i++) {
            b[i] = (byte) 0xA5;
        }
        Files.write(f.resolve("temp/refs.1.parq"), b);
        try (ParquetReferenceStore s = open(f, TestStores.RESOURCES)) {
            StoreException e = assertThrows(StoreException.class, () -> s.get("temp/1.0.1"));
            assertTrue(
                    e.getMessage().contains("temp/refs.1.parq")
                            && e.getMessage().contains(f.toString()),
                    e.getMessage());
            assertFalse(e.isRetryable());
            assertTrue(s.get("temp/0.0.0").isPresent(), "other record files still read");
            assertThrows(StoreException.class, () -> s.get("temp/1.0.1"), "not cached as good");
        }
    }

    @Test
    void aRecordFileShorterThanRecordSizeIsAnError() throws IOException {
        Path f = copy("nc4.fastparquet.parq");
        String zm =
                Files.readString(f.resolve(".zmetadata")).replaceAll("\"record_size\":\\s*5", "\"record_size\": 50");
        Files.writeString(f.resolve(".zmetadata"), zm);
        try (ParquetReferenceStore s = open(f, TestStores.RESOURCES)) {
            StoreException e = assertThrows(StoreException.class, () -> s.get("temp/2.1.1"));
            assertTrue(
                    e.getMessage().contains("refs.0.parq has 5 rows")
                            && e.getMessage().contains("temp/2.1.1"),
                    e.getMessage());
        }
    }

    @Test
    void aBrokenZmetadataFailsTheOpenNamingIt() throws IOException {
        Path f = copy("nc3.fastparquet.parq");
        String good = Files.readString(f.resolve(".zmetadata"));
        for (String bad : new String[] {
            good.replaceAll("\"record_size\":\\s*2", "\"record_size\": 0"),
            good.replaceAll("\"record_size\":\\s*2", "\"record_size\": \"2\""),
            good.replace("\"metadata\"", "\"metadata_\""),
            "{\"record_size\": 2, \"metadata\": {\"../x/.zarray\": {}}}",
            "{\"record_size\": 2, \"metadata\": {}} trailing",
            "[1, 2, \"record_size\"]"
        }) {
            Files.writeString(f.resolve(".zmetadata"), bad);
            StoreException e = assertThrows(
                    StoreException.class,
                    () -> ParquetReferences.open(DatasetUrl.parse(f.toUri() + "#mode=kerchunk"), TestStores.RESOURCES),
                    bad);
            assertTrue(e.getMessage().contains(".zmetadata") && e.getMessage().contains(f.toString()), e.getMessage());
        }
    }

    @Test
    void limitsNameTheirProperty() throws IOException {
        MemoryLimits d = MemoryLimits.defaults();
        MemoryLimits tiny = new MemoryLimits(2000, d.maxChunkBytes(), d.maxMetadataBytes(), d.maxReadBytes());
        try (ParquetReferenceStore s = open(source().resolve("nc4.pyarrow-gzip-v1.parq"), withLimits(tiny))) {
            LimitExceededException e = assertThrows(LimitExceededException.class, () -> s.get("temp/0.0.0"));
            assertTrue(e.getMessage().contains(MemoryLimits.MAX_OBJECT_BYTES), e.getMessage());
            assertTrue(e.getMessage().contains("temp/refs.0.parq"), e.getMessage());
        }
    }

    @Test
    void aRecordFileIsNotAReferenceSet() throws IOException {
        Path one = source().resolve("nc3.fastparquet.parq/rec/refs.0.parq");
        StoreException e = assertThrows(
                StoreException.class,
                () -> Stores.open(DatasetUrl.parse(one.toUri() + "#mode=kerchunk"), TestStores.RESOURCES));
        assertTrue(e.getMessage().contains(".zmetadata"), e.getMessage());
    }

    @Test
    void aBadRangeInACoalescedBlockFailsOnlyItsChunk() throws IOException {
        Path f = copy("nc4.fastparquet.parq");
        Path nc = tmp.resolve("nc4.nc");
        // temp's chunks 0..4 (refs.0.parq) lie at 1666..2659 of nc4.nc: cut it in chunk 3
        Files.write(nc, java.util.Arrays.copyOf(Files.readAllBytes(nc), 2300));
        try (io.nczarr.testkit.http.RangeHttpServer http = io.nczarr.testkit.http.RangeHttpServer.start()) {
            http.putTree("/d", tmp);
            Store st = Stores.open(
                    DatasetUrl.parse(http.url("/d/nc4.fastparquet.parq/") + "#mode=kerchunk"), TestStores.RESOURCES);
            try (ParquetReferenceStore s = assertInstanceOf(ParquetReferenceStore.class, st)) {
                StoreException e = assertThrows(StoreException.class, () -> s.get("temp/0.1.1"));
                assertTrue(e.getMessage().contains("nc4.nc") && e.getMessage().contains("temp/0.1.1"), e.getMessage());
                assertEquals(201, s.get("temp/0.0.0").orElseThrow().length, "its neighbours still read");
                assertTrue(s.get("temp/0.1.0").isPresent());
            }
        }
    }

    @Test
    void detection() {
        assertTrue(ParquetReferences.isParquetFolder(source().resolve("nc4.fastparquet.parq")));
        assertTrue(ParquetReferences.isParquetFolder(source().resolve("nc4.fastparquet.parq/.zmetadata")));
        assertFalse(ParquetReferences.isParquetFolder(source()));
        assertFalse(ParquetReferences.isParquetFolder(Corpus.testDataDir().resolve("edge.zarr")));
        assertTrue(ParquetReferences.namesParquet(DatasetUrl.parse("s3://b/refs.parq#mode=kerchunk")));
        assertTrue(ParquetReferences.namesParquet(DatasetUrl.parse("https://h/x/refs/#mode=kerchunk")));
        assertTrue(ParquetReferences.namesParquet(DatasetUrl.parse("https://h/x/refs/.zmetadata#mode=kerchunk")));
        assertFalse(ParquetReferences.namesParquet(DatasetUrl.parse("https://h/x/refs.json#mode=kerchunk")));
        assertEquals(11, ParquetReferences.chunkNumber("2.1.1", new long[] {3, 2, 2}));
        assertEquals(0, ParquetReferences.chunkNumber("0", new long[] {1}));
        assertEquals(-1, ParquetReferences.chunkNumber("99999999999999999999", new long[] {1}));
        assertEquals(-1, ParquetReferences.chunkNumber("1.1", new long[] {Long.MAX_VALUE, Long.MAX_VALUE}));
    }
}
