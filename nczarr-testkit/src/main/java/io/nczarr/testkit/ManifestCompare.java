package io.nczarr.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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

    /** Types, shapes and data summaries of every variable the expected manifest has, in the actual one. */
    public static void assertVariablesAgree(JsonNode actual, JsonNode expected, String label) {
        JsonNode av = actual.get("variables");
        assertNotNull(av, label + ": " + actual);
        for (Map.Entry<String, JsonNode> e : expected.get("variables").properties()) {
            JsonNode a = av.get(e.getKey());
            assertNotNull(a, label + ": variable " + e.getKey() + " missing in " + av);
            assertEquals(e.getValue().get("type"), a.get("type"), label + " " + e.getKey() + " type");
            assertEquals(e.getValue().get("shape"), a.get("shape"), label + " " + e.getKey() + " shape");
            JsonNode ed = e.getValue().get("data");
            JsonNode ad = a.get("data");
            assertEquals(ed.get("sha256"), ad.get("sha256"), label + " " + e.getKey() + " data: " + ed + " vs " + ad);
            assertEquals(ed.get("count").asLong(), ad.get("count").asLong(), label + " " + e.getKey());
        }
        assertTrue(expected.get("variables").size() > 0);
    }
}
