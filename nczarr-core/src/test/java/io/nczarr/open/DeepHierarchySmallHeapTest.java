package io.nczarr.open;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.nczarr.error.MetadataException;
import io.nczarr.store.RawZip;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21, finding 7: hierarchies 2,000 groups deep (zip and kerchunk; the store's keys are all in memory) opened
 * in a JVM of its own with a 256 MiB heap and the default thread stack end in a {@link MetadataException} naming
 * the first group too deep, never a StackOverflowError or OutOfMemoryError. (A 2,000-level directory path is past
 * Linux's PATH_MAX; directories are covered at the depth limit + 20 by {@link HierarchyDepthTest}.)
 */
class DeepHierarchySmallHeapTest {
    private static final int DEPTH = 2000;
    private static final long TIMEOUT_SECONDS = 60;

    @TempDir
    Path tmp;

    /** Child JVM: opens each location given, one line each: {@code DEEP location outcome class}. */
    public static void main(String[] args) {
        for (String location : args) {
            String outcome;
            try (OpenDataset ds = Datasets.open(Datasets.parse(location), NcZarrOptions.shared())) {
                outcome = "OPENED\t" + ds.model().root().groups().size();
            } catch (Throwable t) {
                outcome = "THROWN\t" + t.getClass().getName();
            }
            System.out.println("DEEP\t" + location + "\t" + outcome);
            System.out.flush();
        }
    }

    @Test
    void twoThousandLevelsEndInAMetadataExceptionUnderA256MiBHeap() throws Exception {
        List<RawZip.Entry> entries = new ArrayList<>();
        StringBuilder refs = new StringBuilder("{\"version\": 1, \"refs\": {");
        for (int i = 0; i <= DEPTH; i++) {
            entries.add(RawZip.Entry.text("g/".repeat(i) + ".zgroup", "{\"zarr_format\": 2}"));
            refs.append(i == 0 ? "" : ", ")
                    .append('"')
                    .append("g/".repeat(i))
                    .append(".zgroup\": \"{\\\"zarr_format\\\": 2}\"");
        }
        Path zip = RawZip.write(tmp.resolve("deep.zip"), entries);
        Path json =
                Files.writeString(tmp.resolve("deep.json"), refs.append("}}").toString());
        List<String> results = run(zip.toString(), json.toUri() + "#mode=kerchunk");
        assertEquals(2, results.size(), String.join("\n", results));
        for (String r : results) {
            assertEquals(MetadataException.class.getName(), r.split("\t")[3], r);
        }
    }

    private List<String> run(String... locations) throws IOException, InterruptedException {
        String java = ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Path out = tmp.resolve("child.out");
        Path err = tmp.resolve("child.err");
        List<String> cmd = new ArrayList<>(List.of(
                java,
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                DeepHierarchySmallHeapTest.class.getName()));
        cmd.addAll(List.of(locations));
        Process p = new ProcessBuilder(cmd)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            fail("opening took more than " + TIMEOUT_SECONDS + " s");
        }
        List<String> lines = new ArrayList<>();
        for (String l : Files.readAllLines(out, StandardCharsets.UTF_8)) {
            if (l.startsWith("DEEP\t")) {
                lines.add(l);
            }
        }
        if (lines.size() != locations.length) {
            fail("child JVM (exit " + p.exitValue() + "): " + Files.readString(err));
        }
        return lines;
    }
}
