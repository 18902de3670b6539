package io.nczarr.open;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.aggregation.AggregatedVariable;
import io.nczarr.error.TargetRefusedException;
import io.nczarr.s3.AwsEnvironment;
import io.nczarr.testkit.http.RangeHttpServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21, fragments through the one door: a CF-1.13 aggregation served over HTTP (a Zarr store on 127.0.0.1)
 * opens its fragments by the same resolver call as a user's URL ({@code Stores.open} → {@code StoreSources}), with
 * the aggregation as origin. Its fragment in an S3 bucket on another host (127.0.0.2) is read without the user's
 * credentials, though the user's environment has keys and the fragment URL asks for {@code s3} mode and a profile;
 * its fragment in a local folder is refused, naming the aggregation and the option. Before, the core's fragment
 * opener ({@link ZarrAggregation}) reached {@code S3Store.open} with the fragment URL's keys and the default
 * credentials, and signed the other host's requests.
 */
class ZarrAggregationOriginTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path tmp;

    private static RangeHttpServer home;
    private static RangeHttpServer other;
    private static NcZarrOptions options;

    @BeforeAll
    static void start() throws IOException {
        home = RangeHttpServer.start();
        other = RangeHttpServer.startOn("127.0.0.2");
        Path f0 = tmp.resolve("f0.zarr");
        ZarrAggregationTest.group(f0);
        ZarrAggregationTest.array(
                f0,
                "tas",
                "[2]",
                "<f4",
                "{\"_ARRAY_DIMENSIONS\": [\"time\"], \"units\": \"K\"}",
                ZarrAggregationTest.floats(280.5f, 281f));
        consolidate(f0);
        other.putTree("/bucket/f0.zarr", f0);
        options = NcZarrOptions.builder(AwsEnvironment.of(
                        Map.of(),
                        Map.of(
                                "AWS_ACCESS_KEY_ID", "AKIAUSERKEY0000000",
                                "AWS_SECRET_ACCESS_KEY", "user-secret",
                                "AWS_REGION", "us-east-1")))
                .build();
    }

    @AfterAll
    static void stop() {
        home.close();
        other.close();
        options.close();
    }

    /** An aggregation {@code name} of {@code tas(time=2)} over the one fragment at {@code uri}, served by home. */
    private static String aggregation(String name, String uri) throws IOException {
        Path agg = tmp.resolve(name);
        ZarrAggregationTest.group(agg);
        ZarrAggregationTest.array(
                agg, "time", "[2]", "<f8", "{\"_ARRAY_DIMENSIONS\": [\"time\"]}", ZarrAggregationTest.doubles(0, 1));
        ZarrAggregationTest.array(
                agg, "fragment_map", "[1]", "<i8", "{\"_ARRAY_DIMENSIONS\": [\"i\"]}", ZarrAggregationTest.longs(2));
        byte[] u = uri.getBytes(StandardCharsets.US_ASCII);
        ZarrAggregationTest.array(agg, "fragment_uris", "[1]", "|S" + u.length, "{\"_ARRAY_DIMENSIONS\": [\"f\"]}", u);
        ZarrAggregationTest.array(
                agg,
                "fragment_identifiers",
                "[1]",
                "|S3",
                "{\"_ARRAY_DIMENSIONS\": [\"f\"]}",
                "tas".getBytes(StandardCharsets.US_ASCII));
        ZarrAggregationTest.array(
                agg,
                "tas",
                "[]",
                "<f4",
                "{\"_ARRAY_DIMENSIONS\": [], \"units\": \"K\", \"aggregated_dimensions\": \"time\","
                        + " \"aggregated_data\": \"map: fragment_map uris: fragment_uris"
                        + " identifiers: fragment_identifiers\"}",
                null);
        consolidate(agg);
        home.putTree("/" + name, agg);
        return home.url("/" + name) + "#mode=zarr";
    }

    /** {@code .zmetadata}: neither a plain HTTP server nor the capturing one lists. */
    private static void consolidate(Path store) throws IOException {
        ObjectNode meta = JSON.createObjectNode();
        try (Stream<Path> files = Files.walk(store)) {
            for (Path p : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                String name = p.getFileName().toString();
                if (name.equals(".zgroup") || name.equals(".zarray") || name.equals(".zattrs")) {
                    String key = store.relativize(p).toString().replace('\\', '/');
                    meta.set(key, JSON.readTree(p.toFile()));
                }
            }
        }
        ObjectNode z = JSON.createObjectNode();
        z.put("zarr_consolidated_format", 1);
        z.set("metadata", meta);
        JSON.writeValue(store.resolve(".zmetadata").toFile(), z);
    }

    private static AggregatedVariable tas(ZarrAggregation agg) {
        return agg.variables().get("/tas");
    }

    @Test
    void anS3FragmentOnAnotherHostIsReadWithoutTheUsersCredentials() throws IOException {
        for (String keys : List.of("#mode=zarr,s3", "#mode=zarr,s3&aws.profile=default")) {
            other.resetCounters();
            String name = "agg" + Math.abs(keys.hashCode()) + ".zarr";
            String url = aggregation(name, other.url("/bucket/f0.zarr") + keys);
            try (OpenDataset ds = Datasets.open(Datasets.parse(url), options);
                    ZarrAggregation agg = ZarrAggregation.of(ds)) {
                assertArrayEquals(new float[] {280.5f, 281f}, tas(agg).readAll().floats(), keys);
            }
            List<Map<String, List<String>>> seen = other.requestHeaders();
            assertFalse(seen.isEmpty(), keys + ": the fragment's host was asked");
            for (Map<String, List<String>> h : seen) {
                assertFalse(
                        h.containsKey("authorization") || h.containsKey("x-amz-security-token"),
                        keys + ": the user's credentials reached the fragment's host: " + h);
            }
        }
    }

    @Test
    void aLocalFragmentOfARemoteAggregationIsRefused() throws IOException {
        String url = aggregation("local.zarr", tmp.resolve("f0.zarr").toUri() + "#mode=zarr,file");
        try (OpenDataset ds = Datasets.open(Datasets.parse(url), options);
                ZarrAggregation agg = ZarrAggregation.of(ds)) {
            TargetRefusedException e = assertThrows(TargetRefusedException.class, () -> tas(agg).readAll());
            assertTrue(e.getMessage().contains("local.zarr"), e.getMessage());
            assertTrue(e.getMessage().contains("nczarr.trust."), e.getMessage());
        }
    }
}
