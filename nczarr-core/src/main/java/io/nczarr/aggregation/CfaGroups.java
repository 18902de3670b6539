package io.nczarr.aggregation;

import io.nczarr.error.MetadataException;
import io.nczarr.read.TypedArray;
import io.nczarr.read.VariableReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** CFA-0.5: the partition matrix of an aggregation variable held as variables of its {@code cfa_group}. */
final class CfaGroups {
    private CfaGroups() {}

    static Aggregation parse(AggregationParser p, String path, String gname, List<String> names, long[] lengths)
            throws IOException {
        String location = p.location();
        String name = AggregationParser.nm(path);
        String g = gname == null ? null : p.document().findGroup(AggregationParser.parent(path), gname);
        if (g == null) {
            g = gname == null ? null : p.document().findGroup("/", gname);
        }
        if (g == null) {
            throw new MetadataException(
                    location, "cfa_group", name, "the CFA-0.5 group '" + gname + "' does not exist", null);
        }
        p.hideGroup(g);
        int rank = names.size();
        long[] pmshape = longs(p, g, "pmshape", name);
        long cells = 1;
        for (long s : pmshape) {
            cells *= Math.max(s, 0);
            if (cells > FragmentGrid.MAX_FRAGMENTS) {
                throw new MetadataException(
                        location,
                        AggregationParser.nm(g),
                        name,
                        "the partition matrix " + Arrays.toString(pmshape) + " has more than "
                                + FragmentGrid.MAX_FRAGMENTS + " partitions",
                        null);
            }
        }
        long[] index = longs(p, g, "index", name);
        long[] loc = longs(p, g, "location", name);
        long[] shape = p.var(g + "/shape") == null ? null : longs(p, g, "shape", name);
        List<String> file = p.strings(need(p, g, "file", name));
        List<String> ncvar = p.var(g + "/ncvar") == null ? null : p.strings(g + "/ncvar");
        List<String> format = p.var(g + "/format") == null ? null : p.strings(g + "/format");
        if (index.length != cells * rank
                || loc.length != cells * rank * 2
                || file.size() != cells
                || (shape != null && shape.length != cells * rank)) {
            throw new MetadataException(
                    location,
                    AggregationParser.nm(g),
                    name,
                    "the partition matrix variables do not have the shape pmshape " + Arrays.toString(pmshape) + " (x "
                            + rank + " dimensions)",
                    null);
        }
        List<CfaPartition> parts = new ArrayList<>();
        for (int c = 0; c < cells; c++) {
            long[][] l = new long[rank][];
            for (int d = 0; d < rank; d++) {
                l[d] = new long[] {loc[(c * rank + d) * 2], loc[(c * rank + d) * 2 + 1]};
            }
            parts.add(new CfaPartition(
                    Arrays.copyOfRange(index, c * rank, c * rank + rank),
                    l,
                    file.get(c),
                    ncvar == null ? null : ncvar.get(c),
                    shape == null ? null : Arrays.copyOfRange(shape, c * rank, c * rank + rank),
                    format == null ? null : format.get(c)));
        }
        return CfaPartitions.toAggregation(location, name, "CFA-0.5", names, lengths, pmshape, parts);
    }

    private static String need(AggregationParser p, String g, String n, String name) throws MetadataException {
        String path = g + "/" + n;
        if (p.var(path) == null) {
            throw new MetadataException(
                    p.location(), AggregationParser.nm(g), name, "the CFA-0.5 group has no variable '" + n + "'", null);
        }
        return path;
    }

    private static long[] longs(AggregationParser p, String g, String n, String name) throws IOException {
        String path = need(p, g, n, name);
        p.checkSize(path, FragmentGrid.MAX_FRAGMENTS * 64L, name);
        VariableReader t = p.var(path);
        if (!t.type().isNumeric() || t.type().isFloatingPoint()) {
            throw new MetadataException(
                    p.location(),
                    AggregationParser.nm(path),
                    name,
                    "must be integers, not " + t.type().cdlName(),
                    null);
        }
        TypedArray a = t.readAll();
        long[] out = new long[a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = a.getLong(i);
        }
        return out;
    }
}
