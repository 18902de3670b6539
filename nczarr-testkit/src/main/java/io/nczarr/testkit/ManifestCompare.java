package io.nczarr.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs shared/conformance/compare.py on a manifest against a corpus entry's expected one. */
public final class ManifestCompare {
    private ManifestCompare() {}

    public static void assertConforms(Corpus.Entry e, JsonNode manifest, Path tmp, String label)
            throws IOException, InterruptedException {
        Path actual = tmp.resolve(e.name() + "." + label + ".actual.json");
        new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(actual.toFile(), manifest);
        Path compare = Corpus.corpusDir().resolve("../conformance/compare.py").normalize();
        Process p = new ProcessBuilder(
                        List.of("python3", compare.toString(), e.expected().toString(), actual.toString()))
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "compare.py timed out");
        String[] lines = out.strip().split("\n");
        String summary = lines[lines.length - 1];
        assertEquals(
                0,
                p.exitValue(),
                e.name() + " (" + label + "): " + summary + "\n" + out + "\nactual manifest: "
                        + Files.readString(actual));
        assertTrue(summary.matches("\\d+ passed, 0 failed"), summary);
    }
}
