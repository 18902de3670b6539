package io.nczarr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nczarr.testkit.Corpus;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
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
        assertTrue(r.out().contains("float temp(time, lat, lon) ;"), r.out());
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
        // issue 25 item 4: the manifest is still written, and the exit status says a read failed
        assertEquals(1, r.rc(), r.err());
        JsonNode data =
                Manifest.MAPPER.readTree(r.out()).get("variables").get("/v").get("data");
        assertTrue(data.get("error").asText().contains("v/1"), data.toString());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("nczarr json: ") && r.err().contains("/v: "), r.err());
        assertTrue(r.err().contains("v/1"), r.err());
    }

    @Test
    void usageAndUnknownCommand() {
        assertEquals(0, run("--help").rc());
        Run r = run("frobnicate");
        assertEquals(2, r.rc());
        assertTrue(r.err().contains("unknown command"));
    }

    @Test
    void dashVPrintsOnlyTheNamedVariablesData() {
        Run r = run("dump", "-v", "temp,/obs/t2m", Corpus.byName("sample").url());
        assertEquals(0, r.rc(), r.err());
        String data = r.out().substring(r.out().indexOf("data:"));
        assertTrue(data.contains(" temp =") && data.contains(" t2m ="), r.out());
        assertFalse(data.contains(" precip =") || data.contains(" lat =") || data.contains(" elevation ="), r.out());
        // the header still lists every variable, as ncdump -v does
        assertTrue(r.out().contains("short precip(time, lat, lon) ;"), r.out());
    }

    @Test
    void dashVRejectsAnUnknownName() {
        Run r = run("dump", "-v", "temp,nope", Corpus.byName("sample").url());
        assertEquals(1, r.rc());
        assertTrue(r.err().contains("no variable 'nope'"), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }

    @Test
    void lsAndBenchWorkOnBytesMode() {
        String url = Corpus.testDataDir().resolve("sample.twin.nc").toUri() + "#mode=bytes";
        Run ls = run("ls", url);
        assertEquals(0, ls.rc(), ls.err());
        assertTrue(ls.out().contains("/obs/t2m"), ls.out());
        assertTrue(ls.out().contains("(time=4, lat=3, lon=5) chunks 3 2 4"), ls.out());
        Run bench = run("bench", url, "temp", "--repeat", "1");
        assertEquals(0, bench.rc(), bench.err());
        assertTrue(bench.out().contains("temp") && bench.out().contains("best:"), bench.out());
        assertEquals("", bench.err());
    }

    @Test
    void corruptChunkDuringDumpIsANonZeroExitWithOneLine() {
        Run r = run("dump", Corpus.byName("bad_chunk_truncated").url());
        assertEquals(1, r.rc());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("v/1") && r.err().contains("truncated"), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
    }

    @Test
    void stackTraceOnlyWithDebug() {
        Run r = run("dump", "--debug", Corpus.byName("bad_chunk_truncated").url());
        assertEquals(1, r.rc());
        assertTrue(r.err().contains("\tat io.nczarr"), r.err());
    }

    @Test
    void everyCommandFailsWithOneLineAndNonZero() {
        String missing = Corpus.testDataDir().resolve("no-such-dataset.zarr").toString();
        for (String[] args : List.of(
                new String[] {"dump", missing},
                new String[] {"ls", missing},
                new String[] {"bench", missing},
                new String[] {"json", missing},
                new String[] {"dump", "-h", Corpus.byName("bad_json_zarray").url()},
                new String[] {"ls", Corpus.byName("bad_json_zarray").url()},
                new String[] {"bench", Corpus.byName("bad_chunk_truncated").url(), "--repeat", "1"})) {
            Run r = run(args);
            assertNotEquals(0, r.rc(), String.join(" ", args));
            assertEquals(1, r.err().strip().lines().count(), String.join(" ", args) + ": " + r.err());
            assertFalse(r.err().contains("Exception"), r.err());
            // the URL is named once, never twice
            String first = r.err().contains("no-such") ? "no-such-dataset" : args[args.length - 1];
            int at = r.err().indexOf(first);
            assertTrue(at < 0 || r.err().indexOf(first, at + 1) < 0, r.err());
        }
        Run usage = run("ls");
        assertEquals(2, usage.rc());
    }
}
