package io.nczarr.store.kerchunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.NcZarrException;
import io.nczarr.error.StoreException;
import io.nczarr.error.TargetRefusedException;
import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.open.Datasets;
import io.nczarr.source.OpenFiles;
import io.nczarr.store.TestStores;
import io.nczarr.testkit.http.RangeHttpServer;
import io.nczarr.url.DatasetUrl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21 findings 1, 5, 6 and 8 at the store level: local targets of remote reference files (every spelling,
 * through templates and gen), FIFOs and devices as targets (refused without blocking), encoded HTTP bodies
 * (refused, never sliced), the open-file bound of local targets, and the messages of bad URLs and schemes.
 */
class ReferenceTrustTest {
    @TempDir
    Path tmp;

    private ReferenceStore local(String json) throws Exception {
        Path refs = Files.writeString(tmp.resolve("refs.json"), json);
        return ReferenceStore.open(DatasetUrl.parse(refs.toUri() + "#mode=kerchunk"), TestStores.RESOURCES);
    }

    @Test
    void aRemoteReferenceFileNeverReadsLocalFiles() throws Exception {
        Path secret = Files.writeString(tmp.resolve("secret.txt"), "root:x:0:0");
        String path = secret.toAbsolutePath().toString();
        try (RangeHttpServer http = RangeHttpServer.start()) {
            List<String> docs = List.of(
                    "{\"version\":1,\"refs\":{\"a/0\":[\"file://" + path + "\",0,4]}}",
                    "{\"version\":1,\"refs\":{\"a/0\":[\"FILE://" + path + "\",0,4]}}",
                    "{\"version\":1,\"refs\":{\"a/0\":[\"file:" + path + "\",0,4]}}",
                    "{\"version\":1,\"refs\":{\"a/0\":[\"file://" + path + "\"]}}",
                    "{\"version\":1,\"templates\":{\"t\":\"file://" + tmp.toAbsolutePath() + "\"},"
                            + "\"refs\":{\"a/0\":[\"{{t}}/secret.txt\",0,4]}}",
                    "{\"version\":1,\"gen\":[{\"key\":\"a/{{i}}\",\"url\":\"file://" + path + "\",\"offset\":\"0\","
                            + "\"length\":\"4\",\"dimensions\":{\"i\":1}}],\"refs\":{}}");
            for (int i = 0; i < docs.size(); i++) {
                http.put("/r" + i + ".json", docs.get(i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
                String url = http.url("/r" + i + ".json") + "#mode=kerchunk";
                try (ReferenceStore s = ReferenceStore.open(DatasetUrl.parse(url), TestStores.RESOURCES)) {
                    TargetRefusedException e = assertThrows(TargetRefusedException.class, () -> s.get("a/0"), url);
                    assertTrue(e.getMessage().startsWith(http.url("/r" + i + ".json")), e.getMessage());
                    assertTrue(
                            e.getMessage().contains("a/0") && e.getMessage().contains("nczarr.trust.allow"),
                            e.getMessage());
                    assertTrue(!e.getMessage().contains("root:x"), e.getMessage());
                }
            }
        }
    }

    @Test
    void fifosAndDevicesAreRefusedWithoutBlocking() throws Exception {
        Path fifo = tmp.resolve("fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        try (ReferenceStore s = local("{\"version\":1,\"refs\":{\"a/0\":[\"fifo\",0,4],\"a/1\":[\"fifo\"],"
                + "\"a/2\":[\"" + tmp.toUri() + "\",0,4]}}")) {
            for (String k : List.of("a/0", "a/1", "a/2")) {
                TargetRefusedException e = assertTimeoutPreemptively(
                        Duration.ofSeconds(10), () -> assertThrows(TargetRefusedException.class, () -> s.get(k)));
                assertTrue(e.getMessage().contains("regular file"), e.getMessage());
            }
        }
        // a device through a link inside the tree: the link resolves out, and the device is no regular file
        Files.createSymbolicLink(tmp.resolve("zero"), Path.of("/dev/zero"));
        try (ReferenceStore s = local("{\"version\":1,\"refs\":{\"a/0\":[\"zero\",0,4]}}")) {
            assertThrows(TargetRefusedException.class, () -> s.get("a/0"));
        }
    }

    @Test
    void anEncodedBodyIsAnErrorNotData() throws Exception {
        byte[] data = new byte[64];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) i;
        }
        try (RangeHttpServer http = RangeHttpServer.start()) {
            http.put("/t/blob.bin", data);
            try (ReferenceStore s = local("{\"version\":1,\"refs\":{\"a/0\":[\"" + http.url("/t/blob.bin")
                    + "\",8,8],\"a/1\":[\"" + http.url("/t/blob.bin") + "\"]}}")) {
                assertArrayEquals(
                        java.util.Arrays.copyOfRange(data, 8, 16), s.get("a/0").orElseThrow());
                for (boolean ignoreRange : List.of(true, false)) {
                    http.ignoreRange(ignoreRange).contentEncoding("gzip");
                    for (String k : List.of("a/0", "a/1")) {
                        StoreException e = assertThrows(StoreException.class, () -> s.get(k), k);
                        assertTrue(e.getMessage().contains("Content-Encoding: gzip"), e.getMessage());
                    }
                }
                http.reset();
                assertArrayEquals(
                        java.util.Arrays.copyOfRange(data, 8, 16), s.get("a/0").orElseThrow());
                for (Map<String, List<String>> h : http.requestHeaders()) {
                    assertEquals(List.of("identity"), h.get("accept-encoding"), h.toString());
                }
            }
        }
    }

    @Test
    void localTargetsStayWithinTheOpenFileBound() throws Exception {
        int n = OpenFiles.DEFAULT_MAX * 3;
        StringBuilder json = new StringBuilder("{\"version\":1,\"refs\":{");
        for (int i = 0; i < n; i++) {
            Files.write(tmp.resolve("t" + i + ".bin"), new byte[] {(byte) i, 1, 2, 3});
            json.append(i == 0 ? "" : ",")
                    .append("\"a/")
                    .append(i)
                    .append("\":[\"t")
                    .append(i)
                    .append(".bin\",0,4]");
        }
        try (ReferenceStore s = local(json.append("}}").toString())) {
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < n; i++) {
                    assertEquals((byte) i, s.get("a/" + i).orElseThrow()[0]);
                }
            }
            long[] counts = s.openFileCounts();
            assertTrue(counts[1] <= OpenFiles.DEFAULT_MAX, "open now: " + counts[1]);
            assertEquals(2L * n, counts[0], "each file reopened once per round beyond the bound");
        }
    }

    @Test
    void messagesNameTheDocumentFirst() throws Exception {
        NcZarrException e = assertThrows(NcZarrException.class, () -> Datasets.parse("http://h/x.zarr#mode=zarr,file"));
        assertTrue(
                e.getMessage().contains("mode flag file") && e.getMessage().contains("http://h/x.zarr"),
                e.getMessage());
        assertTrue(e.getCause() instanceof IllegalArgumentException);
        try (ReferenceStore s = local("{\"version\":1,\"refs\":{\"a/0\":[\"gopher://h/x.nc\",0,4]}}")) {
            UnsupportedFeatureException u = assertThrows(UnsupportedFeatureException.class, () -> s.get("a/0"));
            assertTrue(u.getMessage().startsWith(tmp.resolve("refs.json").toString()), u.getMessage());
            assertTrue(u.getMessage().contains("gopher://h/x.nc"), u.getMessage());
        }
    }

    /**
     * A Parquet reference folder served over HTTP (a remote document) whose {@code path} column names a local
     * file ({@code file:///etc/passwd}, test-data/parquet-refs-trust) is refused before anything is opened,
     * naming the folder, the key and the option; the same folder read locally may not leave its own tree.
     */
    @Test
    void aRemoteParquetFolderNamingALocalFileIsRefused() throws Exception {
        Path folder = io.nczarr.testkit.Corpus.testDataDir()
                .resolve("parquet-refs-trust")
                .resolve("nc4.local-path.parq");
        try (RangeHttpServer http = RangeHttpServer.start()) {
            http.putTree("/d", folder.getParent());
            String url = http.url("/d/nc4.local-path.parq/") + "#mode=kerchunk";
            try (io.nczarr.store.Store s = io.nczarr.store.Stores.open(DatasetUrl.parse(url), TestStores.RESOURCES)) {
                assertTrue(s.get(".zgroup").isPresent(), "the folder's own metadata reads");
                TargetRefusedException e = assertThrows(TargetRefusedException.class, () -> s.get("temp/0.0.0"));
                assertTrue(e.getMessage().startsWith(http.url("/d/nc4.local-path.parq")), e.getMessage());
                assertTrue(e.getMessage().contains("temp/0.0.0"), e.getMessage());
                assertTrue(e.getMessage().contains("may not name local files"), e.getMessage());
                assertTrue(e.getMessage().contains("nczarr.trust.allow"), e.getMessage());
                assertTrue(!e.getMessage().contains("root:"), e.getMessage());
            }
        }
        try (io.nczarr.store.Store s =
                io.nczarr.store.Stores.open(DatasetUrl.parse(folder.toString()), TestStores.RESOURCES)) {
            TargetRefusedException e = assertThrows(TargetRefusedException.class, () -> s.get("temp/0.0.0"));
            assertTrue(e.getMessage().contains("outside the document's directory"), e.getMessage());
        }
    }
}
