package io.nczarr.conformance;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.testkit.Corpus;
import io.nczarr.testkit.ManifestCompare;
import io.nczarr.testkit.http.RangeHttpServer;
import io.nczarr.testkit.s3.LocalS3;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 22: stores written by this autumn's producers (test-data/autumn-2026, made by make.py) read
 * equal to the producers' own manifests, locally, over the loopback HTTP server and from loopback S3.
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
            http.putTree("/autumn/" + e.name(), e.path());
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
        String url = http.url("/autumn/" + e.name()) + e.fragment().replace(",file", "");
        ManifestCompare.assertConforms(e, S3CorpusConformanceTest.manifest(url, e.name()), tmp, "http");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("entries")
    void s3(Corpus.Entry e) throws Exception {
        LocalS3 s3 = LocalS3.get();
        String key = e.name() + "/" + e.path().getFileName();
        s3.upload(e.path(), BUCKET, key);
        ObjectNode m =
                S3CorpusConformanceTest.manifest(s3.signedUrl(BUCKET, key, LocalS3.s3Modes(e.fragment())), e.name());
        ManifestCompare.assertConforms(e, m, tmp, "s3-signed");
    }
}
