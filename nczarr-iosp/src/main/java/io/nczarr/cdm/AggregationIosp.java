package io.nczarr.cdm;

import io.nczarr.aggregation.AggregatedVariable;
import io.nczarr.aggregation.Aggregation;
import io.nczarr.aggregation.AggregationDocument;
import io.nczarr.aggregation.AggregationParser;
import io.nczarr.aggregation.FragmentCache;
import io.nczarr.aggregation.FragmentReads;
import io.nczarr.aggregation.FragmentSources;
import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.model.Attr;
import io.nczarr.model.NcType;
import io.nczarr.open.NcZarrOptions;
import io.nczarr.read.ArraySection;
import io.nczarr.read.TypedArray;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import ucar.ma2.Array;
import ucar.ma2.InvalidRangeException;
import ucar.ma2.Range;
import ucar.ma2.Section;
import ucar.nc2.Attribute;
import ucar.nc2.Dimension;
import ucar.nc2.Group;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Structure;
import ucar.nc2.Variable;
import ucar.nc2.iosp.AbstractIOServiceProvider;
import ucar.nc2.util.CancelTask;
import ucar.unidata.io.RandomAccessFile;

/**
 * An aggregation file (CF-1.13 aggregation variables, S3netCDF4 CFA-0.4/0.5 master arrays) as an ordinary
 * NetcdfFile: the netCDF-Java binding of the core's aggregation reading ({@link AggregationParser}, {@link
 * AggregatedVariable}). Each aggregation variable has its aggregated dimensions and reads from the fragments it
 * touches; the bookkeeping (map, uris, identifiers, unique_values variables and the dimensions only they use, CFA
 * {@code cfa_*} groups and attributes) is hidden. Every other variable reads from the aggregation file. Opened by
 * {@link NcZarrFiles}; {@code nczarr.aggregation.raw=true} shows the file as it is.
 */
final class AggregationIosp extends AbstractIOServiceProvider {
    /** {@code sendIospMessage} returns {@code long[] {fragment files opened, closed, open now}}. */
    static final String MESSAGE_FRAGMENT_COUNTS = "nczarr.aggregation.fragmentCounts";

    private final NetcdfFile source;
    private final String location;
    private final NcZarrOptions options;
    private final FragmentCache files;
    private final FragmentReads reads;
    /** The aggregated dimensions (in the aggregation file) of each aggregation variable. */
    private final Map<Aggregation, List<Dimension>> aggDimensions = new IdentityHashMap<>();

    AggregationIosp(NetcdfFile source, String location, NcZarrOptions options) throws IOException {
        this.source = source;
        this.location = location;
        this.options = options;
        FragmentSources sources = new FragmentSources(location, options.trust(), CdmFragments.opener(options));
        this.files = new FragmentCache(sources::open, options.aggregation().maxOpenFragments());
        this.reads = new FragmentReads(sources, files, options.readPool().fragmentPool(), options.limits());
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
        return AggregationParser.isAggregationVariable(attrs(v.getAttributes()));
    }

    private static List<Attr> attrs(List<Attribute> attributes) {
        List<Attr> out = new ArrayList<>();
        for (Attribute a : attributes) {
            Attr x = CdmVariableReader.attr(a);
            if (x != null) {
                out.add(x);
            }
        }
        return out;
    }

    @Override
    public boolean isValidFile(RandomAccessFile raf) {
        return false; // only built by NcZarrFiles
    }

    @Override
    public void open(RandomAccessFile raf, NetcdfFile ncfile, CancelTask cancelTask) throws IOException {
        AggregationDocument doc = CdmFragments.document(source, location);
        AggregationParser parser = new AggregationParser(doc, options.limits());
        Map<Variable, Aggregation> aggregations = new HashMap<>();
        for (Variable v : source.getVariables()) {
            if (isAggregationVariable(v)) {
                Aggregation a =
                        parser.parse("/" + v.getFullName(), doc.variables().get("/" + v.getFullName()));
                List<Dimension> dims = new ArrayList<>();
                for (String n : a.dimensions()) {
                    dims.add(v.getParentGroup().findDimension(n));
                }
                aggDimensions.put(a, dims);
                aggregations.put(v, a);
            }
        }
        Set<Variable> hiddenVars = new HashSet<>();
        for (String p : parser.hiddenVariables()) {
            hiddenVars.add(source.findVariable(p.substring(1)));
        }
        Set<Group> hiddenGroups = new HashSet<>();
        for (String p : parser.hiddenGroups()) {
            hiddenGroups.add(source.findGroup(p.substring(1)));
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
            for (Dimension d : aggDimensions.get(a)) {
                hiddenDims.remove(d);
            }
        }
        copyGroups(source.getRootGroup(), ncfile.getRootGroup(), ncfile, hiddenGroups, hiddenDims);
        copyVariables(source.getRootGroup(), ncfile.getRootGroup(), ncfile, hiddenGroups, hiddenVars, aggregations);
        ncfile.finish();
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
            List<Dimension> from = a != null ? aggDimensions.get(a) : sv.getDimensions();
            for (Dimension d : from) {
                Dimension nd = d.isShared() ? dst.findDimension(d.getShortName()) : null;
                dims.add(nd != null ? nd : new Dimension(null, d.getLength(), false));
            }
            v.setDimensions(dims);
            List<Attribute> shown = new ArrayList<>();
            for (Attribute at : sv.getAttributes()) {
                Attr x = a == null ? null : CdmVariableReader.attr(at);
                if (x == null || !AggregationParser.isBookkeeping(x)) {
                    v.addAttribute(at);
                    shown.add(at);
                }
            }
            if (a != null) {
                NcType t = CdmVariableReader.ncType(sv.getDataType(), sv.isUnsigned());
                if (t == null) {
                    throw new UnsupportedFeatureException(
                            location,
                            null,
                            sv.getFullName(),
                            "aggregation of type " + sv.getDataType(),
                            "the aggregation variable has the type " + sv.getDataType(),
                            null);
                }
                v.setSPobject(new AggregatedVariable(
                        "/" + sv.getFullName(), a, t, attrs(shown), CdmFragments.UDUNITS, reads));
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

    @Override
    public Array readData(Variable v, Section section) throws IOException, InvalidRangeException {
        try {
            Object sp = v.getSPobject();
            if (sp instanceof Variable sv) {
                synchronized (source) { // netCDF-Java's readers are not thread safe
                    return sv.read(section);
                }
            }
            return read(v, (AggregatedVariable) sp, section);
        } catch (RuntimeException e) {
            throw Guard.unexpected(location, v.getFullName(), e);
        }
    }

    private Array read(Variable v, AggregatedVariable av, Section section) throws IOException, InvalidRangeException {
        Section s = Section.fill(section, v.getShape());
        String outOfRange = s.checkInRange(v.getShape());
        if (outOfRange != null) {
            throw new InvalidRangeException(location + ": variable '" + v.getFullName() + "': " + outOfRange);
        }
        int rank = s.getRank();
        long[] origin = new long[rank];
        int[] count = new int[rank];
        int[] stride = new int[rank];
        for (int d = 0; d < rank; d++) {
            Range r = s.getRange(d);
            origin[d] = r.first();
            count[d] = r.length();
            stride[d] = r.stride();
        }
        TypedArray data = av.read(new ArraySection(origin, count, stride));
        if (!Arrays.equals(data.shape(), s.getShape())) {
            throw new IllegalStateException("read " + Arrays.toString(data.shape()) + " for " + s);
        }
        return CdmValues.array(data.type(), s.getShape(), data.storage());
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
