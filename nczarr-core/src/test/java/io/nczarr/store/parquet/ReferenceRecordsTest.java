package io.nczarr.store.parquet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nczarr.store.ByteLimit;
import io.nczarr.testkit.Corpus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every record file of test-data/parquet-refs (fastparquet zstd v1 with PLAIN and dictionary paths; pyarrow
 * zstd/snappy/gzip/uncompressed, data page v1 and v2, dictionary-encoded or PLAIN columns) decodes to the rows
 * pyarrow reads ({@code records.json}, made by make.py).
 */
class ReferenceRecordsTest {
    static final ByteLimit LIMIT = new ByteLimit("test.limit", 64L << 20);

    static Path dir() {
        return Corpus.testDataDir().resolve("parquet-refs");
    }

    static Stream<String> folders() throws IOException {
        try (Stream<Path> s = Files.list(dir())) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".parq")).sorted().toList().stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("folders")
    void everyRecordFileDecodesToPyarrowsRows(String folder) throws IOException {
        JsonNode expected =
                new ObjectMapper().readTree(dir().resolve("records.json").toFile());
        String src = folder.substring(0, folder.indexOf('.'));
        List<String> files = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : expected.get(src).properties()) {
            files.add(e.getKey());
            byte[] bytes = Files.readAllBytes(dir().resolve(folder).resolve(e.getKey()));
            ReferenceRecords r = ReferenceRecords.read(bytes, folder, e.getKey(), LIMIT);
            JsonNode rows = e.getValue();
            assertEquals(rows.size(), r.rows(), folder + "/" + e.getKey());
            for (int i = 0; i < rows.size(); i++) {
                JsonNode row = rows.get(i);
                String where = folder + "/" + e.getKey() + " row " + i;
                assertEquals(row.get(0).isNull() ? null : row.get(0).asText(), r.path(i), where);
                assertEquals(row.get(1).asLong(), r.offset(i), where);
                assertEquals(row.get(2).asLong(), r.size(i), where);
                if (row.get(3).isNull()) {
                    assertNull(r.raw(i), where);
                } else {
                    assertArrayEquals(Base64.getDecoder().decode(row.get(3).asText()), r.raw(i), where);
                }
            }
            assertTrue(r.estimatedBytes() > 0);
        }
        assertFalse(files.isEmpty());
    }
}
