package io.nczarr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nczarr.testkit.Corpus;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class MainTest {

    record Run(int rc, String out, String err) {}

    static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Main.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void dumpWithoutUrlDumpsTheBundledSample() {
        System.setProperty("nczarr.home", Corpus.testDataDir().getParent().toString());
        Run r = run("dump");
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().contains("float temp(time=4, lat=3, lon=5)"), r.out());
        assertTrue(r.out().contains("data:"), r.out());
    }

    @Test
    void dumpHeaderOnly() {
        Run r = run("dump", "-h", Corpus.byName("sample").url());
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().contains("group: obs"), r.out());
        assertTrue(!r.out().contains("data:"), r.out());
    }

    @Test
    void jsonPrintsTheManifest() throws Exception {
        Run r = run("json", Corpus.byName("nczarr_groups").url());
        assertEquals(0, r.rc(), r.err());
        JsonNode m = Manifest.MAPPER.readTree(r.out());
        assertEquals("zarr-conformance-manifest/1", m.get("schema").asText());
        assertTrue(m.get("groups").has("/forecast"), r.out());
    }

    @Test
    void jsonOpenFailureIsAnErrorObjectAndNonZeroExit() throws Exception {
        Run r = run("json", Corpus.byName("bad_json_zarray").url());
        assertEquals(1, r.rc());
        JsonNode m = Manifest.MAPPER.readTree(r.out());
        assertTrue(m.get("error").asText().contains("broken/.zarray"), r.out());
    }

    @Test
    void unreadableVariableGetsADataError() throws Exception {
        Run r = run("json", Corpus.byName("bad_chunk_truncated").url());
        assertEquals(0, r.rc(), r.err());
        JsonNode data =
                Manifest.MAPPER.readTree(r.out()).get("variables").get("/v").get("data");
        assertTrue(data.get("error").asText().contains("v/1"), data.toString());
    }

    @Test
    void usageAndUnknownCommand() {
        assertEquals(0, run("--help").rc());
        Run r = run("frobnicate");
        assertEquals(2, r.rc());
        assertTrue(r.err().contains("unknown command"));
    }
}
