package io.nczarr.conformance;

import io.nczarr.testkit.Corpus;
import io.nczarr.testkit.ManifestCompare;
import io.nczarr.testkit.http.RangeHttpServer;
import io.nczarr.testkit.s3.LocalS3;
import java.io.IOException;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 23: Icechunk repositories written by icechunk 2.3.0 (test-data/icechunk, make.py) read equal to what
 * icechunk + zarr-python read, for each snapshot selection (main, tag v1, branch dev) and with virtual chunks
 * in a netCDF-4 file (containers named or declared by URL prefix, spec 2 and spec 1), from the directory,
 * over the loopback HTTP server and from loopback S3.
 */
class IcechunkConformanceTest {
    static final String BUCKET = "icechunk";
    static RangeHttpServer http;

    @TempDir
    java.nio.file.Path tmp;

    @BeforeAll
    static void serve() throws IOException {
        http = RangeHttpServer.start();
        for (Corpus.Entry e : entries().toList()) {
            http.putTree("/ic/" + e.path().getFileName(), e.path());
        }
        http.putTree("/ic-src", Corpus.icechunkDir()); // virt_src.nc: the virtual chunks' target over HTTP
    }

    @AfterAll
    static void stop() throws Exception {
        http.close();
    }

    static Stream<Corpus.Entry> entries() {
        List<Corpus.Entry> all = Corpus.icechunkDatasets();
        return all.stream();
    }

    /** The fragment after the modes ({@code &tag=v1}...), plus the container mapping of virtual datasets. */
    static String rest(Corpus.Entry e) {
        return rest(e, Corpus.icechunkDir().toUri().toString());
    }

    static String rest(Corpus.Entry e, String sourcePrefix) {
        String f = e.fragment();
        int amp = f.indexOf('&');
        String rest = amp < 0 ? "" : f.substring(amp);
        if (e.category().equals("icechunk-virtual")) {
            rest += "&icechunk.container.src=" + sourcePrefix;
        } else if (e.category().equals("icechunk-virtual-prefix")) {
            // a container named by its URL prefix (spec-1 config.yaml, VirtualiZarr 2.x): authorized and mapped
            // by that prefix
            rest += "&icechunk.container=file:///nczarr-icechunk-src/=" + sourcePrefix;
        }
        return rest;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("entries")
    void local(Corpus.Entry e) throws Exception {
        String url = e.path().toUri().toString().replaceAll("/$", "") + "#mode=zarr,icechunk" + rest(e);
        ManifestCompare.assertConforms(e, S3CorpusConformanceTest.manifest(url, e.name()), tmp, "local");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("entries")
    void http(Corpus.Entry e) throws Exception {
        // the virtual chunks too come from the HTTP server: the container mapped to it
        String url = http.url("/ic/" + e.path().getFileName()) + "#mode=zarr,icechunk" + rest(e, http.url("/ic-src/"));
        ManifestCompare.assertConforms(e, S3CorpusConformanceTest.manifest(url, e.name()), tmp, "http");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("entries")
    void s3(Corpus.Entry e) throws Exception {
        LocalS3 s3 = LocalS3.get();
        String key = "repos/" + e.path().getFileName();
        s3.upload(e.path(), BUCKET, key);
        String url = s3.signedUrl(BUCKET, key, "zarr,icechunk,s3") + rest(e);
        ManifestCompare.assertConforms(e, S3CorpusConformanceTest.manifest(url, e.name()), tmp, "s3-signed");
    }
}
