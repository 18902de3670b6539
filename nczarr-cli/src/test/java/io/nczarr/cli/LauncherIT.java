package io.nczarr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25: the {@code ./nczarr} launcher and {@code java -jar nczarr-cli.jar} as a user runs them, after
 * {@code package}. The launcher runs from an installation in a temporary folder (its own copy of the
 * script, the jars and test-data, no {@code ../shared} beside it) through a symlink in another folder, the
 * way one links it onto the PATH.
 */
class LauncherIT {
    @TempDir
    static Path tmp;

    static Path repo;
    static Path install;
    static Path link;
    static Path elsewhere;

    record Result(int rc, String out, String err) {}

    @BeforeAll
    static void installAndLink() throws IOException {
        repo = Paths.get(System.getProperty("repo.dir", "..")).toAbsolutePath().normalize();
        Path jar = Paths.get(System.getProperty("cli.jar", "target/nczarr-cli.jar"))
                .toAbsolutePath();
        install = tmp.resolve("opt/nczarr-java");
        Path target = install.resolve("nczarr-cli/target");
        Files.createDirectories(target);
        Files.copy(repo.resolve("nczarr"), install.resolve("nczarr"));
        assertTrue(install.resolve("nczarr").toFile().setExecutable(true));
        // copies (the stale-archive test changes the jar's time; libraries hard-linked where possible), and
        // test-data linked
        Files.copy(jar, target.resolve("nczarr-cli.jar"));
        Path lib = Files.createDirectories(target.resolve("lib"));
        try (var files = Files.list(jar.resolveSibling("lib"))) {
            for (Path f : (Iterable<Path>) files::iterator) {
                try {
                    Files.createLink(lib.resolve(f.getFileName()), f);
                } catch (IOException | UnsupportedOperationException e) {
                    Files.copy(f, lib.resolve(f.getFileName()));
                }
            }
        }
        Files.createSymbolicLink(install.resolve("test-data"), repo.resolve("test-data"));
        Files.createDirectories(tmp.resolve("bin"));
        link = Files.createSymbolicLink(tmp.resolve("bin/nczarr"), Paths.get("../opt/nczarr-java/nczarr"));
        elsewhere = Files.createDirectories(tmp.resolve("work"));
        assertFalse(Files.exists(tmp.resolve("opt/shared")), "no conformance corpus beside the installation");
    }

    static Result run(Map<String, String> env, List<String> command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(elsewhere.toFile());
        pb.environment().putAll(env);
        File out = tmp.resolve("out.txt").toFile();
        File err = tmp.resolve("err.txt").toFile();
        pb.redirectOutput(out).redirectError(err);
        Process p = pb.start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "timed out: " + command);
        return new Result(
                p.exitValue(),
                Files.readString(out.toPath(), StandardCharsets.UTF_8),
                Files.readString(err.toPath(), StandardCharsets.UTF_8));
    }

    static Result nczarr(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(link.toString()));
        cmd.addAll(List.of(args));
        return run(Map.of("NCZARR_NO_CDS", "1"), cmd);
    }

    @Test
    void throughASymlinkFromAnotherFolderWithoutTheCorpus() throws Exception {
        Result v = nczarr("--version");
        assertEquals(0, v.rc(), v.err());
        assertTrue(v.out().startsWith("nczarr "), v.out());
        assertEquals("", v.err());

        Result dump = nczarr("dump", "-h");
        assertEquals(0, dump.rc(), dump.err());
        assertTrue(dump.out().startsWith("netcdf sample {"), dump.out());

        Result json = nczarr("json", repo.resolve("test-data/sample.file").toString());
        assertEquals(0, json.rc(), json.err());
        JsonNode m = new ObjectMapper().readTree(json.out());
        assertEquals("zarr-conformance-manifest/1", m.get("schema").asText());
        // our jar logs nothing (slf4j-nop on the launcher's classpath): no SLF4J lines, nothing at all
        assertEquals("", json.err());
    }

    @Test
    void helpForEveryCommandAndUsageErrorsExit2() throws Exception {
        for (String h : List.of("-h", "--help")) {
            Result r = nczarr(h);
            assertEquals(0, r.rc(), r.err());
            assertTrue(r.out().contains("serve DIR [--port N] [--bucket NAME]"), r.out());
        }
        for (String cmd : List.of("dump", "json", "ls", "bench", "demo", "quicklook", "serve")) {
            Result r = nczarr(cmd, "--help");
            assertEquals(0, r.rc(), cmd + ": " + r.err());
            assertTrue(r.out().startsWith("usage: nczarr " + cmd), r.out());
        }
        Result bad = nczarr("bench", repo.resolve("test-data/sample.file").toString(), "--repeat", "x");
        assertEquals(2, bad.rc(), bad.err());
        assertTrue(bad.err().contains("--repeat needs a whole number, not 'x'"), bad.err());
        assertFalse(bad.err().contains("NumberFormatException"), bad.err());
        Result unknown = nczarr("ls", "--long", "x.zarr");
        assertEquals(2, unknown.rc(), unknown.err());
        assertTrue(unknown.err().contains("unknown option --long"), unknown.err());
    }

    @Test
    void aStaleClassDataArchiveNeverWritesToStdout() throws Exception {
        String sample = repo.resolve("test-data/sample.file").toString();
        Path jar = install.resolve("nczarr-cli/target/nczarr-cli.jar");
        Path cds = install.resolve("nczarr-cli/target/nczarr.jsa");
        // the first run makes the archive (a note on stderr), then the jar changes under it without looking
        // newer: the JVM cannot use the archive and would say so on stdout before the JSON
        Result first = run(Map.of(), List.of(link.toString(), "json", sample));
        assertEquals(0, first.rc(), first.err());
        assertTrue(Files.isRegularFile(cds), first.err());
        Files.setLastModifiedTime(
                jar, FileTime.fromMillis(Files.getLastModifiedTime(cds).toMillis() - 60_000));
        Result stale = run(Map.of(), List.of(link.toString(), "json", sample));
        assertEquals(0, stale.rc(), stale.err());
        assertTrue(stale.out().startsWith("{"), stale.out());
        new ObjectMapper().readTree(stale.out());
        assertFalse(stale.err().contains("[cds"), stale.err());
    }

    @Test
    void javaDashJarIsThePortableWay() throws Exception {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        String jar = repo.resolve("nczarr-cli/target/nczarr-cli.jar").toString();
        Result v = run(Map.of(), List.of(java, "-jar", jar, "--version"));
        assertEquals(0, v.rc(), v.err());
        assertTrue(v.out().startsWith("nczarr "), v.out());
        // without a URL: the bundled sample of the checkout the jar was built in
        Result dump = run(Map.of(), List.of(java, "-jar", jar, "dump", "-h"));
        assertEquals(0, dump.rc(), dump.err());
        assertTrue(dump.out().startsWith("netcdf sample {"), dump.out());
        assertEquals("", dump.err());
    }
}
