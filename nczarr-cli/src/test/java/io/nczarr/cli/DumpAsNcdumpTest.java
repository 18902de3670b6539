package io.nczarr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.testkit.Corpus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** Issue 25, item 6: {@code dump} names the dataset and lays out its sections as ncdump 4.9 does. */
class DumpAsNcdumpTest {

    @Test
    void theDatasetIsNamedAfterTheStore() {
        assertEquals("nczarr_groups", Main.cdlName("/data/nczarr_groups.file/.zgroup"));
        assertEquals("nczarr_groups", Main.cdlName("file:///data/nczarr_groups.file#mode=nczarr,file"));
        assertEquals("x.twin", Main.cdlName("/data/x.twin.nc"));
        assertEquals("x.twin", Main.cdlName("https://h/d/x.twin.nc?token=1#bytes"));
        assertEquals("tree", Main.cdlName("s3://bucket/tree.zarr/zarr.json#mode=zarr,s3"));
        assertEquals("sample", Main.cdlName("/data/sample.file/"));
        MainTest.Run r = MainTest.run(
                "dump", "-h", Corpus.byName("sample").path().resolve(".zgroup").toString());
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().startsWith("netcdf sample {\n"), r.out());
        MainTest.Run twin = MainTest.run("dump", "-h", Corpus.testDataDir().resolve("sample.twin.nc") + "#mode=bytes");
        assertEquals(0, twin.rc(), twin.err());
        assertTrue(twin.out().startsWith("netcdf sample.twin {\n"), twin.out());
    }

    /** Every option set gives ncdump's text for the netCDF-4 twin, but for the name and UNLIMITED. */
    @Test
    void sameLinesAsNcdumpOfTheTwin() throws Exception {
        compareWithNcdump(Corpus.byName("sample"));
    }

    @Test
    void groupsWithNothingToShowAsNcdumpDoes() throws Exception {
        compareWithNcdump(Corpus.byName("nczarr_groups"));
    }

    private static void compareWithNcdump(Corpus.Entry e) throws Exception {
        String ncdump = ncdump();
        Assumptions.assumeTrue(ncdump != null, "ncdump not on PATH (apt-get install netcdf-bin)");
        for (List<String> opts : List.<List<String>>of(List.of(), List.of("-h"), List.of("-c"), List.of("-h", "-c"))) {
            List<String> cmd = new ArrayList<>(List.of(ncdump));
            cmd.addAll(opts);
            cmd.add(e.twin().toString());
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String expected = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            List<String> args = new ArrayList<>(List.of("dump"));
            args.addAll(opts);
            args.add(e.url());
            MainTest.Run r = MainTest.run(args.toArray(String[]::new));
            assertEquals(0, r.rc(), r.err());
            assertEquals(normalise(expected), normalise(r.out()), e.name() + " " + opts);
        }
    }

    /** The name line and NCZarr's lack of unlimited dimensions aside. */
    private static String normalise(String cdl) {
        return cdl.replaceFirst("^netcdf [^ ]+ \\{", "netcdf X {")
                .replaceAll("= UNLIMITED ; // \\((\\d+) currently\\)", "= $1 ;");
    }

    static String ncdump() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            Path p = Path.of(dir, "ncdump");
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }
}
