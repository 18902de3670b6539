package io.nczarr.aggregation;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nczarr.error.LimitExceededException;
import io.nczarr.error.MetadataException;
import io.nczarr.error.NcZarrException;
import io.nczarr.error.UnsupportedFeatureException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/**
 * S3netCDF4's CFA-0.4 ({@code cfa_array} JSON attribute) and CFA-0.5 ({@code cfa_<var>} group, read by
 * the binding into {@link CfaPartition}s) partition matrices as an {@link Aggregation}: the
 * partitions' locations must tile the master array as a grid.
 */
public final class CfaPartitions {
    private static final ObjectMapper JSON = new ObjectMapper();

    private CfaPartitions() {}

    /** The partitions of a CFA-0.4 {@code cfa_array} attribute, and its {@code pmshape}. */
    public record Matrix(long[] pmshape, List<String> pmdimensions, List<CfaPartition> partitions) {}

    /** Memory one parsed partition is estimated to take (its record, arrays and strings, and its fragment). */
    public static final long BYTES_PER_PARTITION = 256;

    /** Parses a CFA-0.4 {@code cfa_array} attribute, its partitions bounded by their count only. */
    public static Matrix parseJson(String dataset, String variable, String json, int maxPartitions)
            throws NcZarrException {
        return parseJson(dataset, variable, json, maxPartitions, "(none)", Long.MAX_VALUE);
    }

    /**
     * Parses a CFA-0.4 {@code cfa_array} attribute. The partitions are counted by a streaming pass first and
     * refused (more than {@code maxPartitions}, or more than {@code budgetBytes} at {@link #BYTES_PER_PARTITION}
     * each) before any is made; then read one at a time, never the whole document as a tree.
     *
     * @param budgetProperty the memory limit's property ({@code nczarr.limits.maxMetadataBytes}), for the message
     */
    public static Matrix parseJson(
            String dataset, String variable, String json, int maxPartitions, String budgetProperty, long budgetBytes)
            throws NcZarrException {
        try {
            long n = countPartitions(dataset, variable, json);
            if (n > maxPartitions) {
                throw bad(dataset, variable, "cfa_array has " + n + " partitions, more than " + maxPartitions);
            }
            if (n * BYTES_PER_PARTITION > budgetBytes) {
                throw new LimitExceededException(
                        dataset,
                        "cfa_array",
                        variable,
                        n + " CFA partitions",
                        n * BYTES_PER_PARTITION,
                        budgetProperty,
                        budgetBytes,
                        null);
            }
            long[] pmshape = null;
            List<String> pmdims = new ArrayList<>();
            List<CfaPartition> out = new ArrayList<>((int) n);
            try (JsonParser p = JSON.getFactory().createParser(json)) {
                p.nextToken();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    JsonToken t = p.nextToken();
                    if (name.equals("Partitions") && t == JsonToken.START_ARRAY) {
                        while (p.nextToken() != JsonToken.END_ARRAY) {
                            out.add(partition(dataset, variable, JSON.readTree(p)));
                        }
                    } else if (name.equals("pmshape")) {
                        pmshape = longs(dataset, variable, JSON.readTree(p), "pmshape");
                    } else if ((name.equals("pmdimensions") || name.equals("pmdims")) && t == JsonToken.START_ARRAY) {
                        JsonNode pd = JSON.readTree(p);
                        pd.forEach(d -> pmdims.add(d.asText()));
                    } else {
                        p.skipChildren();
                    }
                }
            }
            if (pmshape == null) {
                throw bad(dataset, variable, "'pmshape' is not a list of integers: null");
            }
            return new Matrix(pmshape, pmdims, out);
        } catch (java.io.IOException e) {
            if (e instanceof NcZarrException nz) {
                throw nz;
            }
            throw bad(dataset, variable, "cfa_array is not JSON: " + e.getMessage());
        }
    }

    /** The number of partitions, by a streaming pass that makes none of them. */
    private static long countPartitions(String dataset, String variable, String json)
            throws java.io.IOException, MetadataException {
        long n = -1;
        try (JsonParser p = JSON.getFactory().createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw bad(dataset, variable, "cfa_array is not a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken t = p.nextToken();
                if (name.equals("Partitions") && t == JsonToken.START_ARRAY) {
                    n = 0;
                    while (p.nextToken() != JsonToken.END_ARRAY) {
                        p.skipChildren();
                        n++;
                    }
                } else {
                    p.skipChildren();
                }
            }
        }
        if (n < 0) {
            throw bad(dataset, variable, "cfa_array has no 'Partitions' list");
        }
        return n;
    }

    private static CfaPartition partition(String dataset, String variable, JsonNode p) throws MetadataException {
        JsonNode sub = p.get("subarray");
        if (sub == null || !sub.isObject()) {
            throw bad(dataset, variable, "a partition has no 'subarray' object: " + p);
        }
        JsonNode loc = p.get("location");
        if (loc == null || !loc.isArray()) {
            throw bad(dataset, variable, "a partition has no 'location' list: " + p);
        }
        long[][] location = new long[loc.size()][];
        for (int d = 0; d < location.length; d++) {
            location[d] = longs(dataset, variable, loc.get(d), "location");
        }
        return new CfaPartition(
                longs(dataset, variable, p.get("index"), "index"),
                location,
                text(sub, "file"),
                text(sub, "ncvar"),
                sub.has("shape") ? longs(dataset, variable, sub.get("shape"), "shape") : null,
                text(sub, "format"));
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static long[] longs(String dataset, String variable, JsonNode n, String what) throws MetadataException {
        if (n == null || !n.isArray()) {
            throw bad(dataset, variable, "'" + what + "' is not a list of integers: " + n);
        }
        long[] out = new long[n.size()];
        for (int i = 0; i < out.length; i++) {
            if (!n.get(i).canConvertToLong() || !n.get(i).isIntegralNumber()) {
                throw bad(dataset, variable, "'" + what + "' is not a list of integers: " + n);
            }
            out[i] = n.get(i).asLong();
        }
        return out;
    }

    /**
     * The aggregation of a partition matrix over a master array of {@code lengths}: each dimension's
     * partition boundaries come from the locations, which must tile the dimension, and every grid
     * cell must have exactly one partition.
     */
    public static Aggregation toAggregation(
            String dataset,
            String variable,
            String convention,
            List<String> dimensions,
            long[] lengths,
            long[] pmshape,
            List<CfaPartition> partitions)
            throws NcZarrException {
        int rank = lengths.length;
        if (pmshape.length != rank) {
            throw bad(
                    dataset,
                    variable,
                    "pmshape " + Arrays.toString(pmshape) + " has not the rank " + rank + " of cfa_dimensions");
        }
        List<TreeMap<Long, Long>> bounds = new ArrayList<>(); // per dim: start -> size
        for (int d = 0; d < rank; d++) {
            bounds.add(new TreeMap<>());
        }
        for (CfaPartition p : partitions) {
            if (p.location().length != rank || p.index().length != rank) {
                throw bad(dataset, variable, "partition " + Arrays.toString(p.index()) + " has not rank " + rank);
            }
            for (int d = 0; d < rank; d++) {
                long[] l = p.location()[d];
                if (l.length != 2 || l[0] < 0 || l[1] < l[0]) {
                    throw bad(
                            dataset,
                            variable,
                            "partition " + Arrays.toString(p.index()) + " has the bad location "
                                    + Arrays.deepToString(p.location()));
                }
                long size = l[1] - l[0] + 1; // Figure 2: [0, 11] for 12 elements
                if (p.shape() != null && p.shape().length == rank && p.shape()[d] == l[1] - l[0]) {
                    size = l[1] - l[0]; // an exclusive end
                }
                Long old = bounds.get(d).put(l[0], size);
                if (old != null && old != size) {
                    throw bad(dataset, variable, "partitions disagree on the extent of dimension " + d + " at " + l[0]);
                }
            }
        }
        long[][] sizes = new long[rank][];
        for (int d = 0; d < rank; d++) {
            long next = 0;
            List<Long> s = new ArrayList<>();
            for (var e : bounds.get(d).entrySet()) {
                if (e.getKey() != next) {
                    throw bad(
                            dataset,
                            variable,
                            "the partitions do not tile dimension " + dimensions.get(d) + ": a gap or overlap at "
                                    + Math.min(next, e.getKey()));
                }
                s.add(e.getValue());
                next += e.getValue();
            }
            sizes[d] = s.stream().mapToLong(Long::longValue).toArray();
            if (sizes[d].length != pmshape[d]) {
                throw bad(
                        dataset,
                        variable,
                        "pmshape " + Arrays.toString(pmshape) + " but the locations have " + sizes[d].length
                                + " partitions along " + dimensions.get(d));
            }
        }
        FragmentGrid grid;
        try {
            grid = FragmentGrid.of(sizes, lengths);
        } catch (IllegalArgumentException e) {
            throw bad(dataset, variable, "the partitions do not cover the master array: " + e.getMessage());
        }
        Fragment[] cells = new Fragment[grid.fragmentCount()];
        for (CfaPartition p : partitions) {
            int[] pos = new int[rank];
            for (int d = 0; d < rank; d++) {
                pos[d] = bounds.get(d).headMap(p.location()[d][0]).size();
            }
            int i = grid.flatIndex(pos);
            if (cells[i] != null) {
                throw bad(dataset, variable, "two partitions at " + Arrays.toString(pos));
            }
            if (p.format() != null
                    && !p.format().isEmpty()
                    && !p.format().toUpperCase(java.util.Locale.ROOT).startsWith("NETCDF")) {
                throw new UnsupportedFeatureException(
                        dataset,
                        "cfa_array",
                        variable,
                        "CFA sub-array format " + p.format(),
                        "the sub-array " + p.file() + " has the format " + p.format()
                                + " (only netCDF sub-arrays are read)",
                        null);
            }
            cells[i] = new Fragment(pos, p.file(), p.ncvar() == null ? variable : p.ncvar(), null);
        }
        for (int i = 0; i < cells.length; i++) {
            if (cells[i] == null) {
                throw bad(
                        dataset,
                        variable,
                        "the partition matrix has no partition for cell " + i + " (row-major) of "
                                + Arrays.toString(grid.gridShape()));
            }
        }
        return new Aggregation(dataset, variable, convention, dimensions, grid, Arrays.asList(cells));
    }

    private static MetadataException bad(String dataset, String variable, String what) {
        return new MetadataException(dataset, "cfa_array", variable, what, null);
    }
}
