package io.nczarr.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.cdm.NcZarrFiles;
import io.nczarr.testkit.Corpus;
import io.nczarr.testkit.s3.DirectoryS3Server;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;
import ucar.nc2.NetcdfFile;

/** {@code nczarr serve DIR}: the directory as a read-only S3 bucket; the printed URLs open. */
class ServeTest {

    @Test
    void servesTheDirectoryReadOnlyAndPrintsWorkingUrls() throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8);
        try (DirectoryS3Server server = Serve.start(List.of(Corpus.testDataDir().toString(), "--port", "0"), out)) {
            String text = buf.toString(StandardCharsets.UTF_8);
            String base = server.endpoint() + "/data/";
            String sample = base + "sample.file#mode=nczarr,s3&aws.profile=none";
            String edge = base + "edge.zarr#mode=zarr,s3&aws.profile=none";
            assertTrue(text.lines().anyMatch(sample::equals), text);
            assertTrue(text.lines().anyMatch(edge::equals), text);
            assertTrue(text.contains("s3://" + server.endpoint().getRawAuthority() + "/data/<path>"), text);
            assertTrue(text.contains("[profile " + Serve.PROFILE + "]"), text);

            // the values through S3 are the values on disk
            try (NetcdfFile s3 = NcZarrFiles.open(sample);
                    NetcdfFile local = NcZarrFiles.open(Corpus.byName("sample").url())) {
                assertArrayEquals((float[]) local.findVariable("temp").read().copyTo1DJavaArray(), (float[])
                        s3.findVariable("temp").read().copyTo1DJavaArray());
            }
            // a pure Zarr store (LIST is used when there is no consolidated metadata)
            try (NetcdfFile s3 = NcZarrFiles.open(edge)) {
                assertTrue(s3.getVariables().size() > 1);
            }

            // read-only: a PUT is refused and nothing appears in the directory
            HttpResponse<String> put = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(base + "written-by-serve-test.txt"))
                                    .PUT(HttpRequest.BodyPublishers.ofString("x"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertEquals(403, put.statusCode(), put.body());
            assertTrue(!Files.exists(Corpus.testDataDir().resolve("written-by-serve-test.txt")));
        }
    }

    @Test
    void badArgumentsFailWithOneLine() {
        MainTest.Run r = MainTest.run(
                "serve", Corpus.testDataDir().resolve("no-such-dir").toString());
        assertEquals(1, r.rc());
        assertTrue(r.err().contains("not a directory"), r.err());
        MainTest.Run usage = MainTest.run("serve");
        assertEquals(2, usage.rc());
        MainTest.Run port = MainTest.run("serve", ".", "--port", "x");
        assertEquals(2, port.rc());
    }
}
