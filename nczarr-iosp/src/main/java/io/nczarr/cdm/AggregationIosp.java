package io.nczarr.cdm;

import io.nczarr.aggregation.AggregatedData;
import io.nczarr.aggregation.Aggregation;
import io.nczarr.aggregation.CfaPartition;
import io.nczarr.aggregation.CfaPartitions;
import io.nczarr.aggregation.Fragment;
import io.nczarr.aggregation.FragmentGrid;
import io.nczarr.aggregation.FragmentUris;
import io.nczarr.error.LimitExceededException;
import io.nczarr.error.MetadataException;
import io.nczarr.error.NcZarrException;
import io.nczarr.error.TargetRefusedException;
import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.open.NcZarrOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import ucar.ma2.Array;
import ucar.ma2.ArrayChar;
import ucar.ma2.DataType;
import ucar.ma2.IndexIterator;
import ucar.ma2.InvalidRangeException;
import ucar.ma2.MAMath;
import ucar.ma2.Range;
import ucar.ma2.Section;
import ucar.nc2.Attribute;
import ucar.nc2.Dimension;
import ucar.nc2.Group;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Structure;
import ucar.nc2.Variable;
import ucar.nc2.iosp.AbstractIOServiceProvider;
import ucar.nc2.iosp.netcdf3.N3iosp;
import ucar.nc2.util.CancelTask;
import ucar.unidata.io.RandomAccessFile;

/**
 * An aggregation file (CF-1.13 aggregation variables, S3netCDF4 CFA-0.4/0.5 master arrays) as an
 * ordinary NetcdfFile: each aggregation variable has its aggregated dimensions and reads from the
 * fragments it touches (in parallel on the options' fragment pool, through a bounded cache of open
 * fragment files); the bookkeeping (map, uris, identifiers, unique_values variables and the dimensions
 * only they use, CFA {@code cfa_*} groups and attributes) is hidden. Every other variable reads from
 * the aggregation file. Opened by {@link NcZarrFiles}; {@code nczarr.aggregation.raw=true} shows the
 * file as it is.
 */
final class AggregationIosp extends AbstractIOServiceProvider {
    /** {@code sendIospMessage} returns {@code long[] {fragment files opened, closed, open now}}. */
    static final String MESSAGE_FRAGMENT_COUNTS = "nczarr.aggregation.fragmentCounts";

    private static final Set<String> HIDDEN_ATTRIBUTES =
            Set.of("aggregated_dimensions", "aggregated_data", "cfa_dimensions", "cfa_array", "cfa_group");

    private final NetcdfFile source;
    private final String location;
    private final NcZarrOptions options;
    private final FragmentFiles files;
    private final FragmentSources sources;

    /** The aggregation of one presented variable. */
    private record AggVar(Aggregation aggregation, FragmentValues values) {}

    AggregationIosp(NetcdfFile source, String location, NcZarrOptions options) throws IOException {
        this.source = source;
        this.location = location;
        this.options = options;
        this.sources = new FragmentSources(location, options);
        this.files = new FragmentFiles(sources::open, options.aggregation().maxOpenFragments());
    }

    /** Whether {@code nc} has an aggregation variable (CF-1.13 or CFA). */
    static boolean hasAggregation(NetcdfFile nc) {
        for (Variable v : nc.getVariables()) {
            if (isAggregationVariable(v)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isAggregationVariable(Variable v) {
        return (v.findAttribute("aggregated_data") != null && v.findAttribute("aggregated_dimensions") != null)
                || "cfa_variable".equals(text(v, "cf_role"));
    }

    private static String text(Variable v, String name) {
        Attribute a = v.findAttribute(name);
        return a != null && a.isString() ? a.getStringValue() : null;
    }

    // ---------------------------------------------------------------------------------------------
    // open: the presented structure
    // ---------------------------------------------------------------------------------------------

    @Override
    public boolean isValidFile(RandomAccessFile raf) {
        return false; // only built by NcZarrFiles
    }

    @Override
    public void open(RandomAccessFile raf, NetcdfFile ncfile, CancelTask cancelTask) throws IOException {
        Set<Variable> hiddenVars = new HashSet<>();
        Set<Group> hiddenGroups = new HashSet<>();
        Map<Variable, Aggregation> aggregations = new HashMap<>();
        for (Variable v : source.getVariables()) {
            if (isAggregationVariable(v)) {
                aggregations.put(v, aggregation(v, hiddenVars, hiddenGroups));
            }
        }
        Set<Dimension> used = new HashSet<>();
        for (Variable v : source.getVariables()) {
            if (!hiddenVars.contains(v) && !inHidden(v.getParentGroup(), hiddenGroups)) {
                used.addAll(v.getDimensions());
            }
        }
        Set<Dimension> hiddenDims = new HashSet<>();
        for (Variable v : hiddenVars) {
            for (Dimension d : v.getDimensions()) {
                if (!used.contains(d)) {
                    hiddenDims.add(d);
                }
            }
        }
        for (Aggregation a : aggregations.values()) {
            for (Dimension d : aggDims(a)) {
                hiddenDims.remove(d);
            }
        }
        copyGroups(source.getRootGroup(), ncfile.getRootGroup(), ncfile, hiddenGroups, hiddenDims);
        copyVariables(source.getRootGroup(), ncfile.getRootGroup(), ncfile, hiddenGroups, hiddenVars, aggregations);
        ncfile.finish();
    }

    /** The aggregated dimensions (in the aggregation file) of each aggregation variable. */
    private final Map<Aggregation, List<Dimension>> aggDimensions = new java.util.IdentityHashMap<>();

    private List<Dimension> aggDims(Aggregation a) {
        return aggDimensions.getOrDefault(a, List.of());
    }

    private static boolean inHidden(Group g, Set<Group> hidden) {
        for (Group x = g; x != null; x = x.getParentGroup()) {
            if (hidden.contains(x)) {
                return true;
            }
        }
        return false;
    }

    private void copyGroups(
            Group src, Group dst, NetcdfFile ncfile, Set<Group> hiddenGroups, Set<Dimension> hiddenDims) {
        for (Dimension d : src.getDimensions()) {
            if (!hiddenDims.contains(d)) {
                dst.addDimension(
                        new Dimension(d.getShortName(), d.getLength(), true, d.isUnlimited(), d.isVariableLength()));
            }
        }
        for (Attribute a : src.getAttributes()) {
            dst.addAttribute(a);
        }
        for (Group c : src.getGroups()) {
            if (!hiddenGroups.contains(c)) {
                Group nc = new Group(ncfile, dst, c.getShortName());
                dst.addGroup(nc);
                copyGroups(c, nc, ncfile, hiddenGroups, hiddenDims);
            }
        }
    }

    private void copyVariables(
            Group src,
            Group dst,
            NetcdfFile ncfile,
            Set<Group> hiddenGroups,
            Set<Variable> hiddenVars,
            Map<Variable, Aggregation> aggregations)
            throws IOException {
        for (Variable sv : src.getVariables()) {
            if (hiddenVars.contains(sv)) {
                continue;
            }
            if (sv instanceof Structure) {
                throw new UnsupportedFeatureException(
                        location,
                        null,
                        sv.getFullName(),
                        "compound variables",
                        "the aggregation file has the compound variable " + sv.getFullName(),
                        null);
            }
            Variable v = new Variable(ncfile, dst, null, sv.getShortName());
            v.setDataType(sv.getDataType());
            Aggregation a = aggregations.get(sv);
            List<Dimension> dims = new ArrayList<>();
            List<Dimension> from = a != null ? aggDims(a) : sv.getDimensions();
            for (Dimension d : from) {
                Dimension nd = d.isShared() ? dst.findDimension(d.getShortName()) : null;
                dims.add(nd != null ? nd : new Dimension(null, d.getLength(), false));
            }
            v.setDimensions(dims);
            for (Attribute at : sv.getAttributes()) {
                if (a == null
                        || !(HIDDEN_ATTRIBUTES.contains(at.getShortName())
                                || (at.getShortName().equals("cf_role")
                                        && "cfa_variable".equals(at.getStringValue())))) {
                    v.addAttribute(at);
                }
            }
            if (a != null) {
                v.setSPobject(new AggVar(a, new FragmentValues(v)));
                v.setCaching(false);
            } else {
                v.setSPobject(sv);
            }
            dst.addVariable(v);
        }
        int i = 0;
        for (Group c : src.getGroups()) {
            if (!hiddenGroups.contains(c)) {
                copyVariables(c, dst.getGroups().get(i++), ncfile, hiddenGroups, hiddenVars, aggregations);
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // the aggregation of one variable
    // ---------------------------------------------------------------------------------------------

    private Aggregation aggregation(Variable v, Set<Variable> hiddenVars, Set<Group> hiddenGroups) throws IOException {
        String name = v.getFullName();
        boolean cf = v.findAttribute("aggregated_data") != null;
        String dimsAttr = cf ? text(v, "aggregated_dimensions") : text(v, "cfa_dimensions");
        if (dimsAttr == null) {
            throw new MetadataException(
                    location,
                    cf ? "aggregated_dimensions" : "cfa_dimensions",
                    name,
                    "the aggregation variable has no " + (cf ? "aggregated_dimensions" : "cfa_dimensions") + " text",
                    null);
        }
        if (v.getRank() != 0) {
            throw new MetadataException(
                    location,
                    null,
                    name,
                    "an aggregation variable must be a scalar, not of shape " + Arrays.toString(v.getShape()),
                    null);
        }
        List<String> names =
                dimsAttr.isBlank() ? List.of() : Arrays.asList(dimsAttr.trim().split("\\s+"));
        List<Dimension> dims = new ArrayList<>();
        long[] lengths = new long[names.size()];
        for (int d = 0; d < names.size(); d++) {
            Dimension dim = v.getParentGroup().findDimension(names.get(d));
            if (dim == null) {
                throw new MetadataException(
                        location,
                        cf ? "aggregated_dimensions" : "cfa_dimensions",
                        name,
                        "the aggregated dimension '" + names.get(d) + "' does not exist",
                        null);
            }
            dims.add(dim);
            lengths[d] = dim.getLength();
        }
        Aggregation a;
        if (cf) {
            a = cf(v, name, names, lengths, hiddenVars);
        } else if (v.findAttribute("cfa_array") != null) {
            CfaPartitions.Matrix m = CfaPartitions.parseJson(
                    location,
                    name,
                    text(v, "cfa_array"),
                    (int) FragmentGrid.MAX_FRAGMENTS,
                    options.limits().metadata().property(),
                    options.limits().metadata().bytes());
            a = CfaPartitions.toAggregation(location, name, "CFA-0.4", names, lengths, m.pmshape(), m.partitions());
        } else if (v.findAttribute("cfa_group") != null) {
            a = cfa05(v, name, names, lengths, hiddenGroups);
        } else {
            throw new MetadataException(
                    location,
                    "cf_role",
                    name,
                    "a cfa_variable without cfa_array (CFA-0.4) or cfa_group (CFA-0.5)",
                    null);
        }
        aggDimensions.put(a, dims);
        return a;
    }

    private Aggregation cf(Variable v, String name, List<String> names, long[] lengths, Set<Variable> hidden)
            throws IOException {
        AggregatedData ad = AggregatedData.parse(location, name, text(v, "aggregated_data"));
        Variable map = term(v, ad.map(), "map");
        hidden.add(map);
        long[][] rows = mapRows(map, names.size(), name);
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
                        map.getFullName(),
                        name,
                        "the map gives more than " + FragmentGrid.MAX_FRAGMENTS + " fragments (grid "
                                + Arrays.toString(Arrays.copyOf(grid, d + 1)) + "...)",
                        null);
            }
        }
        if (ad.uris() != null) {
            Variable u = term(v, ad.uris(), "uris");
            Variable i = term(v, ad.identifiers(), "identifiers");
            hidden.add(u);
            hidden.add(i);
            checkGridShape(u, grid, name, "uris");
            uris = strings(u);
            ids = strings(i);
            if (ids.size() != 1) {
                checkGridShape(i, grid, name, "identifiers");
            }
        } else {
            Variable u = term(v, ad.uniqueValues(), "unique_values");
            hidden.add(u);
            checkGridShape(u, grid, name, "unique_values");
            unique = new ArrayList<>();
            if (u.getDataType() == DataType.STRING || u.getDataType() == DataType.CHAR) {
                unique.addAll(strings(u));
            } else {
                checkSize(u, FragmentGrid.MAX_FRAGMENTS, name);
                IndexIterator it = u.read().getIndexIterator();
                while (it.hasNext()) {
                    unique.add(it.getObjectNext());
                }
            }
        }
        return Aggregation.cf(location, name, names, lengths, rows, uris, ids, unique);
    }

    /** A term's variable, from the aggregation variable's group outwards. */
    private Variable term(Variable v, String termVar, String term) throws MetadataException {
        String n = termVar.startsWith("/") ? termVar.substring(1) : termVar;
        Variable t = null;
        for (Group g = v.getParentGroup(); g != null && t == null; g = g.getParentGroup()) {
            t = g.findVariable(n);
        }
        if (t == null) {
            t = source.findVariable(n);
        }
        if (t == null) {
            throw new MetadataException(
                    location,
                    "aggregated_data",
                    v.getFullName(),
                    "the " + term + " variable '" + termVar + "' does not exist",
                    null);
        }
        return t;
    }

    private void checkSize(Variable t, long max, String name) throws MetadataException {
        if (t.getSize() > max) {
            throw new MetadataException(
                    location,
                    t.getFullName(),
                    name,
                    "the aggregation variable " + t.getFullName()
                            + " has " + t.getSize() + " elements, more than " + max + " (" + FragmentGrid.MAX_FRAGMENTS
                            + " fragments at most)",
                    null);
        }
    }

    /** The rows of the map variable without their padding (missing values). */
    private long[][] mapRows(Variable map, int rank, String name) throws IOException {
        if (rank == 0) {
            return new long[0][];
        }
        checkSize(map, FragmentGrid.MAX_FRAGMENTS, name);
        int[] shape = map.getShape();
        int rows = shape.length == 1 ? 1 : shape.length == 2 ? shape[0] : -1;
        if (rows != rank || !map.getDataType().isIntegral()) {
            throw new MetadataException(
                    location,
                    map.getFullName(),
                    name,
                    "the map variable must be an integer array"
                            + " with one row per aggregated dimension (" + rank + "), not " + map.getDataType()
                            + " of shape "
                            + Arrays.toString(shape),
                    null);
        }
        Set<Long> missing = new HashSet<>();
        for (String a : new String[] {"_FillValue", "missing_value"}) {
            Attribute at = map.findAttribute(a);
            if (at != null && (at.getDataType().isNumeric())) {
                missing.add(at.getNumericValue().longValue());
            }
        }
        missing.add(defaultFill(map.getDataType()));
        Array a = map.read();
        int cols = shape.length == 1 ? shape[0] : shape[1];
        long[][] out = new long[rank][];
        IndexIterator it = a.getIndexIterator();
        for (int r = 0; r < rank; r++) {
            List<Long> row = new ArrayList<>();
            for (int c = 0; c < cols; c++) {
                long x = it.getLongNext();
                if (!missing.contains(x)) {
                    row.add(x);
                }
            }
            out[r] = row.stream().mapToLong(Long::longValue).toArray();
        }
        return out;
    }

    /** netCDF's default fill value of an integer type. */
    private static long defaultFill(DataType t) {
        switch (t) {
            case BYTE:
                return N3iosp.NC_FILL_BYTE;
            case SHORT:
                return N3iosp.NC_FILL_SHORT;
            case LONG:
                return N3iosp.NC_FILL_INT64;
            default:
                return N3iosp.NC_FILL_INT;
        }
    }

    /** A per-fragment variable must have the grid's shape (size-1 dimensions aside). */
    private void checkGridShape(Variable t, int[] grid, String name, String term) throws MetadataException {
        int[] s = t.getShape();
        if (t.getDataType() == DataType.CHAR && s.length > 0) {
            s = Arrays.copyOf(s, s.length - 1);
        }
        if (!Arrays.equals(squeeze(s), squeeze(grid))) {
            throw new MetadataException(
                    location,
                    t.getFullName(),
                    name,
                    "the " + term + " variable has the shape " + Arrays.toString(s) + ", not the fragment grid "
                            + Arrays.toString(grid),
                    null);
        }
    }

    private static int[] squeeze(int[] s) {
        return Arrays.stream(s).filter(x -> x != 1).toArray();
    }

    /** The strings of a string or char variable, row-major ({@code null} for an empty one). */
    private List<String> strings(Variable t) throws IOException {
        checkSize(t, FragmentGrid.MAX_FRAGMENTS * 4096L, t.getFullName());
        Array a = t.read();
        List<String> out = new ArrayList<>();
        if (t.getDataType() == DataType.CHAR) {
            ArrayChar c = (ArrayChar) a;
            if (c.getRank() <= 1) {
                out.add(empty(c.getString()));
            } else {
                ArrayChar.StringIterator it = c.getStringIterator();
                while (it.hasNext()) {
                    out.add(empty(it.next()));
                }
            }
        } else if (t.getDataType() == DataType.STRING) {
            IndexIterator it = a.getIndexIterator();
            while (it.hasNext()) {
                Object o = it.getObjectNext();
                out.add(o == null ? null : empty(o.toString()));
            }
        } else {
            throw new MetadataException(
                    location,
                    t.getFullName(),
                    null,
                    "the variable " + t.getFullName() + " must hold strings, not " + t.getDataType(),
                    null);
        }
        return out;
    }

    private static String empty(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    private Aggregation cfa05(Variable v, String name, List<String> names, long[] lengths, Set<Group> hiddenGroups)
            throws IOException {
        String gname = text(v, "cfa_group");
        Group g = v.getParentGroup().findGroup(gname);
        if (g == null) {
            g = source.getRootGroup().findGroup(gname);
        }
        if (g == null) {
            throw new MetadataException(
                    location, "cfa_group", name, "the CFA-0.5 group '" + gname + "' does not exist", null);
        }
        hiddenGroups.add(g);
        int rank = names.size();
        long[] pmshape = longs(g, "pmshape", name);
        long cells = 1;
        for (long p : pmshape) {
            cells *= Math.max(p, 0);
            if (cells > FragmentGrid.MAX_FRAGMENTS) {
                throw new MetadataException(
                        location,
                        g.getFullName(),
                        name,
                        "the partition matrix " + Arrays.toString(pmshape) + " has more than "
                                + FragmentGrid.MAX_FRAGMENTS + " partitions",
                        null);
            }
        }
        long[] index = longs(g, "index", name);
        long[] loc = longs(g, "location", name);
        long[] shape = g.findVariable("shape") == null ? null : longs(g, "shape", name);
        List<String> file = strings(need(g, "file", name));
        Variable ncv = g.findVariable("ncvar");
        List<String> ncvar = ncv == null ? null : strings(ncv);
        Variable fmt = g.findVariable("format");
        List<String> format = fmt == null ? null : strings(fmt);
        if (index.length != cells * rank
                || loc.length != cells * rank * 2
                || file.size() != cells
                || (shape != null && shape.length != cells * rank)) {
            throw new MetadataException(
                    location,
                    g.getFullName(),
                    name,
                    "the partition matrix variables do not have the" + " shape pmshape " + Arrays.toString(pmshape)
                            + " (x " + rank + " dimensions)",
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

    private Variable need(Group g, String n, String name) throws MetadataException {
        Variable t = g.findVariable(n);
        if (t == null) {
            throw new MetadataException(
                    location, g.getFullName(), name, "the CFA-0.5 group has no variable '" + n + "'", null);
        }
        return t;
    }

    private long[] longs(Group g, String n, String name) throws IOException {
        Variable t = need(g, n, name);
        checkSize(t, FragmentGrid.MAX_FRAGMENTS * 64L, name);
        if (!t.getDataType().isIntegral()) {
            throw new MetadataException(
                    location, t.getFullName(), name, "must be integers, not " + t.getDataType(), null);
        }
        return (long[]) t.read().get1DJavaArray(long.class);
    }

    // ---------------------------------------------------------------------------------------------
    // reading
    // ---------------------------------------------------------------------------------------------

    @Override
    public Array readData(Variable v, Section section) throws IOException, InvalidRangeException {
        try {
            Object sp = v.getSPobject();
            if (sp instanceof Variable sv) {
                synchronized (source) { // netCDF-Java's readers are not thread safe
                    return sv.read(section);
                }
            }
            return read(v, (AggVar) sp, section);
        } catch (RuntimeException e) {
            throw Guard.unexpected(location, v.getFullName(), e);
        }
    }

    private Array read(Variable v, AggVar av, Section section) throws IOException, InvalidRangeException {
        Section s = Section.fill(section, v.getShape());
        String outOfRange = s.checkInRange(v.getShape());
        if (outOfRange != null) {
            throw new InvalidRangeException(location + ": variable '" + v.getFullName() + "': " + outOfRange);
        }
        long bytes = s.computeSize() * Math.max(1, v.getDataType().getSize());
        int rank = s.getRank();
        long[] origin = new long[rank];
        long[] count = new long[rank];
        long[] stride = new long[rank];
        for (int d = 0; d < rank; d++) {
            Range r = s.getRange(d);
            origin[d] = r.first();
            count[d] = r.length();
            stride[d] = r.stride();
        }
        // the plan (one piece per fragment touched) counts too: a read of a million fragments is refused before it
        long pieceCount = av.aggregation().grid().pieceCount(origin, count, stride);
        bytes = pieceCount > (Long.MAX_VALUE / 2 - bytes) / FragmentGrid.PLAN_BYTES_PER_PIECE
                ? Long.MAX_VALUE
                : bytes + pieceCount * FragmentGrid.PLAN_BYTES_PER_PIECE;
        if (bytes > options.limits().maxReadBytes()) {
            throw new LimitExceededException(
                    location,
                    null,
                    v.getFullName(),
                    "the section " + s + " (" + pieceCount + " fragment pieces)",
                    bytes,
                    NcZarrOptions.MAX_READ_BYTES,
                    options.limits().maxReadBytes(),
                    null);
        }
        Array result = Array.factory(av.values().type(), s.getShape());
        List<FragmentGrid.Piece> pieces = av.aggregation().grid().plan(origin, count, stride);
        if (pieces.size() == 1) {
            readPiece(v, av, pieces.get(0), result);
            return result;
        }
        ExecutorService pool = options.readPool().fragmentPool();
        List<Future<Void>> futures = new ArrayList<>();
        for (FragmentGrid.Piece p : pieces) {
            futures.add(pool.submit(() -> {
                readPiece(v, av, p, result);
                return null;
            }));
        }
        try {
            for (Future<Void> f : futures) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            futures.forEach(f -> f.cancel(true));
            throw new java.io.InterruptedIOException("interrupted while reading " + v.getFullName());
        } catch (ExecutionException e) {
            futures.forEach(f -> f.cancel(true));
            Throwable c = e.getCause();
            if (c instanceof IOException io) {
                throw io;
            }
            if (c instanceof InvalidRangeException ir) {
                throw ir;
            }
            throw Guard.unexpected(
                    location, v.getFullName(), c instanceof RuntimeException r ? r : new IllegalStateException(c));
        }
        return result;
    }

    private void readPiece(Variable v, AggVar av, FragmentGrid.Piece p, Array result)
            throws IOException, InvalidRangeException {
        Aggregation agg = av.aggregation();
        Fragment f = agg.fragment(p.position());
        int rank = p.count().length;
        int[] shape = new int[rank];
        List<Range> target = new ArrayList<>();
        for (int d = 0; d < rank; d++) {
            shape[d] = (int) p.count()[d];
            target.add(new Range((int) p.target()[d], (int) (p.target()[d] + p.count()[d] - 1)));
        }
        Array values;
        if (!f.hasFile()) {
            values = Array.factory(av.values().type(), shape);
            IndexIterator it = values.getIndexIterator();
            Object u = f.uniqueValue();
            while (it.hasNext()) {
                if (u instanceof Number n) {
                    it.setDoubleNext(n.doubleValue());
                } else {
                    it.setObjectNext(u);
                }
            }
        } else {
            values = readFragment(v, av, f, p, shape);
        }
        MAMath.copy(result.sectionNoReduce(target), values);
    }

    private Array readFragment(Variable v, AggVar av, Fragment f, FragmentGrid.Piece p, int[] shape)
            throws IOException, InvalidRangeException {
        String name = v.getFullName();
        FragmentUris.Resolved r = sources.resolve(f, name);
        FragmentFiles.Handle h = files.acquire(r);
        boolean failed = true;
        try {
            NetcdfFile nc;
            try {
                nc = h.file();
            } catch (TargetRefusedException e) {
                throw e.dataset() == null ? e.withContext(location, f.key(), name) : e;
            } catch (IOException e) {
                throw new NcZarrException(location, f.key(), name, "cannot open the fragment: " + e.getMessage(), e);
            }
            String id = f.identifier();
            Variable fv = id == null ? null : nc.findVariable(id.startsWith("/") ? id.substring(1) : id);
            if (fv == null) {
                throw new MetadataException(location, f.key(), name, "the fragment has no variable '" + id + "'", null);
            }
            if (isAggregationVariable(fv)) {
                throw new UnsupportedFeatureException(
                        location,
                        f.key(),
                        name,
                        "nested aggregations",
                        "the fragment variable '" + id + "' is itself an aggregation variable",
                        null);
            }
            long[] expected = agg(av).grid().fragmentShape(p.position());
            int[] fshape = fv.getShape();
            checkDimensionOrder(fv, agg(av).dimensions(), f, name);
            List<Integer> aggDims = new ArrayList<>();
            for (int d = 0; d < expected.length; d++) {
                if (expected[d] != 1) {
                    aggDims.add(d);
                }
            }
            List<Range> ranges = new ArrayList<>();
            int k = 0;
            boolean ok = true;
            for (int j = 0; j < fshape.length && ok; j++) {
                if (fshape[j] == 1) {
                    ranges.add(new Range(0, 0));
                } else if (k < aggDims.size() && expected[aggDims.get(k)] == fshape[j]) {
                    int d = aggDims.get(k++);
                    long o = p.origin()[d];
                    long c = p.count()[d];
                    long st = p.stride()[d];
                    ranges.add(new Range((int) o, (int) (o + (c - 1) * st), (int) st));
                } else {
                    ok = false;
                }
            }
            if (!ok || k != aggDims.size()) {
                throw new MetadataException(
                        location,
                        f.key(),
                        name,
                        "the fragment variable '" + id + "' has the shape "
                                + Arrays.toString(fshape) + ", but the map gives the fragment the shape "
                                + Arrays.toString(expected),
                        null);
            }
            Array raw;
            synchronized (h) { // one read at a time per fragment file (netCDF-Java's readers are not thread safe)
                raw = fv.read(ranges);
            }
            Array canonical;
            try {
                canonical = av.values().canonical(fv, raw);
            } catch (UnsupportedFeatureException e) {
                throw new UnsupportedFeatureException(location, f.key(), name, e.feature(), e.detail(), null);
            }
            failed = false;
            return canonical.reshape(shape);
        } catch (NcZarrException e) {
            throw e.dataset() == null ? e.withContext(location, f.key(), name) : e;
        } catch (IOException e) {
            throw new NcZarrException(location, f.key(), name, "cannot read the fragment: " + e.getMessage(), e);
        } finally {
            files.release(h, failed);
        }
    }

    /**
     * Fragment dimensions are taken in the aggregation's order (CF 2.8.2 canonical form); when the
     * fragment names its dimensions as the aggregation does, but in another order, reading would
     * transpose the data, so it is refused.
     */
    private void checkDimensionOrder(Variable fv, List<String> aggregated, Fragment f, String name)
            throws UnsupportedFeatureException {
        int last = -1;
        for (Dimension d : fv.getDimensions()) {
            int at = d.getShortName() == null || d.getLength() == 1 ? -1 : aggregated.indexOf(d.getShortName());
            if (at < 0) {
                continue;
            }
            if (at < last) {
                throw new UnsupportedFeatureException(
                        location,
                        f.key(),
                        name,
                        "fragment dimension order",
                        "the fragment variable's dimensions " + fv.getDimensionsString()
                                + " are in another order than the aggregated dimensions " + aggregated,
                        null);
            }
            last = at;
        }
    }

    private static Aggregation agg(AggVar av) {
        return av.aggregation();
    }

    @Override
    public Object sendIospMessage(Object message) {
        if (MESSAGE_FRAGMENT_COUNTS.equals(message)) {
            return files.counts();
        }
        return source.sendIospMessage(message);
    }

    @Override
    public void close() throws IOException {
        try {
            files.close();
        } finally {
            source.close();
        }
    }

    @Override
    public String getFileTypeId() {
        return "Aggregation";
    }

    @Override
    public String getFileTypeDescription() {
        return "CF-1.13 / CFA aggregation over " + source.getFileTypeId();
    }

    @Override
    public String getFileTypeVersion() {
        return source.getFileTypeVersion();
    }
}
