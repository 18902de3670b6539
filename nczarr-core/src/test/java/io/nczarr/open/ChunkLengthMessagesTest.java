package io.nczarr.open;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.MetadataException;
import io.nczarr.error.NcZarrException;
import io.nczarr.error.UnsupportedFeatureException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** "chunk length 2147483648 is not positive" said what was wrong: a length past 2^31 - 1 is unsupported (issue 21 #8). */
class ChunkLengthMessagesTest {
    @TempDir
    Path dir;

    private NcZarrException openFails(String chunk, boolean v3) throws IOException {
        Path dir = this.dir.resolve((v3 ? "v3-" : "v2-") + chunk);
        Files.createDirectories(dir.resolve("v"));
        if (v3) {
            Files.writeString(dir.resolve("zarr.json"), "{\"zarr_format\": 3, \"node_type\": \"group\"}");
            Files.writeString(
                    dir.resolve("v/zarr.json"),
                    "{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": [4294967296], \"data_type\": \"int8\","
                            + " \"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": [" + chunk
                            + "]}}, \"chunk_key_encoding\": {\"name\": \"default\"}, \"fill_value\": 0,"
                            + " \"codecs\": [{\"name\": \"bytes\"}]}");
        } else {
            Files.writeString(dir.resolve(".zgroup"), "{\"zarr_format\": 2}");
            Files.writeString(
                    dir.resolve("v/.zarray"),
                    "{\"zarr_format\": 2, \"shape\": [4294967296], \"chunks\": [" + chunk + "], \"dtype\": \"|i1\","
                            + " \"compressor\": null, \"fill_value\": 0, \"order\": \"C\", \"filters\": null}");
        }
        return assertThrows(
                NcZarrException.class,
                () -> Datasets.open(Datasets.parse(dir.toString()), NcZarrOptions.shared())
                        .close());
    }

    @Test
    void aChunkLengthPastTwoToThe31IsUnsupportedWithItsValue() throws IOException {
        for (boolean v3 : new boolean[] {false, true}) {
            NcZarrException e = openFails("2147483648", v3);
            assertEquals(UnsupportedFeatureException.class, e.getClass(), e.getMessage());
            assertTrue(
                    e.getMessage().contains("2147483648") && !e.getMessage().contains("not positive"), e.getMessage());
            assertTrue(e.key().endsWith(v3 ? "zarr.json" : ".zarray"), e.key());
        }
    }

    @Test
    void aZeroChunkLengthIsNotPositive() throws IOException {
        for (boolean v3 : new boolean[] {false, true}) {
            NcZarrException e = openFails("0", v3);
            assertTrue(e instanceof MetadataException, e.getClass() + ": " + e.getMessage());
            assertTrue(e.getMessage().contains("chunk length 0 is not positive"), e.getMessage());
        }
    }
}
