package io.nczarr.aggregation;

import io.nczarr.error.MetadataException;
import io.nczarr.model.Attr;
import io.nczarr.model.Fills;
import io.nczarr.model.NcType;
import io.nczarr.read.TypedArray;
import io.nczarr.read.VariableReader;
import io.nczarr.store.MemoryLimits;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Finds the aggregation variables of a document (CF-1.13 {@code aggregated_dimensions}/{@code aggregated_data},
 * CFA-0.4 {@code cfa_array}, CFA-0.5 {@code cfa_group}) and reads their bookkeeping (map, uris, identifiers,
 * unique_values, partition matrices) into {@link Aggregation}s; remembers which variables and groups are
 * bookkeeping, for a binding to hide. The per-variable term lookups go from the variable's group outwards.
 */
public final class AggregationParser {
    /** Attributes of an aggregation variable that are bookkeeping, not data description. */
    public static final Set<String> HIDDEN_ATTRIBUTES =
            Set.of("aggregated_dimensions", "aggregated_data", "cfa_dimensions", "cfa_array", "cfa_group");

    private final AggregationDocument doc;
    private final String location;
    private final MemoryLimits limits;
    private final Set<String> hiddenVariables = new LinkedHashSet<>();
    private final Set<String> hiddenGroups = new LinkedHashSet<>();

    public AggregationParser(AggregationDocument doc, MemoryLimits limits) {
        this.doc = doc;
        this.location = doc.location();
        this.limits = limits;
    }

    /** Whether a variable is an aggregation variable (CF-1.13 or CFA). */
    public static boolean isAggregationVariable(List<Attr> attributes) {
        return (CanonicalValues.find(attributes, "aggregated_data") != null
                        && CanonicalValues.find(attributes, "aggregated_dimensions") != null)
                || "cfa_variable".equals(CanonicalValues.text(attributes, "cf_role"));
    }

    /** Whether the attribute is bookkeeping of an aggregation variable (hidden in its presented form). */
    public static boolean isBookkeeping(Attr a) {
        return HIDDEN_ATTRIBUTES.contains(a.name())
                || (a.name().equals("cf_role") && "cfa_variable".equals(CanonicalValues.text(List.of(a), "cf_role")));
    }

    /** Full paths of the bookkeeping variables of the aggregations parsed so far. */
    public Set<String> hiddenVariables() {
        return hiddenVariables;
    }

    /** Full paths of the CFA-0.5 groups of the aggregations parsed so far. */
    public Set<String> hiddenGroups() {
        return hiddenGroups;
    }

    /** The name netCDF-Java gives a variable at {@code path}: without the leading slash. */
    static String nm(String path) {
        return path != null && path.startsWith("/") ? path.substring(1) : path;
    }

    static String parent(String path) {
        int i = path.lastIndexOf('/');
        return i <= 0 ? "/" : path.substring(0, i);
    }

    private static String child(String group, String name) {
        return group.equals("/") ? "/" + name : group + "/" + name;
    }

    /** The aggregation of the aggregation variable at {@code path}. */
    public Aggregation parse(String path, VariableReader v) throws IOException {
        List<Attr> at = v.attributes();
        boolean cf = CanonicalValues.find(at, "aggregated_data") != null;
        String dimsAttr =
                cf ? CanonicalValues.text(at, "aggregated_dimensions") : CanonicalValues.text(at, "cfa_dimensions");
        if (dimsAttr == null) {
            throw new MetadataException(
                    location,
                    cf ? "aggregated_dimensions" : "cfa_dimensions",
                    nm(path),
                    "the aggregation variable has no " + (cf ? "aggregated_dimensions" : "cfa_dimensions") + " text",
                    null);
        }
        if (v.shape().length != 0) {
            throw new MetadataException(
                    location,
                    null,
                    nm(path),
                    "an aggregation variable must be a scalar, not of shape " + Arrays.toString(v.shape()),
                    null);
        }
        List<String> names =
                dimsAttr.isBlank() ? List.of() : Arrays.asList(dimsAttr.trim().split("\\s+"));
        long[] lengths = new long[names.size()];
        for (int d = 0; d < names.size(); d++) {
            lengths[d] = doc.dimensionLength(parent(path), names.get(d));
            if (lengths[d] < 0) {
                throw new MetadataException(
                        location,
                        cf ? "aggregated_dimensions" : "cfa_dimensions",
                        nm(path),
                        "the aggregated dimension '" + names.get(d) + "' does not exist",
                        null);
            }
        }
        if (cf) {
            return cf(path, at, names, lengths);
        }
        if (CanonicalValues.find(at, "cfa_array") != null) {
            CfaPartitions.Matrix m = CfaPartitions.parseJson(
                    location,
                    nm(path),
                    CanonicalValues.text(at, "cfa_array"),
                    (int) FragmentGrid.MAX_FRAGMENTS,
                    limits.metadata().property(),
                    limits.metadata().bytes());
            return CfaPartitions.toAggregation(
                    location, nm(path), "CFA-0.4", names, lengths, m.pmshape(), m.partitions());
        }
        if (CanonicalValues.find(at, "cfa_group") != null) {
            return CfaGroups.parse(this, path, CanonicalValues.text(at, "cfa_group"), names, lengths);
        }
        throw new MetadataException(
                location,
                "cf_role",
                nm(path),
                "a cfa_variable without cfa_array (CFA-0.4) or cfa_group (CFA-0.5)",
                null);
    }

    private Aggregation cf(String path, List<Attr> at, List<String> names, long[] lengths) throws IOException {
        AggregatedData ad = AggregatedData.parse(location, nm(path), CanonicalValues.text(at, "aggregated_data"));
        String mapPath = term(path, ad.map(), "map");
        hiddenVariables.add(mapPath);
        long[][] rows = mapRows(mapPath, names.size(), path);
        List<String> uris = null;
        List<String> ids = null;
        List<Object> unique = null;
        int[] grid = new int[rows.length];
        long cells = 1;
        for (int d = 0; d < rows.length; d++) {
            grid[d] = rows[d].length;
            cells *= grid[d];
            if (cells > FragmentGrid.MAX_FRAGMENTS) {
                // before any per-fragment variable (uris, identifiers) is read
                throw new MetadataException(
                        location,
                        nm(mapPath),
                        nm(path),
                        "the map gives more than " + FragmentGrid.MAX_FRAGMENTS + " fragments (grid "
                                + Arrays.toString(Arrays.copyOf(grid, d + 1)) + "...)",
                        null);
            }
        }
        if (ad.uris() != null) {
            String u = term(path, ad.uris(), "uris");
            String i = term(path, ad.identifiers(), "identifiers");
            hiddenVariables.add(u);
            hiddenVariables.add(i);
            checkGridShape(u, grid, path, "uris");
            uris = strings(u);
            ids = strings(i);
            if (ids.size() != 1) {
                checkGridShape(i, grid, path, "identifiers");
            }
        } else {
            String u = term(path, ad.uniqueValues(), "unique_values");
            hiddenVariables.add(u);
            checkGridShape(u, grid, path, "unique_values");
            unique = new ArrayList<>();
            VariableReader uv = var(u);
            if (uv.type() == NcType.STRING || uv.type() == NcType.CHAR) {
                unique.addAll(strings(u));
            } else {
                checkSize(u, FragmentGrid.MAX_FRAGMENTS, path);
                TypedArray a = uv.readAll();
                for (int k = 0; k < a.size(); k++) {
                    unique.add(uv.type().isFloatingPoint() ? (Object) a.getDouble(k) : (Object) a.getLong(k));
                }
            }
        }
        return Aggregation.cf(location, nm(path), names, lengths, rows, uris, ids, unique);
    }

    VariableReader var(String path) {
        return doc.variables().get(path);
    }

    AggregationDocument document() {
        return doc;
    }

    String location() {
        return location;
    }

    /** A term's variable, from the aggregation variable's group outwards; its full path. */
    private String term(String path, String termVar, String term) throws MetadataException {
        String n = termVar.startsWith("/") ? termVar.substring(1) : termVar;
        for (String g = parent(path); ; g = parent(g)) {
            String p = child(g, n);
            if (doc.variables().containsKey(p)) {
                return p;
            }
            if (g.equals("/")) {
                break;
            }
        }
        throw new MetadataException(
                location,
                "aggregated_data",
                nm(path),
                "the " + term + " variable '" + termVar + "' does not exist",
                null);
    }

    static long size(VariableReader v) {
        long n = 1;
        for (long s : v.shape()) {
            n *= s;
        }
        return n;
    }

    void checkSize(String t, long max, String name) throws MetadataException {
        long n = size(var(t));
        if (n > max) {
            throw new MetadataException(
                    location,
                    nm(t),
                    nm(name),
                    "the aggregation variable " + nm(t) + " has " + n + " elements, more than " + max + " ("
                            + FragmentGrid.MAX_FRAGMENTS + " fragments at most)",
                    null);
        }
    }

    /** The rows of the map variable without their padding (missing values). */
    private long[][] mapRows(String mapPath, int rank, String name) throws IOException {
        if (rank == 0) {
            return new long[0][];
        }
        checkSize(mapPath, FragmentGrid.MAX_FRAGMENTS, name);
        VariableReader map = var(mapPath);
        long[] shape = map.shape();
        long rows = shape.length == 1 ? 1 : shape.length == 2 ? shape[0] : -1;
        if (rows != rank || !map.type().isNumeric() || map.type().isFloatingPoint()) {
            throw new MetadataException(
                    location,
                    nm(mapPath),
                    nm(name),
                    "the map variable must be an integer array with one row per aggregated dimension (" + rank
                            + "), not " + map.type().cdlName() + " of shape " + Arrays.toString(shape),
                    null);
        }
        Set<Long> missing = new HashSet<>();
        for (String a : new String[] {"_FillValue", "missing_value"}) {
            Attr at = CanonicalValues.find(map.attributes(), a);
            if (at != null && at.type().isNumeric() && at.length() > 0) {
                missing.add(new TypedArray(at.type(), new int[] {at.length()}, at.value()).getLong(0));
            }
        }
        missing.add(Fills.defaultFill(map.type()).longValue());
        TypedArray a = map.readAll();
        int cols = (int) (shape.length == 1 ? shape[0] : shape[1]);
        long[][] out = new long[rank][];
        int i = 0;
        for (int r = 0; r < rank; r++) {
            List<Long> row = new ArrayList<>();
            for (int c = 0; c < cols; c++) {
                long x = a.getLong(i++);
                if (!missing.contains(x)) {
                    row.add(x);
                }
            }
            out[r] = row.stream().mapToLong(Long::longValue).toArray();
        }
        return out;
    }

    /** A per-fragment variable must have the grid's shape (size-1 dimensions aside). */
    private void checkGridShape(String t, int[] grid, String name, String term) throws MetadataException {
        VariableReader v = var(t);
        long[] s = v.shape();
        if (v.type() == NcType.CHAR && s.length > 0) {
            s = Arrays.copyOf(s, s.length - 1);
        }
        long[] g = Arrays.stream(grid).asLongStream().toArray();
        if (!Arrays.equals(squeeze(s), squeeze(g))) {
            throw new MetadataException(
                    location,
                    nm(t),
                    nm(name),
                    "the " + term + " variable has the shape " + Arrays.toString(s) + ", not the fragment grid "
                            + Arrays.toString(grid),
                    null);
        }
    }

    private static long[] squeeze(long[] s) {
        return Arrays.stream(s).filter(x -> x != 1).toArray();
    }

    /** The strings of a string or char variable, row-major ({@code null} for an empty one). */
    List<String> strings(String t) throws IOException {
        checkSize(t, FragmentGrid.MAX_FRAGMENTS * 4096L, t);
        VariableReader v = var(t);
        List<String> out = new ArrayList<>();
        if (v.type() == NcType.CHAR) {
            TypedArray a = v.readAll();
            byte[] b = a.bytes();
            int len = a.rank() == 0 ? 1 : a.shape()[a.rank() - 1];
            if (a.rank() <= 1) {
                out.add(empty(chars(b, 0, b.length)));
            } else {
                for (int o = 0; o + len <= b.length && len > 0; o += len) {
                    out.add(empty(chars(b, o, len)));
                }
            }
        } else if (v.type() == NcType.STRING) {
            for (String s : v.readAll().strings()) {
                out.add(s == null ? null : empty(s));
            }
        } else {
            throw new MetadataException(
                    location,
                    nm(t),
                    null,
                    "the variable " + nm(t) + " must hold strings, not "
                            + v.type().cdlName(),
                    null);
        }
        return out;
    }

    /** The characters of a char row up to its first NUL, one char per byte (as netCDF-Java reads them). */
    private static String chars(byte[] b, int from, int len) {
        StringBuilder sb = new StringBuilder(len);
        for (int k = from; k < from + len && b[k] != 0; k++) {
            sb.append((char) (b[k] & 0xff));
        }
        return sb.toString();
    }

    private static String empty(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    void hideGroup(String group) {
        hiddenGroups.add(group);
    }
}
