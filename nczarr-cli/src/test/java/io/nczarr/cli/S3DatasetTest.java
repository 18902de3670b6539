package io.nczarr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.cdm.NcZarrFiles;
import io.nczarr.open.NcZarrOptions;
import io.nczarr.s3.S3ClientPool;
import io.nczarr.testkit.Corpus;
import io.nczarr.testkit.ManifestCompare;
import io.nczarr.testkit.s3.CountingProxy;
import io.nczarr.testkit.s3.LocalS3;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;
import ucar.nc2.dataset.NetcdfDataset;

/** S3 behaviour beyond the manifests: request economy, errors vs fill, parallel reads, client sharing. */
class S3DatasetTest {

    static final String BUCKET = "s3test";
    static LocalS3 s3;
    static Path sample;

    @TempDir
    Path tmp;

    @BeforeAll
    static void upload() {
        s3 = LocalS3.get();
        sample = Corpus.testDataDir().resolve("sample.file");
        s3.upload(sample, BUCKET, "data/sample.file");
    }

    @BeforeEach
    @AfterEach
    void resetRelay() {
        s3.signed.reset();
        s3.signed.faults(null);
        s3.signed.latency(Duration.ZERO);
    }

    static String sampleUrl() {
        return s3.signedUrl(BUCKET, "data/sample.file", "nczarr,s3");
    }

    /** Every variable's values, by full name, as Java arrays. */
    static Map<String, Object> readAll(NetcdfFile nc) throws IOException {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Variable v : nc.getVariables()) {
            out.put(v.getFullName(), v.read().copyTo1DJavaArray());
        }
        return out;
    }

    static void assertSameValues(Map<String, Object> a, Map<String, Object> b) {
        assertEquals(a.keySet(), b.keySet());
        for (String k : a.keySet()) {
            assertTrue(Objects.deepEquals(a.get(k), b.get(k)), k);
        }
    }

    @Test
    void nczarrOpenAndReadMakeNoListAndNoHead() throws IOException {
        Map<String, Object> local;
        try (NetcdfFile nc = NcZarrFiles.open(sample.toUri() + "#mode=nczarr,file")) {
            local = readAll(nc);
        }
        try (NetcdfFile nc = NcZarrFiles.open(sampleUrl())) {
            CountingProxy.Counts open = s3.signed.counts();
            assertEquals(0, open.list(), open.toString());
            assertEquals(0, open.head(), open.toString());
            assertTrue(open.get() > 0, open.toString());
            assertSameValues(local, readAll(nc));
        }
        CountingProxy.Counts all = s3.signed.counts();
        assertEquals(0, all.list() + all.head() + all.other(), all.toString());
    }

    @Test
    void openFetchesNoObjectTwice() throws IOException {
        try (NetcdfFile nc = NcZarrFiles.open(sampleUrl())) {
            assertNotNull(nc.getRootGroup());
            List<String> keys = s3.signed.requests().stream()
                    .map(CountingProxy.Request::path)
                    .toList();
            assertEquals(keys.size(), new java.util.HashSet<>(keys).size(), keys.toString());
        }
    }

    @Test
    void forbiddenChunkIsAnErrorNotFill() throws IOException {
        s3.signed.faults(
                r -> r.path().endsWith("/precip/0.0.1") ? CountingProxy.Fault.status(403, "AccessDenied") : null);
        try (NetcdfFile nc = NcZarrFiles.open(sampleUrl())) {
            Variable precip = nc.findVariable("precip");
            IOException e = assertThrows(IOException.class, precip::read);
            String m = e.getMessage();
            assertTrue(m.contains("403") && m.contains("AccessDenied"), m);
            // dataset, object key and variable, the URL said once
            assertTrue(m.startsWith(s3.signed.endpoint() + "/" + BUCKET + "/data/sample.file: precip/0.0.1: "), m);
            assertEquals(
                    m.indexOf(s3.signed.endpoint().toString()),
                    m.lastIndexOf(s3.signed.endpoint().toString()),
                    m);
            assertNotNull(nc.findVariable("temp").read(), "other variables still read");
        }
    }

    @Test
    void missingChunkIsFill() throws IOException {
        s3.upload(sample, BUCKET, "holes/sample.file");
        s3.server.delete(BUCKET, "holes/sample.file/precip/0.0.1");
        try (NetcdfFile local = NcZarrFiles.open(sample.toUri() + "#mode=nczarr,file");
                NetcdfFile nc = NcZarrFiles.open(s3.signedUrl(BUCKET, "holes/sample.file", "nczarr,s3"))) {
            short[] want = (short[]) local.findVariable("precip").read().copyTo1DJavaArray();
            short[] got = (short[]) nc.findVariable("precip").read().copyTo1DJavaArray();
            // chunk (0,0,1) of shape [4,3,5] chunks [2,2,2] covers time 0-1, lat 0-1, lon 2-3
            for (int t = 0; t < 4; t++) {
                for (int y = 0; y < 3; y++) {
                    for (int x = 0; x < 5; x++) {
                        int i = (t * 3 + y) * 5 + x;
                        boolean hole = t < 2 && y < 2 && (x == 2 || x == 3);
                        assertEquals(hole ? -32767 : want[i], got[i], "precip[" + t + "," + y + "," + x + "]");
                    }
                }
            }
        }
    }

    @Test
    void parallelReadEqualsSequentialAndOverlapsRequests() throws IOException {
        s3.signed.latency(Duration.ofMillis(20));
        Map<String, Object> sequential;
        try (NetcdfFile nc = NcZarrFiles.open(sampleUrl() + "&nczarr.s3.concurrency=1")) {
            s3.signed.reset();
            sequential = readAll(nc);
            assertEquals(1, s3.signed.maxInFlight(), "one request at a time");
        }
        try (NetcdfFile nc = NcZarrFiles.open(sampleUrl())) {
            s3.signed.reset();
            Map<String, Object> parallel = readAll(nc);
            assertTrue(s3.signed.maxInFlight() > 1, "requests overlap: " + s3.signed.maxInFlight());
            assertSameValues(sequential, parallel);
        }
    }

    @Test
    void openFetchesListedMetadataConcurrentlyWithoutExtraRequests() throws IOException {
        s3.signed.latency(Duration.ofMillis(20));
        s3.signed.reset();
        try (NetcdfFile nc = NcZarrFiles.open(sampleUrl() + "&nczarr.s3.concurrency=1")) {
            assertNotNull(nc.getRootGroup());
            assertEquals(1, s3.signed.maxInFlight(), "one request at a time");
        }
        CountingProxy.Counts oneAtATime = s3.signed.counts();
        s3.signed.reset();
        try (NetcdfFile nc = NcZarrFiles.open(sampleUrl())) {
            assertNotNull(nc.getRootGroup());
            assertTrue(s3.signed.maxInFlight() > 1, "metadata requests overlap: " + s3.signed.maxInFlight());
        }
        CountingProxy.Counts prefetched = s3.signed.counts();
        List<String> keys =
                s3.signed.requests().stream().map(CountingProxy.Request::path).toList();
        // no speculative GET: the root zarr.json and .zmetadata, which tell the format, are looked at one at a time
        // too (a v2 store answers both with 404), and asked for together here
        assertEquals(oneAtATime.get(), prefetched.get(), "the same objects: " + keys);
        assertTrue(keys.stream().anyMatch(k -> k.endsWith("/zarr.json")), keys.toString());
        assertEquals(0, prefetched.list() + prefetched.head());
    }

    @Test
    void clientsAreSharedAndClosedWithTheLastDataset() throws IOException {
        S3ClientPool pool = NcZarrOptions.shared().s3Clients();
        int before = pool.openClients();
        NetcdfFile a = NcZarrFiles.open(sampleUrl());
        NetcdfFile b = NcZarrFiles.open(sampleUrl());
        assertEquals(before + 1, pool.openClients(), "same endpoint and credentials: one client");
        NetcdfFile c = NcZarrFiles.open(s3.anonymousUrl(BUCKET, "data/sample.file", "nczarr,s3"));
        assertEquals(before + 2, pool.openClients());
        a.close();
        assertEquals(before + 2, pool.openClients());
        assertNotNull(b.findVariable("temp").read(), "b still reads after a closed");
        b.close();
        c.close();
        assertEquals(before, pool.openClients());
    }

    @Test
    void badCredentialsNeverFallBackToAnonymous() {
        String base = s3.signed.endpoint() + "/" + BUCKET + "/data/sample.file#mode=nczarr,s3&aws.profile=";
        IOException e = assertThrows(IOException.class, () -> NcZarrFiles.open(base + LocalS3.WRONG_PROFILE));
        assertTrue(e.getMessage().contains("403"), e.getMessage());
        assertFalse(e.getMessage().contains("not-the-secret"), e.getMessage());
        e = assertThrows(IOException.class, () -> NcZarrFiles.open(base + LocalS3.REGION_ONLY_PROFILE));
        assertTrue(e.getMessage().contains("no credentials"), e.getMessage());
        e = assertThrows(IOException.class, () -> NcZarrFiles.open(base + "nosuchprofile"));
        assertTrue(e.getMessage().contains("'nosuchprofile' is not defined"), e.getMessage());
        // unsigned requests to the signed endpoint: refused, and said so
        e = assertThrows(IOException.class, () -> NcZarrFiles.open(base + "none"));
        assertTrue(e.getMessage().contains("403") && e.getMessage().contains("unsigned"), e.getMessage());
        assertEquals(0, s3.signed.counts().head());
    }

    @Test
    void awsprofileSpellingAndBucketRootDataset() throws IOException {
        s3.upload(sample, "rootds", "");
        String url = s3.signed.endpoint() + "/rootds#mode=nczarr,s3&awsprofile=" + LocalS3.PROFILE;
        try (NetcdfDataset ds = NcZarrFiles.openDataset(url, true)) {
            assertNotNull(ds.findVariable("temp"));
            assertNotNull(ds.findVariable("obs/t2m"));
        }
    }

    @Test
    void missingDatasetSaysSo() {
        IOException e = assertThrows(
                IOException.class, () -> NcZarrFiles.open(s3.signedUrl(BUCKET, "nosuch/ds.file", "nczarr,s3")));
        assertTrue(e.getMessage().contains("no .zgroup"), e.getMessage());
        assertTrue(e.getMessage().contains("/" + BUCKET + "/nosuch/ds.file"), e.getMessage());
    }

    @Test
    void pureZarrListsWithoutZmetadataAndNotWithIt() throws Exception {
        Corpus.Entry edge = Corpus.byName("edge");
        s3.upload(edge.path(), BUCKET, "plain/edge.zarr");
        Path consolidated = tmp.resolve("edge.zarr");
        copyTree(edge.path(), consolidated);
        Files.writeString(consolidated.resolve(".zmetadata"), consolidate(edge.path()));
        s3.upload(consolidated, BUCKET, "consolidated/edge.zarr");

        s3.signed.reset();
        ObjectNode plain = ConformanceHelpers.manifest(s3.signedUrl(BUCKET, "plain/edge.zarr", "zarr,s3"), "edge");
        assertTrue(s3.signed.counts().list() > 0, "no .zmetadata: the hierarchy is listed");
        ManifestCompare.assertConforms(edge, plain, tmp, "plain");

        s3.signed.reset();
        ObjectNode cons =
                ConformanceHelpers.manifest(s3.signedUrl(BUCKET, "consolidated/edge.zarr", "zarr,s3"), "edge");
        assertEquals(0, s3.signed.counts().list(), "with .zmetadata: no LIST " + s3.signed.counts());
        assertEquals(0, s3.signed.counts().head());
        ManifestCompare.assertConforms(edge, cons, tmp, "consolidated");
    }

    static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path q = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(q);
                } else {
                    Files.copy(p, q);
                }
            }
        }
    }

    /** zarr-python's consolidate_metadata: every .zgroup/.zarray/.zattrs under one key. */
    static String consolidate(Path root) throws IOException {
        ObjectMapper m = new ObjectMapper();
        ObjectNode meta = m.createObjectNode();
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.walk(root)) {
            s.filter(p -> p.getFileName().toString().matches("\\.z(group|array|attrs)"))
                    .sorted()
                    .forEach(files::add);
        }
        for (Path p : files) {
            JsonNode n = m.readTree(p.toFile());
            meta.set(root.relativize(p).toString().replace('\\', '/'), n);
        }
        ObjectNode top = m.createObjectNode();
        top.put("zarr_consolidated_format", 1);
        top.set("metadata", meta);
        return m.writeValueAsString(top);
    }
}
