package io.nczarr.open;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.LimitExceededException;
import io.nczarr.s3.AwsEnvironment;
import io.nczarr.store.MemoryLimits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An open dataset keeps to its options' limits: metadata objects while opening, chunks and reads after. */
class DatasetsBudgetTest {
    @TempDir
    Path tmp;

    private static final long BIG = 1L << 20;
    private static final int ZATTRS = 2000;

    /** {@code v}: 100 int32 in one chunk of 400 bytes, with {@link #ZATTRS} bytes of root attributes. */
    private Path dataset() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("ds/v"));
        Files.writeString(dir.resolveSibling(".zgroup"), "{\"zarr_format\": 2}");
        Files.writeString(dir.resolveSibling(".zattrs"), "{\"title\": \"" + "x".repeat(ZATTRS - 13) + "\"}");
        Files.writeString(
                dir.resolve(".zarray"),
                "{\"zarr_format\": 2, \"shape\": [100], \"chunks\": [100], \"dtype\": \"<i4\", \"compressor\": null,"
                        + " \"fill_value\": 0, \"order\": \"C\", \"filters\": null}");
        Files.write(dir.resolve("0"), new byte[400]);
        return dir.getParent();
    }

    private static Object readAll(Path ds, MemoryLimits limits) throws IOException {
        try (NcZarrOptions options = NcZarrOptions.builder(AwsEnvironment.of(Map.of(), Map.of()))
                        .limits(limits)
                        .build();
                OpenDataset d = Datasets.open(Datasets.parse(ds.toString()), options)) {
            return d.reader(d.model().root().variables().get(0)).readAll();
        }
    }

    @Test
    void metadataObjectsAreBoundedByTheMetadataLimit() throws IOException {
        Path ds = dataset();
        LimitExceededException e = assertThrows(
                LimitExceededException.class, () -> readAll(ds, new MemoryLimits(BIG, BIG, ZATTRS - 1, BIG)));
        assertEquals(".zattrs", e.key());
        assertEquals(MemoryLimits.MAX_METADATA_BYTES, e.property());
        assertTrue(e.getMessage().contains(MemoryLimits.MAX_METADATA_BYTES + "=" + (ZATTRS - 1)), e.getMessage());
        assertEquals(100, ((int[]) readAll(ds, new MemoryLimits(BIG, BIG, ZATTRS, BIG))).length);
    }

    @Test
    void aSmallerObjectLimitBoundsMetadataToo() throws IOException {
        Path ds = dataset();
        LimitExceededException e =
                assertThrows(LimitExceededException.class, () -> readAll(ds, new MemoryLimits(1000, BIG, BIG, BIG)));
        assertEquals(MemoryLimits.MAX_OBJECT_BYTES, e.property());
    }

    @Test
    void readersGetTheChunkAndReadLimits() throws IOException {
        Path ds = dataset();
        assertEquals(
                MemoryLimits.MAX_CHUNK_BYTES,
                assertThrows(LimitExceededException.class, () -> readAll(ds, new MemoryLimits(BIG, 399, BIG, BIG)))
                        .property());
        assertEquals(
                MemoryLimits.MAX_READ_BYTES,
                assertThrows(LimitExceededException.class, () -> readAll(ds, new MemoryLimits(BIG, BIG, BIG, 399)))
                        .property());
    }
}
