package io.nczarr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/** {@code ./nczarr demo}: loopback S3 server, upload, open by an s3-mode URL, CDL, values, counts. */
class S3DemoTest {

    @Test
    void demoReadsTheSampleThroughS3() {
        String home = System.getProperty("nczarr.home");
        System.setProperty(
                "nczarr.home",
                Paths.get(System.getProperty("repo.dir", "..")).toAbsolutePath().toString());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            int rc = Main.run(
                    new String[] {"demo"},
                    new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            String o = out.toString(StandardCharsets.UTF_8);
            assertEquals(0, rc, err.toString(StandardCharsets.UTF_8) + o);
            assertTrue(o.contains("#mode=nczarr,s3&aws.profile=nczarr-demo"), o);
            assertTrue(o.contains("float temp(time, lat, lon) ;"), o);
            assertTrue(o.contains("group: obs {"), o);
            assertTrue(o.contains("time = [0.0, 31.0, 60.0, 91.0]"), o);
            assertTrue(o.matches("(?s).*open \\d+ requests \\(\\d+ GET, 0 LIST, 0 HEAD, 0 other\\).*"), o);
            assertTrue(o.contains("# server stopped"), o);
        } finally {
            if (home == null) {
                System.clearProperty("nczarr.home");
            } else {
                System.setProperty("nczarr.home", home);
            }
        }
    }
}
