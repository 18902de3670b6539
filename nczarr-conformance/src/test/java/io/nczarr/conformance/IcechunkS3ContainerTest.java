package io.nczarr.conformance;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.testkit.Corpus;
import io.nczarr.testkit.ManifestCompare;
import io.nczarr.testkit.s3.LocalS3;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 23: virtual Icechunk chunks whose container is on S3. The repository and its netCDF source files are
 * both on the loopback S3 server; the repository's container ({@code file:///nczarr-icechunk-src/}) is mapped
 * with {@code icechunk.container.src=} to an S3 prefix. In the repository's own bucket the chunks are signed
 * with the user's profile; in another (private) bucket only when {@code nczarr.trust.credentials} binds it.
 */
class IcechunkS3ContainerTest {
    static final String BUCKET = "icechunk-vc";
    static final String OTHER = "icechunk-vc-src";

    @TempDir
    Path tmp;

    @BeforeAll
    static void upload() throws IOException {
        LocalS3 s3 = LocalS3.get();
        s3.server.createBucket(BUCKET);
        s3.server.createBucket(OTHER);
        try (Stream<Path> files = Files.list(Corpus.icechunkDir())) {
            for (Path f : files.filter(p -> p.toString().endsWith(".nc")).toList()) {
                byte[] data = Files.readAllBytes(f);
                s3.server.put(BUCKET, "src/" + f.getFileName(), data);
                s3.server.put(OTHER, "nc/" + f.getFileName(), data);
            }
        }
    }

    static Stream<Corpus.Entry> entries() {
        return Corpus.icechunkDatasets().stream().filter(e -> e.category().equals("icechunk-virtual"));
    }

    static String repoUrl(Corpus.Entry e) {
        LocalS3 s3 = LocalS3.get();
        String key = "repos/" + e.path().getFileName();
        s3.upload(e.path(), BUCKET, key);
        return s3.signedUrl(BUCKET, key, "zarr,icechunk,s3");
    }

    /** The container on S3 in the repository's own bucket and endpoint: signed with the user's profile. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("entries")
    void sameBucket(Corpus.Entry e) throws Exception {
        String prefix = LocalS3.get().signed.endpoint() + "/" + BUCKET + "/src/";
        String url = repoUrl(e) + "&icechunk.container.src=" + prefix;
        ManifestCompare.assertConforms(e, S3CorpusConformanceTest.manifest(url, e.name()), tmp, "s3-container");
    }

    /** Another private bucket: unsigned (refused by the server) unless nczarr.trust.credentials binds it. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("entries")
    void otherBucketNeedsCredentialBinding(Corpus.Entry e) throws Exception {
        String prefix = LocalS3.get().signed.endpoint() + "/" + OTHER + "/nc/";
        String url = repoUrl(e) + "&icechunk.container.src=" + prefix;
        ObjectNode unsigned = S3CorpusConformanceTest.manifest(url, e.name());
        String text = unsigned.toString(); // the chunks' read errors (per variable), never data
        assertTrue(text.contains("HTTP 403") && text.contains("unsigned"), () -> "unsigned read succeeded: " + text);
        String bound = url + "&nczarr.trust.credentials=" + prefix;
        ManifestCompare.assertConforms(e, S3CorpusConformanceTest.manifest(bound, e.name()), tmp, "s3-container-bound");
    }
}
