package io.nczarr.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21, finding 7: {@code nczarr ls} on a Zarr v3 store of 50,000 arrays at {@code -Xmx128m} never returned
 * (the metadata workers died of OutOfMemoryError and the main thread waited on them forever). In a JVM of its
 * own: it must return within the time limit, with the listing or a one-line error naming the limit to raise,
 * never an OutOfMemoryError.
 */
class LsSmallHeapTest {
    private static final int ARRAYS = 50_000;
    private static final long TIMEOUT_SECONDS = 60;

    @TempDir
    Path tmp;

    private static final String ARRAY = "{\"zarr_format\":3,\"node_type\":\"array\",\"shape\":[10],"
            + "\"data_type\":\"int32\",\"chunk_grid\":{\"name\":\"regular\",\"configuration\":{\"chunk_shape\":[10]}},"
            + "\"chunk_key_encoding\":{\"name\":\"default\"},\"fill_value\":0,"
            + "\"codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}],"
            + "\"attributes\":{\"long_name\":\"" + "x".repeat(200) + "\"}}";

    private static Path v3Zip(Path file) throws IOException {
        try (OutputStream o = Files.newOutputStream(file);
                ZipOutputStream z = new ZipOutputStream(o)) {
            z.setLevel(1);
            z.putNextEntry(new ZipEntry("zarr.json"));
            z.write("{\"zarr_format\":3,\"node_type\":\"group\"}".getBytes(StandardCharsets.UTF_8));
            byte[] array = ARRAY.getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < ARRAYS; i++) {
                z.putNextEntry(new ZipEntry(String.format("a%05d/zarr.json", i)));
                z.write(array);
            }
        }
        return file;
    }

    @Test
    void lsOfFiftyThousandV3ArraysReturnsUnderA128MiBHeap() throws Exception {
        Path store = v3Zip(tmp.resolve("many.zip"));
        String java = ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Path out = tmp.resolve("ls.out");
        Path err = tmp.resolve("ls.err");
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(
                        java,
                        "-Xmx128m",
                        "-XX:+UseSerialGC",
                        "-XX:TieredStopAtLevel=1",
                        "-cp",
                        System.getProperty("java.class.path"),
                        Main.class.getName(),
                        "ls",
                        store.toString())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            fail("ls did not return in " + TIMEOUT_SECONDS + " s");
        }
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);
        String stderr = Files.readString(err);
        String stdout = Files.readString(out);
        System.out.println("[ls 50k v3 arrays at -Xmx128m] exit " + p.exitValue() + " in " + seconds + " s; stderr: "
                + stderr.strip());
        assertFalse(stderr.contains("OutOfMemoryError"), stderr);
        if (p.exitValue() == 0) {
            assertTrue(stdout.contains("a49999"), "the listing names every array");
        } else {
            assertTrue(p.exitValue() == 1, "exit " + p.exitValue() + ": " + stderr);
            assertTrue(stderr.contains("nczarr.limits.") || stderr.contains("nczarr.maxObjectBytes"), stderr);
            assertTrue(stderr.strip().lines().count() == 1, "one line: " + stderr);
        }
    }
}
