package io.nczarr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.testkit.Corpus;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 25, item 3: help, version and usage errors of every command (in-process; LauncherIT runs ./nczarr). */
class CommandLineTest {

    @Test
    void everyCommandHasItsOwnHelpEvenWhereItTakesAUrl() {
        for (String cmd : Help.COMMANDS.keySet()) {
            MainTest.Run r = MainTest.run(cmd, "--help");
            assertEquals(0, r.rc(), cmd + ": " + r.err());
            assertTrue(r.out().startsWith("usage: nczarr " + cmd), cmd + ": " + r.out());
            assertEquals("", r.err(), cmd);
            MainTest.Run h = MainTest.run("help", cmd);
            assertEquals(r.out(), h.out(), "nczarr help " + cmd);
        }
        // a URL first and --help after it is still help, never a dataset named --help
        MainTest.Run r = MainTest.run("json", Corpus.byName("sample").url(), "--help");
        assertEquals(0, r.rc());
        assertTrue(r.out().startsWith("usage: nczarr json URL"), r.out());
    }

    @Test
    void topLevelHelpVersionAndServeBucket() {
        for (String h : List.of("-h", "--help", "help")) {
            MainTest.Run r = MainTest.run(h);
            assertEquals(0, r.rc(), h);
            assertTrue(r.out().contains("--bucket NAME"), r.out());
            assertTrue(r.out().contains("java -jar nczarr-cli/target/nczarr-cli.jar"), r.out());
        }
        MainTest.Run v = MainTest.run("--version");
        assertEquals(0, v.rc());
        assertTrue(
                v.out().matches("nczarr \\d+\\.\\d+\\.\\d+(-SNAPSHOT)? \\(netCDF-Java cdm 4\\.5\\.5, Java .*\\)\\R"),
                v.out());
        MainTest.Run none = MainTest.run();
        assertEquals(2, none.rc());
        assertTrue(none.err().startsWith("usage: nczarr"), none.err());
    }

    @Test
    void unknownOptionsAndBadNumbersExit2NamingTheOption() {
        String sample = Corpus.byName("sample").url();
        String dir = Corpus.testDataDir().toString();
        List<String[]> cases = List.of(
                new String[] {"--frobnicate", "--frobnicate"},
                new String[] {"dump", "--frobnicate", sample, "--frobnicate"},
                new String[] {"json", "-x", sample, "-x"},
                new String[] {"ls", "--long", sample, "--long"},
                new String[] {"bench", sample, "--repeat", "many", "--repeat"},
                new String[] {"bench", sample, "--repeat", "0", "--repeat"},
                new String[] {"bench", sample, "--repeat", "--repeat"},
                new String[] {"bench", sample, "--fast", "--fast"},
                new String[] {"quicklook", sample, "temp", "--index", "time=x", "--index time"},
                new String[] {"quicklook", sample, "temp", "--zoom", "--zoom"},
                new String[] {"serve", dir, "--port", "http", "--port"},
                new String[] {"serve", dir, "--verbose", "--verbose"},
                new String[] {"demo", "--now", "demo takes no arguments"});
        for (String[] c : cases) {
            String[] args = java.util.Arrays.copyOf(c, c.length - 1);
            String named = c[c.length - 1];
            MainTest.Run r = MainTest.run(args);
            String what = String.join(" ", args) + " -> " + r.err();
            assertEquals(2, r.rc(), what);
            assertTrue(r.err().contains(named), what);
            assertFalse(r.err().contains("NumberFormatException") || r.err().contains("For input string"), what);
            assertFalse(r.err().contains("\tat "), what);
            assertEquals("", r.out(), what);
        }
    }

    @Test
    void dashHWinsOverDashCInEitherOrder() {
        String sample = Corpus.byName("sample").url();
        MainTest.Run hc = MainTest.run("dump", "-h", "-c", sample);
        MainTest.Run ch = MainTest.run("dump", "-c", "-h", sample);
        assertEquals(0, hc.rc(), hc.err());
        assertEquals(hc.out(), ch.out());
        assertFalse(ch.out().contains("data:"), ch.out());
    }

    @Test
    void dumpFormatJsonIsTheJsonCommand() {
        String sample = Corpus.byName("sample").url();
        MainTest.Run json = MainTest.run("json", sample);
        MainTest.Run dump = MainTest.run("dump", "--format", "json", sample);
        assertEquals(0, json.rc(), json.err());
        assertEquals(json.rc(), dump.rc());
        assertEquals(json.out(), dump.out());
        MainTest.Run cdl = MainTest.run("dump", "--format", "cdl", "-h", sample);
        assertEquals(MainTest.run("dump", "-h", sample).out(), cdl.out());
        assertEquals(2, MainTest.run("dump", "--format", "xml", sample).rc());
        assertEquals(2, MainTest.run("dump", "--format", "json", "-h", sample).rc());
    }

    @Test
    void jsonExitsOneWhenAVariableCannotBeRead(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws Exception {
        // the project's own sample with one chunk cut short: runs without the conformance corpus too
        java.nio.file.Path copy = tmp.resolve("sample.file");
        try (var files = java.nio.file.Files.walk(Corpus.byName("sample").path())) {
            for (java.nio.file.Path f : (Iterable<java.nio.file.Path>) files::iterator) {
                java.nio.file.Path to = copy.resolve(
                        Corpus.byName("sample").path().relativize(f).toString());
                if (java.nio.file.Files.isDirectory(f)) {
                    java.nio.file.Files.createDirectories(to);
                } else {
                    java.nio.file.Files.copy(f, to);
                }
            }
        }
        java.nio.file.Path chunk = copy.resolve("temp/0.0.0");
        byte[] b = java.nio.file.Files.readAllBytes(chunk);
        java.nio.file.Files.write(chunk, java.util.Arrays.copyOf(b, b.length / 2));
        for (String[] args : List.of(
                new String[] {"json", copy.toString()}, new String[] {"dump", "--format", "json", copy.toString()})) {
            MainTest.Run r = MainTest.run(args);
            assertEquals(1, r.rc(), r.err());
            var m = Manifest.MAPPER.readTree(r.out());
            assertTrue(m.get("variables").get("/temp").get("data").has("error"), r.out());
            assertFalse(m.get("variables").get("/lat").get("data").has("error"), r.out());
            assertTrue(r.err().contains("/temp: "), r.err());
        }
    }
}
