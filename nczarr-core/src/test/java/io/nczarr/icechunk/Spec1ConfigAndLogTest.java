package io.nczarr.icechunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nczarr.error.MetadataException;
import io.nczarr.store.Store;
import io.nczarr.store.Stores;
import io.nczarr.url.DatasetUrl;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 23, spec 1 (icechunk 1.x repositories): the virtual chunk containers of {@code config.yaml} and the
 * MessagePack commit metadata shown by {@code nczarr log}, against icechunk's own {@code ancestry()}
 * (test-data/icechunk/spec1v.log.json, written by make.py).
 */
class Spec1ConfigAndLogTest {
    static final Path REPO = IcechunkStoreTest.DIR.resolve("spec1v.icechunk");
    static final ObjectMapper JSON = new ObjectMapper();

    static Map<String, String> yaml(String text) throws MetadataException {
        return V1Config.containers(text.getBytes(StandardCharsets.UTF_8), "file:///repo");
    }

    @Test
    void configYamlContainers() throws Exception {
        // icechunk 2.x writing spec 1 (and VirtualiZarr): keyed by the URL prefix, no name
        assertEquals(
                Map.of("s3://bucket/nc/", "s3://bucket/nc/", "file:///tmp/x/", "file:///tmp/x/"),
                yaml("inline_chunk_threshold_bytes: null\nstorage:\n  retries:\n    max_tries: 1\n"
                        + "virtual_chunk_containers:\n  s3://bucket/nc/:\n    name: null\n    url_prefix: s3://bucket/nc/\n"
                        + "    store: !s3\n      region: us-east-1\n      endpoint_url: null\n"
                        + "  file:///tmp/x/:\n    name: null\n    url_prefix: file:///tmp/x/\n"
                        + "    store: !local_file_system /tmp/x\nmanifest: null\n"));
        // icechunk 1.x: keyed by name, quoted scalars, comments
        assertEquals(
                Map.of("src", "s3://b/it's/", "gcs", "gs://b/p/"),
                yaml("virtual_chunk_containers: # declared\n  src:\n    name: src\n"
                        + "    url_prefix: 's3://b/it''s/'\n  \"gcs\":\n    name: \"gcs\"   # the name\n"
                        + "    url_prefix: \"gs://b/p/\"\n    store: !gcs {}\n"));
        assertEquals(Map.of(), yaml("virtual_chunk_containers: {}\n"));
        assertEquals(Map.of(), yaml("virtual_chunk_containers: null\n"));
        assertEquals(Map.of(), yaml("storage: null\n"));
        MetadataException e = assertThrows(
                MetadataException.class, () -> yaml("virtual_chunk_containers: {a: {url_prefix: 's3://x/'}}\n"));
        assertTrue(e.getMessage().contains("config.yaml") && e.getMessage().contains("line 1"), e.getMessage());
        e = assertThrows(MetadataException.class, () -> yaml("virtual_chunk_containers:\n  a:\n    name: a\n"));
        assertTrue(e.getMessage().contains("'a' has no url_prefix"), e.getMessage());
    }

    @Test
    void messagePackValues() {
        assertEquals("\"nczarr-test\"", MsgPack.toJson(bytes(0xab, "nczarr-test")));
        assertEquals("{\"x\":[1,2.5,null,true,-1,300,\"é\"]}", MsgPack.toJson(new byte[] {
            (byte) 0x81,
            (byte) 0xa1,
            'x',
            (byte) 0x97,
            1,
            (byte) 0xcb,
            0x40,
            0x04,
            0,
            0,
            0,
            0,
            0,
            0,
            (byte) 0xc0,
            (byte) 0xc3,
            (byte) 0xff,
            (byte) 0xcd,
            0x01,
            0x2c,
            (byte) 0xa2,
            (byte) 0xc3,
            (byte) 0xa9
        }));
        assertEquals("18446744073709551615", MsgPack.toJson(new byte[] {(byte) 0xcf, -1, -1, -1, -1, -1, -1, -1, -1}));
        for (byte[] bad : List.of(
                new byte[] {(byte) 0xab, 'a'}, // truncated string
                new byte[] {(byte) 0xdd, 0x7f, -1, -1, -1}, // an array of 2^31 elements in 5 bytes
                new byte[] {(byte) 0xd4, 1, 2}, // an extension
                new byte[] {1, 2}, // bytes after the value
                new byte[] {(byte) 0xa1, (byte) 0xff})) { // not UTF-8
            assertThrows(IllegalArgumentException.class, () -> MsgPack.toJson(bad));
        }
        byte[] deep = new byte[200];
        java.util.Arrays.fill(deep, (byte) 0x91);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> MsgPack.toJson(deep))
                .getMessage()
                .contains("nested"));
    }

    private static byte[] bytes(int tag, String s) {
        byte[] t = s.getBytes(StandardCharsets.UTF_8);
        byte[] b = new byte[t.length + 1];
        b[0] = (byte) tag;
        System.arraycopy(t, 0, b, 1, t.length);
        return b;
    }

    /** {@code nczarr log} of spec1v.icechunk: each commit of icechunk's ancestry(), its message and metadata. */
    @Test
    void logMatchesIcechunksAncestry() throws Exception {
        JsonNode want =
                JSON.readTree(IcechunkStoreTest.DIR.resolve("spec1v.log.json").toFile());
        DatasetUrl url = DatasetUrl.parse(REPO.toUri() + "#mode=zarr,icechunk");
        List<String> lines;
        try (Store base = Stores.open(url, IcechunkStoreTest.RES)) {
            lines = IcechunkLog.lines(base, url, IcechunkStoreTest.RES);
        }
        String text = String.join("\n", lines);
        assertTrue(text.contains("(Icechunk spec 1)"), text);
        assertTrue(text.contains("virtual chunk containers:\n  file:///nczarr-icechunk-src/"), text);
        assertTrue(text.contains("(not authorized)"), text);
        List<String> ids = new ArrayList<>();
        for (String l : lines) {
            if (l.startsWith("snapshot ")) {
                ids.add(l.substring(9, 29));
            }
        }
        List<String> wantIds = new ArrayList<>();
        want.get("main_log").forEach(c -> wantIds.add(c.get("id").asText()));
        assertEquals(wantIds, ids);
        assertTrue(text.contains("snapshot " + want.at("/tags/t1").asText() + " (tag: t1)"), text);
        for (JsonNode c : want.get("main_log")) {
            int at = lines.indexOf(lines.stream()
                    .filter(l -> l.startsWith("snapshot " + c.get("id").asText()))
                    .findFirst()
                    .orElseThrow());
            // Date: the same instant to the microsecond
            String date = lines.get(at + 1).substring("Date:   ".length());
            assertEquals(
                    java.time.OffsetDateTime.parse(c.get("written_at").asText()).toInstant(),
                    java.time.Instant.parse(date),
                    c.toString());
            String message = "    " + c.get("message").asText().replace("\n", "\n    ");
            assertTrue(text.contains(lines.get(at) + "\n" + lines.get(at + 1) + "\n" + message), text);
            int m = at + 3; // the message is one entry, its lines joined
            JsonNode meta = c.get("metadata");
            for (int k = 0; k < meta.size(); k++, m++) {
                String l = lines.get(m).trim();
                String name = l.substring(0, l.indexOf(": "));
                assertTrue(meta.has(name), l);
                assertEquals(meta.get(name), JSON.readTree(l.substring(l.indexOf(": ") + 2)), l);
            }
        }
    }

    /** Over plain HTTP a spec-1 log cannot list refs/: it says so and still shows the history. */
    @Test
    void logOverHttpShowsHistoryWithoutListing() throws Exception {
        try (io.nczarr.testkit.http.RangeHttpServer http = io.nczarr.testkit.http.RangeHttpServer.start()) {
            http.putTree("/spec1v.icechunk", REPO);
            DatasetUrl url = DatasetUrl.parse(http.url("/spec1v.icechunk") + "#mode=zarr,icechunk&tag=t1");
            String text;
            try (Store base = Stores.open(url, IcechunkStoreTest.RES)) {
                text = String.join("\n", IcechunkLog.lines(base, url, IcechunkStoreTest.RES));
            }
            JsonNode want = JSON.readTree(
                    IcechunkStoreTest.DIR.resolve("spec1v.log.json").toFile());
            assertTrue(text.contains("not listed") && text.contains("history of tag t1"), text);
            assertTrue(text.contains("snapshot " + want.at("/tags/t1").asText()), text);
            assertTrue(text.contains("author: \"nczarr-test\""), text);
        }
    }
}
