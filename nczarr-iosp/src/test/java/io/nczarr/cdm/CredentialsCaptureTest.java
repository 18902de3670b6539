package io.nczarr.cdm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.open.NcZarrOptions;
import io.nczarr.s3.AwsEnvironment;
import io.nczarr.testkit.http.RangeHttpServer;
import io.nczarr.testkit.s3.LocalS3;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.nc2.Attribute;
import ucar.nc2.Dimension;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFileWriter;
import ucar.nc2.Variable;

/**
 * Issue 21 finding 3: the user's S3 credentials (a default profile in the options' environment, and a profile in
 * the URL) go only to the endpoint and bucket the user gave. Documents on the loopback S3 server name objects on
 * a capturing server on 127.0.0.2 (another origin); no {@code Authorization}, {@code X-Amz-*} or {@code Cookie}
 * header may reach it, whatever profile the document's own URL names.
 */
class CredentialsCaptureTest {
    private static final String BUCKET = "creds";

    @TempDir
    static Path tmp;

    private static RangeHttpServer capture;
    private static LocalS3 s3;
    private static NcZarrOptions options;

    @BeforeAll
    static void start() throws Exception {
        s3 = LocalS3.get();
        s3.server.createBucket(BUCKET);
        capture = RangeHttpServer.startOn("127.0.0.2");
        Path nc = tmp.resolve("data.nc");
        NetcdfFileWriter w = NetcdfFileWriter.createNew(NetcdfFileWriter.Version.netcdf3, nc.toString());
        Dimension x = w.addDimension(null, "x", 4);
        Variable v = w.addVariable(null, "v", DataType.INT, List.of(x));
        w.create();
        w.write(v, Array.factory(new int[] {1, 2, 3, 4}));
        w.close();
        capture.put("/bucket/data.nc", nc);
        ByteBuffer b = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 1; i <= 4; i++) {
            b.putInt(i);
        }
        capture.put("/bucket/data.bin", b.array());
        // the user's default profile is the test server's key (as AWS_PROFILE would make it)
        options = NcZarrOptions.builder(AwsEnvironment.of(
                        Map.of(
                                AwsEnvironment.PROFILE_PROPERTY, LocalS3.PROFILE,
                                AwsEnvironment.CONFIG_FILE_PROPERTY,
                                        System.getProperty(AwsEnvironment.CONFIG_FILE_PROPERTY),
                                AwsEnvironment.CREDENTIALS_FILE_PROPERTY,
                                        System.getProperty(AwsEnvironment.CREDENTIALS_FILE_PROPERTY)),
                        Map.of()))
                .build();
    }

    @AfterAll
    static void stop() {
        capture.close();
        options.close();
    }

    /** A CF-1.13 aggregation (netCDF-3) of {@code int v(x=4)} over one fragment. */
    private static byte[] aggregation(String uri) throws Exception {
        Path p = Files.createTempFile(tmp, "agg", ".nc");
        Files.delete(p);
        NetcdfFileWriter w = NetcdfFileWriter.createNew(NetcdfFileWriter.Version.netcdf3, p.toString());
        w.addGroupAttribute(null, new Attribute("Conventions", "CF-1.13"));
        Dimension dx = w.addDimension(null, "x", 4);
        Dimension j = w.addDimension(null, "j", 1);
        Dimension i = w.addDimension(null, "i", 1);
        Dimension f = w.addDimension(null, "f_x", 1);
        Dimension len = w.addDimension(null, "strlen", 200);
        Variable m = w.addVariable(null, "fragment_map", DataType.INT, List.of(j, i));
        Variable u = w.addVariable(null, "fragment_uris", DataType.CHAR, List.of(f, len));
        Variable id = w.addVariable(null, "fragment_identifiers", DataType.CHAR, List.of(len));
        Variable v = w.addVariable(null, "v", DataType.INT, List.<Dimension>of());
        v.addAttribute(new Attribute("aggregated_dimensions", dx.getShortName()));
        v.addAttribute(new Attribute(
                "aggregated_data", "map: fragment_map uris: fragment_uris identifiers: fragment_identifiers"));
        w.create();
        w.write(m, Array.factory(DataType.INT, new int[] {1, 1}, new int[] {4}));
        ucar.ma2.ArrayChar.D2 ua = new ucar.ma2.ArrayChar.D2(1, 200);
        ua.setString(0, uri);
        w.write(u, ua);
        ucar.ma2.ArrayChar.D1 ida = new ucar.ma2.ArrayChar.D1(200);
        ida.setString("v");
        w.write(id, ida);
        w.close();
        return Files.readAllBytes(p);
    }

    private static void assertNoCredentials(String what) {
        List<Map<String, List<String>>> seen = capture.requestHeaders();
        assertFalse(seen.isEmpty(), what + ": the other host was asked");
        for (Map<String, List<String>> h : seen) {
            for (String name : h.keySet()) {
                assertFalse(
                        name.equals("authorization") || name.startsWith("x-amz-") || name.equals("cookie"),
                        what + ": header " + name + " reached the other host: " + h);
            }
        }
    }

    @Test
    void anAggregationFragmentOnAnotherHostIsNeverSigned() throws Exception {
        for (String fragment : List.of(
                "#mode=bytes,s3",
                "#mode=bytes,s3&aws.profile=" + LocalS3.PROFILE,
                "#mode=bytes&awsprofile=" + LocalS3.PROFILE)) {
            capture.reset();
            capture.resetCounters();
            String name = "agg" + Math.abs(fragment.hashCode()) + ".nc";
            s3.server.put(BUCKET, name, aggregation(capture.url("/bucket/data.nc") + fragment));
            String url =
                    s3.signed.endpoint() + "/" + BUCKET + "/" + name + "#mode=bytes,s3&aws.profile=" + LocalS3.PROFILE;
            try (NetcdfFile nc = NcZarrFiles.open(url, options)) {
                assertEquals("1 2 3 4", nc.findVariable("v").read().toString().trim(), fragment);
            }
            assertNoCredentials(fragment);
        }
    }

    @Test
    void aKerchunkTargetOnAnotherHostIsNeverSigned() throws Exception {
        capture.reset();
        String zarray = "{\\\"zarr_format\\\":2,\\\"shape\\\":[4],\\\"chunks\\\":[4],\\\"dtype\\\":\\\"<i4\\\","
                + "\\\"compressor\\\":null,\\\"fill_value\\\":0,\\\"filters\\\":null,\\\"order\\\":\\\"C\\\"}";
        String json = "{\"version\":1,\"refs\":{\".zgroup\":\"{\\\"zarr_format\\\":2}\",\"v/.zarray\":\"" + zarray
                + "\",\"v/.zattrs\":\"{\\\"_ARRAY_DIMENSIONS\\\":[\\\"x\\\"]}\",\"v/0\":[\""
                + capture.url("/bucket/data.bin") + "\",0,16]}}";
        s3.server.put(BUCKET, "refs.json", json.getBytes(StandardCharsets.UTF_8));
        // the user's URL names a profile; the default profile of the environment is the user's too
        String url = s3.signed.endpoint() + "/" + BUCKET + "/refs.json#mode=kerchunk,s3&aws.profile=" + LocalS3.PROFILE;
        try (NetcdfFile nc = NcZarrFiles.open(url, options)) {
            assertEquals("1 2 3 4", nc.findVariable("v").read().toString().trim());
        }
        assertNoCredentials("kerchunk target");
        assertTrue(capture.gets() > 0);
    }

    /**
     * HTTP credentials (a bearer token for the user's origin, {@code .netrc} entries for the other host and a
     * default one, a bearer prefix of the other host) never reach an aggregation fragment on another host, also
     * when the fragment URL says no mode and is sniffed first; the user's own host does get its token.
     */
    @Test
    void httpCredentialsNeverReachAnAggregationFragmentOnAnotherHost() throws Exception {
        Path netrc = Files.writeString(
                tmp.resolve("netrc"),
                "machine 127.0.0.2 login u password pw-secret\ndefault login d password pw-secret\n");
        try (RangeHttpServer user = RangeHttpServer.start();
                NcZarrOptions withHttp = NcZarrOptions.builder(AwsEnvironment.of(
                                Map.of(
                                        "HTTP.NETRC",
                                        netrc.toString(),
                                        "nczarr.http.bearer.1",
                                        capture.url("/") + " tok-other"),
                                Map.of("NCZARR_BEARER_TOKEN", "tok-user")))
                        .build()) {
            // a fragment URL with keys but no mode is sniffed (one ranged GET) before it is opened
            for (String fragment : List.of("#nczarr.http.maxRetries=1", "", "#mode=bytes")) {
                capture.reset();
                user.reset();
                user.put("/agg.nc", aggregation(capture.url("/bucket/data.nc") + fragment));
                try (NetcdfFile nc = NcZarrFiles.open(user.url("/agg.nc"), withHttp)) {
                    assertEquals(
                            "1 2 3 4", nc.findVariable("v").read().toString().trim(), fragment);
                }
                assertNoCredentials("fragment '" + fragment + "'");
                assertFalse(
                        capture.requestHeaders().toString().contains("tok-"),
                        capture.requestHeaders().toString());
                assertTrue(
                        user.requestHeaders().stream()
                                .anyMatch(h -> List.of("Bearer tok-user").equals(h.get("authorization"))),
                        user.requestHeaders().toString());
            }
        }
    }

    /** A signed request the user sent to their own endpoint is redirected to another host: nothing signed follows. */
    @Test
    void redirectsDoNotCarryCredentialsToAnotherOrigin() throws Exception {
        com.sun.net.httpserver.HttpServer redirector = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 8);
        redirector.createContext("/", ex -> {
            ex.getResponseHeaders()
                    .set("Location", capture.url(ex.getRequestURI().getPath()));
            ex.sendResponseHeaders(307, -1);
            ex.close();
        });
        redirector.start();
        try {
            String base = "http://127.0.0.1:" + redirector.getAddress().getPort() + "/bucket/data.nc";
            for (String url : List.of(
                    base + "#mode=bytes,s3&aws.profile=" + LocalS3.PROFILE,
                    base + "#mode=bytes",
                    base.replace("data.nc", "refs.json") + "#mode=kerchunk,s3&aws.profile=" + LocalS3.PROFILE)) {
                capture.reset();
                try (NetcdfFile nc = NcZarrFiles.open(url, options)) {
                    nc.findVariable("v").read();
                } catch (java.io.IOException e) {
                    // a redirect the S3 client does not follow is an error; that is fine
                }
                for (Map<String, List<String>> h : capture.requestHeaders()) {
                    for (String name : h.keySet()) {
                        assertFalse(
                                name.equals("authorization") || name.startsWith("x-amz-") || name.equals("cookie"),
                                url + ": header " + name + " was redirected to the other host: " + h);
                    }
                }
            }
        } finally {
            redirector.stop(0);
        }
    }
}
