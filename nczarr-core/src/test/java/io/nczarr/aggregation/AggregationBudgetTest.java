package io.nczarr.aggregation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.LimitExceededException;
import io.nczarr.error.MetadataException;
import io.nczarr.store.MemoryLimits;
import org.junit.jupiter.api.Test;

/** CFA-0.4 partitions counted before they are parsed, and fragment plans counted before they are made (issue 21). */
class AggregationBudgetTest {

    private static String cfa(int partitions) {
        StringBuilder b =
                new StringBuilder("{\"pmshape\": [" + partitions + "], \"pmdimensions\": [\"x\"], \"Partitions\": [");
        for (int i = 0; i < partitions; i++) {
            b.append(i == 0 ? "" : ", ")
                    .append("{\"index\": [")
                    .append(i)
                    .append("], \"location\": [[")
                    .append(i)
                    .append(", ")
                    .append(i)
                    .append("]], \"subarray\": {\"file\": \"f")
                    .append(i)
                    .append(".nc\", \"ncvar\": \"v\", \"shape\": [1], \"format\": \"netCDF\"}}");
        }
        return b.append("]}").toString();
    }

    @Test
    void partitionsOverTheBudgetAreRefusedBeforeTheyAreParsed() {
        LimitExceededException e = assertThrows(
                LimitExceededException.class,
                () -> CfaPartitions.parseJson(
                        "m.nc", "v", cfa(20_000), 1_000_000, MemoryLimits.MAX_METADATA_BYTES, 1 << 20));
        assertEquals(MemoryLimits.MAX_METADATA_BYTES, e.property());
        assertTrue(e.getMessage().contains("20000 CFA partitions"), e.getMessage());
        assertEquals("v", e.variable());
    }

    @Test
    void partitionsOverTheCountAreRefusedAndWithinBothAreParsed() throws Exception {
        String p = MemoryLimits.MAX_METADATA_BYTES;
        MetadataException e = assertThrows(
                MetadataException.class, () -> CfaPartitions.parseJson("m.nc", "v", cfa(101), 100, p, 64 << 20));
        assertTrue(e.getMessage().contains("101 partitions, more than 100"), e.getMessage());
        CfaPartitions.Matrix m = CfaPartitions.parseJson("m.nc", "v", cfa(100), 100, p, 64 << 20);
        assertEquals(100, m.partitions().size());
        assertEquals("f99.nc", m.partitions().get(99).file());
        assertEquals(100, m.pmshape()[0]);
    }

    @Test
    void pieceCountIsWhatThePlanHas() {
        FragmentGrid g = FragmentGrid.of(new long[][] {{2, 3, 1, 4}, {5, 5}}, null);
        long[][][] sections = {
            {{0, 0}, {10, 10}, {1, 1}},
            {{1, 2}, {5, 6}, {2, 1}},
            {{0, 0}, {3, 2}, {4, 9}},
            {{9, 9}, {1, 1}, {1, 1}},
            {{3, 0}, {0, 10}, {1, 1}},
        };
        for (long[][] s : sections) {
            assertEquals(g.plan(s[0], s[1], s[2]).size(), g.pieceCount(s[0], s[1], s[2]));
        }
    }
}
