package io.nczarr.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.testkit.Corpus;
import io.nczarr.testkit.ManifestCompare;
import io.nczarr.testkit.s3.CountingProxy;
import io.nczarr.testkit.s3.LocalS3;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Zarr v3 directory datasets and bad inputs of test-data/v3 uploaded to the loopback S3 server:
 * the manifests must pass compare.py against the same expected manifests as the local tests, and
 * nothing makes a HEAD request; NCZarr over v3 makes no LIST either.
 */
class V3S3ConformanceTest {

    static final String BUCKET = "corpus";

    @TempDir
    Path tmp;

    static Stream<Corpus.Entry> directoryDatasets() {
        List<Corpus.Entry> out = new ArrayList<>();
        for (List<Corpus.Entry> l : List.of(Corpus.v3Datasets(), Corpus.v3Bad())) {
            for (Corpus.Entry e : l) {
                if (Files.isDirectory(e.path())) {
                    out.add(e);
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("directoryDatasets")
    void signed(Corpus.Entry e) throws Exception {
        LocalS3 s3 = LocalS3.get();
        String key = e.name() + "/" + e.path().getFileName();
        s3.upload(e.path(), BUCKET, key);
        CountingProxy proxy = s3.signed;
        proxy.reset();
        ObjectNode m =
                S3CorpusConformanceTest.manifest(s3.signedUrl(BUCKET, key, LocalS3.s3Modes(e.fragment())), e.name());
        assertEquals(0, proxy.counts().head(), "HEAD requests: " + proxy.counts());
        if (e.fragment().contains("nczarr")) {
            assertEquals(0, proxy.counts().list(), "NCZarr over v3 lists its members: no LIST " + proxy.counts());
        }
        ManifestCompare.assertConforms(e, m, tmp, "s3-signed");
    }
}
