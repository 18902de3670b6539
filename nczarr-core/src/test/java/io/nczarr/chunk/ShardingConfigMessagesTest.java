package io.nczarr.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.NcZarrException;
import io.nczarr.open.Datasets;
import io.nczarr.open.NcZarrOptions;
import io.nczarr.open.OpenDataset;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A bad v3 sharding configuration is reported naming the dataset, the array's zarr.json and the variable (issue 21 #8). */
class ShardingConfigMessagesTest {
    @TempDir
    Path dir;

    private NcZarrException readFails(String shardingConfiguration) throws IOException {
        Files.createDirectories(dir.resolve("v"));
        Files.writeString(dir.resolve("zarr.json"), "{\"zarr_format\": 3, \"node_type\": \"group\"}");
        Files.writeString(
                dir.resolve("v/zarr.json"),
                "{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": [8], \"data_type\": \"int16\","
                        + " \"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": [4]}},"
                        + " \"chunk_key_encoding\": {\"name\": \"default\"}, \"fill_value\": 0,"
                        + " \"codecs\": [{\"name\": \"sharding_indexed\", \"configuration\": " + shardingConfiguration
                        + "}]}");
        try (NcZarrOptions options = NcZarrOptions.builder().build();
                OpenDataset ds = Datasets.open(Datasets.parse(dir.toString()), options)) {
            ChunkReader r = ds.reader(ds.model().root().variables().get(0));
            return assertThrows(NcZarrException.class, () -> r.read(new long[] {0}, new int[] {2}, new int[] {1}));
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"chunk_shape\": [3], \"codecs\": [{\"name\": \"bytes\"}]}",
                "{\"chunk_shape\": [2, 2], \"codecs\": [{\"name\": \"bytes\"}]}",
                "{\"chunk_shape\": [2], \"codecs\": [{\"name\": \"bytes\"}], \"index_location\": \"middle\"}",
                "{\"chunk_shape\": [2], \"codecs\": [{\"name\": \"no-such-codec\"}]}",
                "{\"chunk_shape\": [2], \"codecs\": [{\"name\": \"bytes\"}], \"index_codecs\": [{\"name\": \"gzip\"}]}"
            })
    void namesDatasetKeyAndVariable(String configuration) throws IOException {
        NcZarrException e = readFails(configuration);
        assertEquals(dir.toString(), e.dataset(), e.getMessage());
        assertEquals("v/zarr.json", e.key(), e.getMessage());
        assertEquals("v", e.variable(), e.getMessage());
        assertTrue(e.getMessage().contains("sharding_indexed") || e.getMessage().contains("codec"), e.getMessage());
    }

    @Test
    void aGoodConfigurationReads() throws IOException {
        Files.createDirectories(dir.resolve("v"));
        Files.writeString(dir.resolve("zarr.json"), "{\"zarr_format\": 3, \"node_type\": \"group\"}");
        Files.writeString(
                dir.resolve("v/zarr.json"),
                "{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": [8], \"data_type\": \"int16\","
                        + " \"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": [4]}},"
                        + " \"chunk_key_encoding\": {\"name\": \"default\"}, \"fill_value\": 7,"
                        + " \"codecs\": [{\"name\": \"sharding_indexed\", \"configuration\": {\"chunk_shape\": [2],"
                        + " \"codecs\": [{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}]}}]}");
        try (NcZarrOptions options = NcZarrOptions.builder().build();
                OpenDataset ds = Datasets.open(Datasets.parse(dir.toString()), options)) {
            short[] v = (short[])
                    ds.reader(ds.model().root().variables().get(0)).read(new long[] {0}, new int[] {2}, new int[] {1});
            assertEquals(7, v[0]);
        }
    }
}
