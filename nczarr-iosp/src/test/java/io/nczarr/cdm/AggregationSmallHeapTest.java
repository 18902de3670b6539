package io.nczarr.cdm;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21, finding 7, for aggregations, in a JVM of its own with a 256 MiB heap: a 2000 x 2000 CF fragment map,
 * CFA-0.4 with 300,000 partitions and a 1,000,000-fragment variable read whole each end in the project's own
 * exception (or, for the read, the right values), never an OutOfMemoryError or a hang.
 */
class AggregationSmallHeapTest {
    private static final long TIMEOUT_SECONDS = 60;

    @TempDir
    Path tmp;

    @Test
    void aggregationBombsEndCleanlyUnderA256MiBHeap() throws Exception {
        for (AggregationBombs b : AggregationBombs.values()) {
            b.make(b.file(tmp));
        }
        Map<String, String[]> results = run(tmp);
        List<String> problems = new ArrayList<>();
        for (AggregationBombs b : AggregationBombs.values()) {
            String[] r = results.get(b.name());
            System.out.println("[aggregation bombs at -Xmx256m] " + (r == null ? b + ": none" : String.join(" ", r)));
            if (r == null) {
                problems.add(b + ": no result (the child JVM died before it)");
                continue;
            }
            boolean ok =
                    r[2].equals("THROWN") && isA(r[3], b.expected) || (b.successAllowed && r[2].equals("READ_RIGHT"));
            if (!ok) {
                problems.add(b + ": " + r[2] + " " + r[3] + ": " + (r.length > 5 ? r[5] : "") + " (expected "
                        + b.expected.getName() + ")");
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    private static boolean isA(String className, Class<?> expected) {
        try {
            return expected.isAssignableFrom(Class.forName(className));
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static Map<String, String[]> run(Path root) throws IOException, InterruptedException {
        String java = ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Path out = root.resolve("child.out");
        Path err = root.resolve("child.err");
        Process p = new ProcessBuilder(
                        java,
                        "-Xmx256m",
                        "-XX:+UseSerialGC",
                        "-XX:TieredStopAtLevel=1",
                        "-cp",
                        System.getProperty("java.class.path"),
                        AggregationBombs.class.getName(),
                        root.toString())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            fail("the aggregation bombs took more than " + TIMEOUT_SECONDS + " s:\n" + Files.readString(out));
        }
        Map<String, String[]> results = new LinkedHashMap<>();
        for (String line : Files.readAllLines(out, StandardCharsets.UTF_8)) {
            String[] f = line.split("\t", -1);
            if (f.length >= 5 && f[0].equals("AGG")) {
                results.put(f[1], f);
            }
        }
        if (results.size() < AggregationBombs.values().length) {
            String e = Files.readString(err);
            fail("child JVM (exit " + p.exitValue() + "):\n" + Files.readString(out) + "\n"
                    + e.substring(0, Math.min(e.length(), 4000)));
        }
        return results;
    }
}
