package io.nczarr.aggregation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.MetadataException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pure parts: aggregated_data, the fragment grid and its section plan, CFA matrices, URI resolution. */
class AggregationModelTest {

    @Test
    void aggregatedDataTermsInAnyOrder() throws Exception {
        AggregatedData a = AggregatedData.parse("f.nc", "q", "identifiers: i map: m uris: u");
        assertEquals(new AggregatedData("m", "u", "i", null), a);
        assertEquals(List.of("m", "u", "i"), a.variables());
        assertEquals(
                "uv",
                AggregatedData.parse("f.nc", "q", "map: m unique_values: uv").uniqueValues());
        for (String bad : List.of(
                "",
                "map m",
                "map: m",
                "map: m uris: u",
                "map: m uris:",
                "map: m map: n uris: u identifiers: i",
                "map: m uris: u identifiers: i unique_values: v",
                "foo: x map: m unique_values: v")) {
            MetadataException e = assertThrows(MetadataException.class, () -> AggregatedData.parse("f.nc", "q", bad));
            assertTrue(e.getMessage().contains("f.nc") && e.getMessage().contains("'q'"), e.getMessage());
        }
    }

    @Test
    void planCutsASectionAtFragmentBoundariesWithStrides() {
        FragmentGrid g = FragmentGrid.of(new long[][] {{2, 3}, {4, 4}}, new long[] {5, 8});
        assertArrayEquals(new int[] {2, 2}, g.gridShape());
        List<FragmentGrid.Piece> p = g.plan(new long[] {1, 3}, new long[] {3, 2}, new long[] {1, 1});
        assertEquals(4, p.size());
        FragmentGrid.Piece last = p.get(3);
        assertArrayEquals(new int[] {1, 1}, last.position());
        assertArrayEquals(new long[] {0, 0}, last.origin());
        assertArrayEquals(new long[] {2, 1}, last.count());
        assertArrayEquals(new long[] {1, 1}, last.target());
        // stride 3 along dim 0: indices 0, 3 -> fragments 0 (local 0) and 1 (local 1)
        List<FragmentGrid.Piece> s = g.plan(new long[] {0, 0}, new long[] {2, 1}, new long[] {3, 1});
        assertEquals(2, s.size());
        assertArrayEquals(new long[] {1, 0}, s.get(1).origin());
        assertArrayEquals(new long[] {1, 0}, s.get(1).target());
        // a stride that skips a whole fragment
        FragmentGrid h = FragmentGrid.of(new long[][] {{2, 1, 2}}, null);
        List<FragmentGrid.Piece> k = h.plan(new long[] {0}, new long[] {2}, new long[] {3});
        assertEquals(2, k.size());
        assertArrayEquals(new int[] {0}, k.get(0).position());
        assertArrayEquals(new int[] {2}, k.get(1).position());
        assertArrayEquals(new long[] {0}, k.get(1).origin());
        assertArrayEquals(new long[] {1}, k.get(1).target());
    }

    @Test
    void mapRowsMustSumToTheDimensions() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> FragmentGrid.of(new long[][] {{2, 2}}, new long[] {5}));
        assertTrue(e.getMessage().contains("sums to 4"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> FragmentGrid.of(new long[][] {{2, 0, 3}}, null));
        assertThrows(IllegalArgumentException.class, () -> FragmentGrid.of(new long[][] {{}}, null));
        assertThrows(
                IllegalArgumentException.class,
                () -> FragmentGrid.of(new long[][] {new long[1001], new long[1001]}, null));
    }

    @Test
    void cfa04JsonAndItsTiling() throws Exception {
        String json = "{\"pmshape\": [2, 1], \"pmdimensions\": [\"t\", \"x\"], \"Partitions\": ["
                + "{\"subarray\": {\"ncvar\": \"v\", \"file\": \"a.nc\", \"format\": \"NETCDF4\", \"shape\": [2, 3]},"
                + " \"index\": [0, 0], \"location\": [[0, 1], [0, 2]]},"
                + "{\"subarray\": {\"ncvar\": \"v\", \"file\": \"b.nc\", \"format\": \"NETCDF4\", \"shape\": [1, 3]},"
                + " \"index\": [1, 0], \"location\": [[2, 2], [0, 2]]}]}";
        CfaPartitions.Matrix m = CfaPartitions.parseJson("m.nc", "v", json, 100);
        Aggregation a = CfaPartitions.toAggregation(
                "m.nc", "v", "CFA-0.4", List.of("t", "x"), new long[] {3, 3}, m.pmshape(), m.partitions());
        assertEquals("b.nc", a.fragment(new int[] {1, 0}).uri());
        assertArrayEquals(new long[] {1, 3}, a.grid().fragmentShape(new int[] {1, 0}));
        MetadataException gap = assertThrows(
                MetadataException.class,
                () -> CfaPartitions.toAggregation(
                        "m.nc", "v", "CFA-0.4", List.of("t", "x"), new long[] {4, 3}, m.pmshape(), m.partitions()));
        assertTrue(gap.getMessage().contains("m.nc"), gap.getMessage());
        for (String bad :
                List.of("not json", "[]", "{\"pmshape\": [1]}", "{\"pmshape\": [\"a\"], \"Partitions\": []}")) {
            assertThrows(MetadataException.class, () -> CfaPartitions.parseJson("m.nc", "v", bad, 100));
        }
    }

    @Test
    void urisResolveAgainstTheAggregationFile() throws Exception {
        FragmentUris.Resolved r = FragmentUris.resolve("/data/agg/x.nc", "frag/a.nc", false);
        assertTrue(r.local());
        assertEquals("/data/agg/frag/a.nc", r.location());
        assertEquals(
                "/data/a.nc",
                FragmentUris.resolve("/data/agg/x.nc", "../a.nc", false).location());
        assertEquals(
                "/abs/a.nc",
                FragmentUris.resolve("/data/agg/x.nc", "/abs/a.nc", false).location());
        assertEquals(
                "/abs/a.nc",
                FragmentUris.resolve("/data/agg/x.nc", "file:///abs/a.nc", false)
                        .location());
        FragmentUris.Resolved h = FragmentUris.resolve("http://h:1/p/x.nc#mode=bytes,s3&aws.profile=p", "a.nc", false);
        assertEquals("http://h:1/p/a.nc#mode=bytes,s3&aws.profile=p", h.location());
        assertEquals(
                "https://o/b.nc#mode=bytes",
                FragmentUris.resolve("http://h:1/p/x.nc#mode=bytes", "https://o/b.nc", false)
                        .location());
        assertEquals(
                "s3://bucket/k/b.nc#mode=bytes",
                FragmentUris.resolve("/x.nc", "s3://bucket/k/b.nc", false).location());
        FragmentUris.Refused local = assertThrows(
                FragmentUris.Refused.class, () -> FragmentUris.resolve("http://h/p/x.nc", "file:///etc/passwd", false));
        assertTrue(local.getMessage().contains("local file"), local.getMessage());
        assertTrue(FragmentUris.resolve("http://h/p/x.nc", "file:///tmp/a.nc", true)
                .local());
        assertThrows(FragmentUris.Refused.class, () -> FragmentUris.resolve("/data/x.nc", "x.nc", false));
        assertThrows(
                FragmentUris.Refused.class, () -> FragmentUris.resolve("http://h/p/x.nc#mode=bytes", "x.nc", false));
        assertThrows(FragmentUris.Refused.class, () -> FragmentUris.resolve("/data/x.nc", "ftp://h/a.nc", false));
        assertThrows(FragmentUris.Refused.class, () -> FragmentUris.resolve("/data/x.nc", "", false));
    }
}
