package io.nczarr.conformance;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.cli.Manifest;
import io.nczarr.testkit.Corpus;
import io.nczarr.testkit.ManifestCompare;
import io.nczarr.testkit.http.RangeHttpServer;
import io.nczarr.testkit.s3.LocalS3;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 22: stores written by this autumn's producers (test-data/autumn-2026, made by make.py) read
 * equal to the producers' own manifests, locally, over the loopback HTTP server and from loopback S3. An
 * INDEX entry's {@code plain_http} ({@code {"outcome": "open_error", "mentions": [...]}}) says that a plain HTTP
 * server cannot serve it (GDAL's Zarr v3 stores have no consolidated metadata and cannot be listed there): the
 * open must then fail with a message naming one of {@code mentions}, never read something else.
 */
class AutumnConformanceTest {

    static final String BUCKET = "autumn";
    static RangeHttpServer http;

    @TempDir
    java.nio.file.Path tmp;

    @BeforeAll
    static void serve() throws IOException {
        http = RangeHttpServer.start();
        for (Corpus.Entry e : all()) {
            http.putTree(httpPath(e), served(e));
        }
    }

    @AfterAll
    static void stop() throws Exception {
        http.close();
    }

    static List<Corpus.Entry> all() {
        List<Corpus.Entry> out = new ArrayList<>(Corpus.autumnDatasets());
        out.addAll(Corpus.autumnBad());
        return out;
    }

    /** {@code plain_http} expectations of INDEX.json, by dataset name. */
    static Map<String, JsonNode> plainHttp() throws IOException {
        Map<String, JsonNode> out = new HashMap<>();
        JsonNode index = Manifest.MAPPER.readTree(
                Corpus.autumnDir().resolve("INDEX.json").toFile());
        for (JsonNode d : index.path("datasets")) {
            if (d.has("plain_http")) {
                out.put(d.get("name").asText(), d.get("plain_http"));
            }
        }
        return out;
    }

    /**
     * What is served or uploaded for an entry: its store, or for references (category {@code references}) the
     * folder that holds them, since their targets are relative to the reference file.
     */
    static java.nio.file.Path served(Corpus.Entry e) {
        return references(e) ? e.path().getParent() : e.path();
    }

    /** The entry's path below what {@link #served} serves: "" or "/" + the reference file's name. */
    static String below(Corpus.Entry e) {
        return references(e) ? "/" + e.path().getFileName() : "";
    }

    /** Where the entry is served over HTTP: below its name, under its own folder name (which names a lone array). */
    static String httpPath(Corpus.Entry e) {
        return "/autumn/" + e.name() + "/" + served(e).getFileName();
    }

    static boolean references(Corpus.Entry e) {
        return e.category().equals("references");
    }

    static Stream<Corpus.Entry> entries() {
        return all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("entries")
    void local(Corpus.Entry e) throws Exception {
        ManifestCompare.assertConforms(e, CorpusConformanceTest.manifest(e), tmp, "local");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("entries")
    void http(Corpus.Entry e) throws Exception {
        String url = http.url(httpPath(e) + below(e)) + e.fragment().replace(",file", "");
        ObjectNode m = S3CorpusConformanceTest.manifest(url, e.name());
        JsonNode refusal = plainHttp().get(e.name());
        if (refusal != null) {
            assertRefused(e.name(), m, refusal);
            return;
        }
        ManifestCompare.assertConforms(e, m, tmp, "http");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("entries")
    void s3(Corpus.Entry e) throws Exception {
        LocalS3 s3 = LocalS3.get();
        String key = e.name() + "/" + served(e).getFileName();
        s3.upload(served(e), BUCKET, key);
        key += below(e);
        ObjectNode m =
                S3CorpusConformanceTest.manifest(s3.signedUrl(BUCKET, key, LocalS3.s3Modes(e.fragment())), e.name());
        ManifestCompare.assertConforms(e, m, tmp, "s3-signed");
    }

    static void assertRefused(String name, ObjectNode m, JsonNode refusal) {
        assertTrue(m.has("error"), name + " (http): expected an open error, got a manifest");
        String msg = m.get("error").asText().toLowerCase(Locale.ROOT);
        boolean named = false;
        for (JsonNode w : refusal.path("mentions")) {
            named |= msg.contains(w.asText().toLowerCase(Locale.ROOT));
        }
        assertTrue(named, name + " (http): the error names none of " + refusal.path("mentions") + ": " + msg);
    }
}
