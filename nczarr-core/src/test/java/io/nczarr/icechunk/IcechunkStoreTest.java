package io.nczarr.icechunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nczarr.error.TargetRefusedException;
import io.nczarr.open.Datasets;
import io.nczarr.open.NcZarrOptions;
import io.nczarr.store.Store;
import io.nczarr.store.StoreResources;
import io.nczarr.store.Stores;
import io.nczarr.testkit.Corpus;
import io.nczarr.testkit.http.RangeHttpServer;
import io.nczarr.url.DatasetUrl;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Icechunk store over test-data/icechunk: hierarchy, snapshot selection, history, containers. */
class IcechunkStoreTest {
    static final Path DIR = Corpus.icechunkDir();
    static final StoreResources RES = NcZarrOptions.shared().storeResources();

    static Store open(Path repo, String fragment) throws Exception {
        return Datasets.openStore(DatasetUrl.parse(repo.toUri() + "#mode=zarr,icechunk" + fragment), RES);
    }

    static JsonNode refs() throws Exception {
        return new ObjectMapper().readTree(DIR.resolve("native.refs.json").toFile());
    }

    @Test
    void crockfordAsTheSpecSays() {
        byte[] first = {
            0x0b, 0x1c, (byte) 0xc8, (byte) 0xd6, 0x78, 0x75, (byte) 0x80, (byte) 0xf0, (byte) 0xe3, 0x3a, 0x65, 0x34
        };
        assertEquals("1CECHNKREP0F1RSTCMT0", Crockford.encode(first));
        assertArrayEquals(first, Crockford.decode("1cechnkrep0f1rstcmt0", 12));
        assertEquals(13, Crockford.encode(new byte[8]).length());
        assertThrows(IllegalArgumentException.class, () -> Crockford.decode("1CECHNKREP0F1RSTCMTU", 12));
        assertThrows(IllegalArgumentException.class, () -> Crockford.decode("1CECHNKREP0F1RSTCMT", 12));
    }

    @Test
    void hierarchyAndSnapshotSelection() throws Exception {
        JsonNode refs = refs();
        try (IcechunkStore s = (IcechunkStore) open(DIR.resolve("native.icechunk"), "")) {
            assertEquals(refs.get("branches").get("main").asText(), s.snapshotId());
            assertEquals(List.of("added", "count", "split", "sub", "temp", "time", "x", "zarr.json"), s.list(""));
            assertEquals(List.of("deep", "zarr.json"), s.list("sub"));
            assertTrue(s.get("sub/deep/big/zarr.json").isPresent());
            assertTrue(s.get("sub/deep/big/c/0/0").isPresent(), "native chunk");
            assertTrue(s.get("x/c/0").isPresent(), "inline chunk");
            assertTrue(s.get("temp/c/1/0/0").isEmpty(), "never written: no reference");
            assertTrue(s.get("temp/c/9/0/0").isEmpty(), "outside the grid");
            assertTrue(s.get("nothing/zarr.json").isEmpty());
            byte[] whole = s.get("sub/deep/big/c/1/0").orElseThrow();
            assertArrayEquals(
                    java.util.Arrays.copyOfRange(whole, 10, 30),
                    s.getRange("sub/deep/big/c/1/0", 10, 20).orElseThrow());
            assertTrue(s.describe().contains("branch main"), s.describe());
        }
        try (IcechunkStore s = (IcechunkStore) open(DIR.resolve("native.icechunk"), "&tag=v1")) {
            assertEquals(refs.get("tags").get("v1").asText(), s.snapshotId());
            assertTrue(s.get("added/zarr.json").isEmpty(), "added after v1");
        }
        String dev = refs.get("branches").get("dev").asText();
        try (IcechunkStore s = (IcechunkStore) open(DIR.resolve("native.icechunk"), "&branch=dev")) {
            assertEquals(dev, s.snapshotId());
        }
        try (IcechunkStore s = (IcechunkStore) open(DIR.resolve("native.icechunk"), "&snapshot=" + dev.toLowerCase())) {
            assertEquals(dev, s.snapshotId());
            assertTrue(s.get("temp/c/1/0/0").isPresent(), "dev wrote the second half");
        }
        Exception e = assertThrows(Exception.class, () -> open(DIR.resolve("native.icechunk"), "&branch=nope"));
        assertTrue(e.getMessage().contains("no branch 'nope'") && e.getMessage().contains("dev, main"), e.getMessage());
        e = assertThrows(Exception.class, () -> open(DIR.resolve("native.icechunk"), "&tag=v1&branch=dev"));
        assertTrue(e.getMessage().contains("more than one"), e.getMessage());
        e = assertThrows(Exception.class, () -> open(DIR.resolve("native.icechunk"), "&snapshot=ZZZ"));
        assertTrue(e.getMessage().contains("not a snapshot id"), e.getMessage());
    }

    @Test
    void logListsRefsAndTheHistoryAsIcechunkDoes() throws Exception {
        JsonNode refs = refs();
        DatasetUrl url = DatasetUrl.parse(DIR.resolve("native.icechunk").toUri() + "#mode=zarr,icechunk");
        try (Store base = Stores.open(url, RES)) {
            List<String> lines = IcechunkLog.lines(base, url, RES);
            List<String> ids = new ArrayList<>();
            List<String> messages = new ArrayList<>();
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).startsWith("snapshot ")) {
                    ids.add(lines.get(i).split(" ")[1]);
                    messages.add(lines.get(i + 2).strip());
                }
            }
            List<String> expectedIds = new ArrayList<>();
            List<String> expectedMessages = new ArrayList<>();
            for (JsonNode c : refs.get("main_log")) {
                expectedIds.add(c.get("id").asText());
                expectedMessages.add(c.get("message").asText());
            }
            assertEquals(expectedIds, ids);
            assertEquals(expectedMessages, messages);
            String all = String.join("\n", lines);
            assertTrue(all.contains("(tag: v1)") && all.contains("author: \"make.py\""), all);
            assertTrue(IcechunkLog.selected(base, url, RES).contains(expectedIds.get(0)));
        }
    }

    @Test
    void spec1RepositoriesReadThroughTheirRefs() throws Exception {
        Path repo = DIR.resolve("spec1.icechunk");
        String tip = new ObjectMapper()
                .readTree(repo.resolve("refs/branch.main/ref.json").toFile())
                .get("snapshot")
                .asText();
        try (IcechunkStore s = (IcechunkStore) open(repo, "")) {
            assertEquals(tip, s.snapshotId());
            assertTrue(s.get("a/c/1/0").isPresent() && s.get("g/b/c/0").isPresent());
        }
        try (IcechunkStore s = (IcechunkStore) open(repo, "&tag=t1")) {
            assertTrue(s.get("a/c/1/0").isEmpty(), "written after t1");
        }
        Exception e = assertThrows(Exception.class, () -> open(repo, "&branch=nope"));
        assertTrue(e.getMessage().contains("refs/branch.nope/ref.json"), e.getMessage());
        DatasetUrl url = DatasetUrl.parse(repo.toUri() + "#mode=zarr,icechunk");
        try (Store base = Stores.open(url, RES)) {
            String log = String.join("\n", IcechunkLog.lines(base, url, RES));
            assertTrue(
                    log.contains("(Icechunk spec 1)")
                            && log.contains("snapshot " + tip + " (main)")
                            && log.contains("(tag: t1)")
                            && log.contains("spec 1: first")
                            && log.contains("Repository initialized"),
                    log);
        }
    }

    @Test
    void aRepositoryOpenedWithoutItsModeGetsAHint() throws Exception {
        for (String r : List.of("native.icechunk", "spec1.icechunk")) {
            Exception e = assertThrows(
                    Exception.class,
                    () -> Datasets.open(DatasetUrl.parse(DIR.resolve(r).toString()), NcZarrOptions.shared()));
            assertTrue(e.getMessage().contains("#mode=zarr,icechunk"), e.getMessage());
        }
        assertTrue(!IcechunkStore.isRepository(DatasetUrl.parse(DIR.toString()), RES));
    }

    @Test
    void urlFormsAndOptionProperties() throws Exception {
        DatasetUrl s3 = DatasetUrl.parse("s3://bucket/repo#mode=zarr,icechunk,s3&branch=dev");
        assertTrue(s3.isIcechunk());
        assertEquals(DatasetUrl.StoreKind.S3, s3.declaredStoreKind().orElseThrow());
        assertEquals(
                DatasetUrl.StoreKind.HTTP,
                DatasetUrl.parse("https://host/repo#mode=zarr,icechunk")
                        .declaredStoreKind()
                        .orElseThrow());
        assertEquals(
                DatasetUrl.Format.ZARR, DatasetUrl.parse("/r#mode=icechunk").format());
        assertThrows(IllegalArgumentException.class, () -> DatasetUrl.parse("/r#mode=icechunk,kerchunk"));
        assertThrows(IllegalArgumentException.class, () -> DatasetUrl.parse("/r#mode=icechunk,zip"));
        Map<String, String> props = Map.of(Parameters.TAG, "v1", Parameters.CONTAINERS, "src=file:///a/, x=s3://b/");
        Map<String, String> p = Parameters.of(Map.of(), props::get, "r");
        assertEquals("v1", p.get("tag"));
        assertEquals("file:///a/", p.get("icechunk.container.src"));
        assertEquals("s3://b/", p.get("icechunk.container.x"));
        p = Parameters.of(Map.of("branch", "dev", "icechunk.container.src", "file:///b/"), props::get, "r");
        assertEquals(null, p.get("tag"), "the fragment selects: the properties do not");
        assertEquals("file:///b/", p.get("icechunk.container.src"));
        assertThrows(
                io.nczarr.error.NcZarrException.class,
                () -> Parameters.of(Map.of(), Map.of(Parameters.CONTAINERS, "nope")::get, "r"));
    }

    @Test
    void virtualChunksNeedAnAuthorizedContainer() throws Exception {
        Path repo = DIR.resolve("virtual.icechunk");
        try (Store s = open(repo, "")) {
            TargetRefusedException e = assertThrows(TargetRefusedException.class, () -> s.get("flat/c/0/0"));
            String m = e.getMessage();
            assertTrue(
                    m.contains("virtual.icechunk")
                            && m.contains("/flat")
                            && m.contains("flat/c/0/0")
                            && m.contains("file:///nczarr-icechunk-src/virt_src.nc")
                            && m.contains("icechunk.container.src="),
                    m);
        }
        try (Store s = open(repo, "&icechunk.container.src=" + DIR.toUri())) {
            assertEquals(48, s.get("flat/c/1/0").orElseThrow().length);
            assertTrue(s.get("packed/c/1/1").isPresent());
        }
        // a container the repository does not declare does not authorize the declared one
        try (Store s = open(repo, "&icechunk.container.other=" + DIR.toUri())) {
            assertThrows(TargetRefusedException.class, () -> s.get("flat/c/0/0"));
        }
    }

    /** A repository served over HTTP cannot take the reader to the local files its own config names. */
    @Test
    void aRemoteRepositoryCannotReachLocalFilesUnconfirmed() throws Exception {
        try (RangeHttpServer http = RangeHttpServer.start()) {
            http.putTree("/virtual.icechunk", DIR.resolve("virtual.icechunk"));
            String url = http.url("/virtual.icechunk") + "#mode=zarr,icechunk";
            try (Store s = Datasets.openStore(DatasetUrl.parse(url), RES)) {
                TargetRefusedException e = assertThrows(TargetRefusedException.class, () -> s.get("flat/c/0/0"));
                assertTrue(e.getMessage().contains("icechunk.container.src="), e.getMessage());
            }
        }
    }
}
