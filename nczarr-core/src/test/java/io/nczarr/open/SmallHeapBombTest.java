package io.nczarr.open;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * Every {@link BombScenarios bomb}, read in a JVM with a 256 MiB heap: each must end in the project's
 * own exception (for a limit, naming the property to raise), never in an OutOfMemoryError or a hang.
 * A JVM of its own because the test JVM's heap is large and an OutOfMemoryError would poison it.
 */
class SmallHeapBombTest {
    private static final long TIMEOUT_SECONDS = 120;

    @TempDir
    Path tmp;

    @Test
    void bombsEndInCleanErrorsUnderA256MiBHeap() throws IOException, InterruptedException {
        for (BombScenarios b : BombScenarios.values()) {
            b.make(b.dataset(tmp));
        }
        Map<String, String[]> results = run(tmp);
        List<String> problems = new ArrayList<>();
        for (BombScenarios b : BombScenarios.values()) {
            String[] r = results.get(b.name());
            if (r == null) {
                problems.add(b + ": no result (the child JVM died before it)");
                continue;
            }
            String outcome = r[2];
            String type = r[3];
            String property = r[4];
            String message = r.length > 5 ? r[5] : "";
            if (!outcome.equals("THROWN") || !isA(type, b.expected)) {
                problems.add(
                        b + ": " + outcome + " " + type + ": " + message + " (expected " + b.expected.getName() + ")");
            } else if (b.property != null && (!b.property.equals(property) || !message.contains(b.property + "="))) {
                problems.add(b + ": does not name " + b.property + ": " + message);
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    /** Runs the bombs in a child JVM; its result lines by bomb name. */
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
                        BombScenarios.class.getName(),
                        root.toString())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            fail("the bombs took more than " + TIMEOUT_SECONDS + " s:\n" + Files.readString(out));
        }
        String stdout = Files.readString(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), () -> "child JVM failed:\n" + stdout + "\n" + readQuietly(err));
        System.out.print(stdout); // what each bomb ended in, for the build log
        Map<String, String[]> results = new LinkedHashMap<>();
        for (String line : stdout.split("\n")) {
            String[] f = line.split("\t", 6);
            if (f.length >= 5 && f[0].equals("BOMB")) {
                results.put(f[1], f);
            }
        }
        return results;
    }

    private static boolean isA(String className, Class<?> expected) {
        try {
            return expected.isAssignableFrom(Class.forName(className));
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static String readQuietly(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            return "(" + e + ")";
        }
    }
}
