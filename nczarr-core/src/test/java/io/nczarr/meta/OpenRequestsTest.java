package io.nczarr.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.model.GroupModel;
import io.nczarr.open.Datasets;
import io.nczarr.open.NcZarrOptions;
import io.nczarr.open.OpenDataset;
import io.nczarr.testkit.Corpus;
import io.nczarr.testkit.s3.CountingProxy;
import io.nczarr.testkit.s3.LocalS3;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 26: the requests an open sends to S3, counted on a relay of its own. A Zarr v3 store sends no GET for a
 * v2 group, array or attributes object; with consolidated metadata it costs at most one request per node (here
 * two for eight nodes); the root objects that tell the format are asked for together.
 */
class OpenRequestsTest {
    static final String BUCKET = "openreqs";

    static CountingProxy proxy;
    static NcZarrOptions options;

    @BeforeAll
    static void start() throws IOException {
        LocalS3 s3 = LocalS3.get();
        Path v3 = Corpus.v3Dir();
        s3.upload(v3.resolve("groups.zarr"), BUCKET, "v3/groups.zarr");
        s3.upload(v3.resolve("groups_consolidated.zarr"), BUCKET, "v3/groups_consolidated.zarr");
        s3.upload(Corpus.testDataDir().resolve("autumn-2026/gdal_v2.zarr"), BUCKET, "v2/consolidated.zarr");
        s3.upload(Corpus.testDataDir().resolve("sample.file"), BUCKET, "v2/sample.file");
        s3.upload(Corpus.testDataDir().resolve("autumn-2026/tensorstore_v3.zarr"), BUCKET, "v3/ts.zarr");
        proxy = CountingProxy.start(s3.server.endpoint());
        options = NcZarrOptions.builder().build();
    }

    @AfterAll
    static void stop() {
        options.close();
        proxy.close();
    }

    @BeforeEach
    void reset() {
        proxy.reset();
    }

    private static GroupModel open(String key, String modes) throws IOException {
        String url = proxy.endpoint() + "/" + BUCKET + "/" + key + "#mode=" + modes + "&aws.profile=" + LocalS3.PROFILE;
        try (OpenDataset ds = Datasets.open(Datasets.parse(url), options)) {
            return ds.model().root();
        }
    }

    /** The keys of the GETs sent, relative to the dataset {@code key}. */
    private static List<String> objects(String key) {
        String prefix = "/" + BUCKET + "/" + key + "/";
        return proxy.requests().stream()
                .filter(r -> r.kind().equals("GET"))
                .map(r -> r.path().startsWith(prefix) ? r.path().substring(prefix.length()) : r.path())
                .toList();
    }

    /** No v2 object asked of a v3 store but the root {@code .zgroup} probe sent with its {@code zarr.json}. */
    private static void assertNoV2Objects(List<String> got) {
        for (String k : got) {
            String name = k.substring(k.lastIndexOf('/') + 1);
            assertFalse(
                    !k.equals(".zgroup")
                            && (name.equals(".zgroup") || name.equals(".zarray") || name.equals(".zattrs")),
                    "a v2 object asked of a v3 store: " + got);
        }
    }

    @Test
    void v3WithConsolidatedMetadataCostsAtMostOneRequestPerNode() throws IOException {
        GroupModel root = open("v3/groups_consolidated.zarr", "zarr,s3");
        assertNotNull(root.groups().stream()
                .filter(g -> g.name().equals("a"))
                .findFirst()
                .orElse(null));
        CountingProxy.Counts c = proxy.counts();
        List<String> got = objects("v3/groups_consolidated.zarr");
        // eight nodes (root, scalar, empty, a, a/b, a/b/deepest, a/b/counts, a/temp): the root zarr.json, with the
        // v2 consolidated metadata and group asked for in the same round trip
        assertEquals(0, c.list() + c.head(), c + " " + got);
        assertTrue(c.get() <= 3, c + " " + got);
        assertTrue(got.contains("zarr.json"), got.toString());
        assertNoV2Objects(got);
    }

    @Test
    void v3WithoutConsolidatedMetadataAsksForNoV2Objects() throws IOException {
        GroupModel root = open("v3/groups.zarr", "zarr,s3");
        assertFalse(root.groups().isEmpty());
        List<String> got = objects("v3/groups.zarr");
        assertNoV2Objects(got);
        // every node's zarr.json once, and the probes of .zmetadata and .zgroup beside the root's
        long nodes = got.stream().filter(k -> k.endsWith("zarr.json")).count();
        assertEquals(
                nodes,
                got.stream().distinct().filter(k -> k.endsWith("zarr.json")).count(),
                got.toString());
        assertEquals(nodes + 2, got.size(), got.toString());
    }

    @Test
    void v2WithConsolidatedMetadataIsOneRoundTripOfThreeGets() throws IOException {
        GroupModel root = open("v2/consolidated.zarr", "zarr,s3");
        assertFalse(root.variables().isEmpty());
        CountingProxy.Counts c = proxy.counts();
        List<String> got = objects("v2/consolidated.zarr");
        assertEquals(3, c.get(), c + " " + got);
        assertEquals(0, c.list() + c.head(), c.toString());
        assertTrue(got.containsAll(List.of("zarr.json", ".zmetadata", ".zgroup")), got.toString());
    }

    @Test
    void aV3ArrayOpenedByItsPathIsOneRoundTripWithoutAList() throws IOException {
        // a relay of its own: the open returns on zarr.json's answer, and a v2 probe still in flight (or never
        // sent) must not be counted in another test
        try (CountingProxy own = CountingProxy.start(LocalS3.get().server.endpoint())) {
            String url =
                    own.endpoint() + "/" + BUCKET + "/v3/ts.zarr/sharded#mode=zarr,s3&aws.profile=" + LocalS3.PROFILE;
            try (OpenDataset ds = Datasets.open(Datasets.parse(url), options)) {
                assertEquals(
                        List.of("sharded"),
                        ds.model().root().variables().stream()
                                .map(v -> v.name())
                                .toList());
            }
            CountingProxy.Counts c = own.counts();
            String prefix = "/" + BUCKET + "/v3/ts.zarr/sharded/";
            List<String> got = own.requests().stream()
                    .filter(r -> r.kind().equals("GET"))
                    .map(r -> r.path().startsWith(prefix) ? r.path().substring(prefix.length()) : r.path())
                    .toList();
            assertTrue(got.contains("zarr.json"), c + " " + got);
            assertTrue(List.of(".zgroup", ".zmetadata", "zarr.json").containsAll(got), c + " " + got);
            assertEquals(0, c.list() + c.head(), c.toString());
        }
    }

    @Test
    void v2WithoutConsolidatedMetadataStillOpens() throws IOException {
        GroupModel root = open("v2/sample.file", "nczarr,s3");
        assertFalse(root.variables().isEmpty());
        List<String> got = objects("v2/sample.file");
        assertTrue(got.contains(".zgroup"), got.toString());
        assertEquals(got.size(), got.stream().distinct().count(), "each object once: " + got);
    }
}
