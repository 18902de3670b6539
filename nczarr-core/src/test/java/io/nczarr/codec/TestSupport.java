package io.nczarr.codec;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.nczarr.testkit.Corpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

final class TestSupport {
    private TestSupport() {}

    /**
     * The shared corpus (system property corpus.dir, set by the parent pom, else ../shared/corpus); a test
     * asking for it is skipped when it is absent (the test kit's Corpus, one line per test class).
     */
    static Path corpusDir() {
        return Corpus.corpusDir();
    }

    static Path requireCorpus(String sub) {
        Path d = corpusDir().resolve(sub);
        assumeTrue(Files.exists(d), "corpus not found at " + d);
        return d;
    }

    static String sha256(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
