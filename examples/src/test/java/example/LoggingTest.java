package example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.testkit.Corpus;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 25, item 8 (README, "Logging"): cdm 4.5.5 logs through SLF4J 1.7. The application as README builds it,
 * with the binding README names (slf4j-nop, as this module's pom has), prints nothing but its own output;
 * without a binding it gets SLF4J's 3-line warning, which is SLF4J's, not ours.
 */
class LoggingTest {

    record Run(int rc, String out, String err) {}

    static Run runApp(boolean withBinding) throws Exception {
        List<String> cp = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (withBinding || !e.contains("slf4j-nop")) {
                cp.add(e);
            }
        }
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        String sample = Corpus.byName("sample").path().resolve(".zgroup").toString();
        Process p = new ProcessBuilder(
                        java, "-cp", String.join(File.pathSeparator, cp), OpenWithNetcdfJava.class.getName(), sample)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        return new Run(p.exitValue(), out, err);
    }

    @Test
    void withTheBindingNothingButTheOutput() throws Exception {
        Run r = runApp(true);
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().contains("precip"), r.out());
        assertEquals("", r.err());
    }

    @Test
    void withoutABindingSlf4jWarnsAsReadmeSays() throws Exception {
        Run r = runApp(false);
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.err().contains("SLF4J: Failed to load class \"org.slf4j.impl.StaticLoggerBinder\""), r.err());
        assertEquals(3, r.err().strip().lines().count(), r.err());
    }
}
