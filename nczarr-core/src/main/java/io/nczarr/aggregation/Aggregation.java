package io.nczarr.aggregation;

import io.nczarr.error.MetadataException;
import java.util.Arrays;
import java.util.List;

/**
 * One aggregation variable, whichever convention wrote it: the aggregated dimension names, the
 * fragment grid and the fragments in row-major grid order.
 *
 * @param convention {@code "CF-1.13"}, {@code "CFA-0.4"} or {@code "CFA-0.5"}
 */
public record Aggregation(
        String dataset,
        String variable,
        String convention,
        List<String> dimensions,
        FragmentGrid grid,
        List<Fragment> fragments) {

    public Aggregation {
        dimensions = List.copyOf(dimensions);
        fragments = List.copyOf(fragments);
    }

    public Fragment fragment(int[] position) {
        return fragments.get(grid.flatIndex(position));
    }

    /**
     * A CF-1.13 aggregation. {@code mapRows}: each row of the {@code map} variable without its missing
     * values (a scalar map = no rows); {@code uris} and {@code identifiers} (one per fragment in
     * row-major order, or one identifier for all) or {@code uniqueValues} (one per fragment).
     */
    public static Aggregation cf(
            String dataset,
            String variable,
            List<String> dimensions,
            long[] lengths,
            long[][] mapRows,
            List<String> uris,
            List<String> identifiers,
            List<?> uniqueValues)
            throws MetadataException {
        FragmentGrid grid;
        try {
            grid = FragmentGrid.of(mapRows, lengths);
        } catch (IllegalArgumentException e) {
            throw new MetadataException(dataset, "map", variable, "bad aggregation map: " + e.getMessage(), null);
        }
        int n = grid.fragmentCount();
        List<?> values = uris != null ? uris : uniqueValues;
        String term = uris != null ? "uris" : "unique_values";
        if (values.size() != n) {
            throw new MetadataException(
                    dataset,
                    term,
                    variable,
                    "the " + term + " variable has " + values.size() + " values for " + n + " fragments (map grid "
                            + Arrays.toString(grid.gridShape()) + ")",
                    null);
        }
        if (identifiers != null && identifiers.size() != 1 && identifiers.size() != n) {
            throw new MetadataException(
                    dataset,
                    "identifiers",
                    variable,
                    "the identifiers variable has " + identifiers.size() + " values for " + n
                            + " fragments (must be 1 or one per fragment)",
                    null);
        }
        Fragment[] out = new Fragment[n];
        int[] pos = new int[grid.rank()];
        int[] g = grid.gridShape();
        for (int i = 0; i < n; i++) {
            if (uris != null) {
                String id = identifiers.get(identifiers.size() == 1 ? 0 : i);
                out[i] = new Fragment(pos, uris.get(i), id, null);
            } else {
                Object v = uniqueValues.get(i);
                if (v == null) {
                    throw new MetadataException(dataset, term, variable, "unique value " + i + " is missing", null);
                }
                out[i] = new Fragment(pos, null, null, v);
            }
            for (int d = g.length - 1; d >= 0 && ++pos[d] == g[d]; d--) {
                pos[d] = 0;
            }
        }
        return new Aggregation(dataset, variable, "CF-1.13", dimensions, grid, Arrays.asList(out));
    }
}
