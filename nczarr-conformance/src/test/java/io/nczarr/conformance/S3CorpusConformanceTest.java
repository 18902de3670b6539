package io.nczarr.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.cdm.NcZarrFiles;
import io.nczarr.cli.Manifest;
import io.nczarr.testkit.Corpus;
import io.nczarr.testkit.ManifestCompare;
import io.nczarr.testkit.s3.CountingProxy;
import io.nczarr.testkit.s3.LocalS3;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.nc2.NetcdfFile;

/**
 * The corpus' directory datasets (shared corpus and test-data) uploaded to the loopback S3
 * server and opened by {@code http://127.0.0.1:PORT/corpus/NAME/DIR#mode=...,s3} URLs, signed
 * and unsigned: the manifests must pass compare.py against the same expected manifests as the
 * local tests. Server-side counts: an NCZarr open and full read makes no LIST and no HEAD;
 * nothing ever makes a HEAD.
 */
class S3CorpusConformanceTest {

    static final String BUCKET = "corpus";

    @TempDir
    Path tmp;

    static Stream<Corpus.Entry> directoryDatasets() {
        List<Corpus.Entry> out = new ArrayList<>();
        for (List<Corpus.Entry> l : List.of(Corpus.datasets(), Corpus.testData())) {
            for (Corpus.Entry e : l) {
                if (Files.isDirectory(e.path())) {
                    out.add(e);
                }
            }
        }
        return out.stream();
    }

    /** The key the dataset is uploaded under: {@code NAME/<folder name>}. */
    static String key(Corpus.Entry e) {
        return e.name() + "/" + e.path().getFileName();
    }

    static ObjectNode manifest(String url, String name) {
        try (NetcdfFile nc = NcZarrFiles.open(url)) {
            return Manifest.of(nc, name);
        } catch (IOException | RuntimeException ex) {
            ObjectNode err = Manifest.MAPPER.createObjectNode();
            err.put("error", String.valueOf(ex.getMessage()));
            return err;
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("directoryDatasets")
    void signed(Corpus.Entry e) throws Exception {
        LocalS3 s3 = LocalS3.get();
        s3.upload(e.path(), BUCKET, key(e));
        String modes = LocalS3.s3Modes(e.fragment());
        CountingProxy proxy = s3.signed;
        proxy.reset();
        ObjectNode m = manifest(s3.signedUrl(BUCKET, key(e), modes), e.name());
        CountingProxy.Counts c = proxy.counts();
        assertEquals(0, c.head(), "HEAD requests: " + c);
        if (modes.startsWith("nczarr")) {
            assertEquals(0, c.list(), "an NCZarr open and read must not LIST: " + c);
        }
        ManifestCompare.assertConforms(e, m, tmp, "s3-signed");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("directoryDatasets")
    void anonymous(Corpus.Entry e) throws Exception {
        LocalS3 s3 = LocalS3.get();
        s3.upload(e.path(), BUCKET, key(e));
        ObjectNode m = manifest(s3.anonymousUrl(BUCKET, key(e), LocalS3.s3Modes(e.fragment())), e.name());
        ManifestCompare.assertConforms(e, m, tmp, "s3-anonymous");
    }
}
