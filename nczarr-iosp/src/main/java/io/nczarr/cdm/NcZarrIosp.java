package io.nczarr.cdm;

import io.nczarr.chunk.ReadProgress;
import io.nczarr.error.NcZarrException;
import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.model.Attr;
import io.nczarr.model.DatasetModel;
import io.nczarr.model.Dim;
import io.nczarr.model.GroupModel;
import io.nczarr.model.NcType;
import io.nczarr.model.VarModel;
import io.nczarr.open.Datasets;
import io.nczarr.open.NcZarrOptions;
import io.nczarr.open.OpenDataset;
import io.nczarr.read.ArraySection;
import io.nczarr.read.TypedArray;
import io.nczarr.read.ZarrVariableReader;
import io.nczarr.store.PoolFailures;
import io.nczarr.store.StoreKeys;
import io.nczarr.store.Stores;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
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
 * The netCDF-Java IOServiceProvider for NCZarr and Zarr v2. Built by {@link NcZarrFiles} with a
 * store already open, or by ServiceLoader when {@code NetcdfFile.open} is given a store's root
 * {@code .zgroup} (v3: {@code zarr.json}) or a zip file (the only forms cdm 4.5.5 routes to a plugin).
 */
public class NcZarrIosp extends AbstractIOServiceProvider {

    /**
     * {@code sendIospMessage(MESSAGE_MODEL)} returns the {@link DatasetModel};
     * {@code sendIospMessage(ReadProgress)} reports chunk completion of every later read.
     */
    public static final String MESSAGE_MODEL = "nczarr.model";

    private OpenDataset dataset;
    private DatasetModel model;
    // not copy-on-write: a group of 50,000 arrays adds 50,000 readers
    private final Queue<ZarrVariableReader> readers = new ConcurrentLinkedQueue<>();

    /** For ServiceLoader: opens with {@link NcZarrOptions#shared()}. */
    public NcZarrIosp() {}

    NcZarrIosp(OpenDataset dataset) {
        this.dataset = dataset;
        this.model = dataset.model();
    }

    @Override
    public boolean isValidFile(RandomAccessFile raf) {
        String loc = raf.getLocation();
        if (loc == null) {
            return false;
        }
        Path p = localPath(loc);
        if (p == null) {
            return false;
        }
        Path file = p.getFileName();
        String name = file == null ? "" : file.toString();
        if (Stores.isRootMarker(name)) {
            return true;
        }
        return Stores.isZarrZip(p);
    }

    private static Path localPath(String loc) {
        try {
            String s =
                    loc.startsWith("file:") ? DatasetUrl.parse(loc).localPath().toString() : loc;
            return Paths.get(s);
        } catch (RuntimeException e) {
            return null;
        }
    }

    @Override
    public void open(RandomAccessFile raf, NetcdfFile ncfile, CancelTask cancelTask) throws IOException {
        this.raf = raf;
        try {
            if (dataset == null) {
                // reached through NetcdfFile.open(".../.zgroup" or "x.zip"): open the store ourselves
                dataset = Datasets.open(Datasets.parse(raf.getLocation()), NcZarrOptions.shared());
                model = dataset.model();
            }
            new CdmBuilder(ncfile).build(model.root());
            ncfile.finish();
            DefaultFills.registerForDatasetOpen();
        } catch (RuntimeException e) {
            throw Guard.unexpected(location(), null, e);
        } catch (OutOfMemoryError e) {
            // the netCDF-Java objects of a large hierarchy did not fit the heap
            NcZarrOptions o = dataset != null ? dataset.options() : NcZarrOptions.shared();
            throw PoolFailures.outOfMemory(
                    location(), null, null, "building the objects", o.limits().metadata(), e);
        }
    }

    /** The dataset for error messages: the store's (credential-free) location once it is open. */
    private String location() {
        return model != null ? model.location() : raf == null ? null : raf.getLocation();
    }

    /** Builds the CDM objects from the model. */
    private final class CdmBuilder {
        private final NetcdfFile ncfile;
        private final Map<String, Dimension> dims = new HashMap<>();
        /** per group, the cdm names taken, prefixed by kind: 'd'imension, 'g'roup, 'v'ariable */
        private final Map<Group, Set<String>> taken = new IdentityHashMap<>();

        CdmBuilder(NetcdfFile ncfile) {
            this.ncfile = ncfile;
        }

        void build(GroupModel root) throws IOException {
            Group g = ncfile.getRootGroup();
            addDimensions(root, g);
            fill(root, g);
        }

        private void addDimensions(GroupModel gm, Group g) throws IOException {
            for (Dim d : gm.dimensions()) {
                String path = childPath(gm, d.name());
                if (d.length() > Integer.MAX_VALUE) {
                    throw new UnsupportedFeatureException(
                            model.location(),
                            groupKey(gm),
                            null,
                            "dimensions of 2^31 or more",
                            "dimension " + path + " of length " + d.length() + " is longer than netCDF-Java allows",
                            null);
                }
                // cdm 4.5.5 only allows a zero length on an unlimited dimension
                boolean unlimited = d.unlimited() || d.length() == 0;
                refuseMerged(g, 'd', groupKey(gm), "dimension " + path, d.name());
                Dimension dim;
                try {
                    dim = new Dimension(d.name(), (int) d.length(), true, unlimited, false);
                    CdmGroup.addDimension(g, dim);
                } catch (RuntimeException e) {
                    throw cdmRefused(groupKey(gm), "dimension " + path, e);
                }
                dims.put(path, dim);
            }
            for (GroupModel c : gm.groups()) {
                refuseMerged(g, 'g', groupKey(c), "group " + c.path(), c.name());
                Group cg;
                try {
                    cg = new CdmGroup(ncfile, g, c.name());
                    g.addGroup(cg);
                } catch (RuntimeException e) {
                    throw cdmRefused(groupKey(c), "group " + c.path(), e);
                }
                addDimensions(c, cg);
            }
        }

        private void fill(GroupModel gm, Group g) throws IOException {
            try {
                for (Attr a : gm.attributes()) {
                    g.addAttribute(CdmValues.attribute(a));
                }
            } catch (RuntimeException e) {
                throw cdmRefused(groupKey(gm), "the attributes of group " + gm.path(), e);
            }
            for (VarModel vm : gm.variables()) {
                String key = StoreKeys.join(vm.key(), ".zarray");
                refuseMerged(g, 'v', key, "variable " + childPath(gm, vm.name()), vm.name());
                Variable v;
                try {
                    v = variable(g, vm);
                } catch (RuntimeException e) {
                    throw cdmRefused(key, "variable " + childPath(gm, vm.name()), e);
                }
                ZarrVariableReader reader = dataset.typed(childPath(gm, vm.name()), vm);
                // an unknown codec or a bad codec parameter does not fail the open: the variable
                // stays, and reading it fails naming the dataset, the variable and the codec
                v.setSPobject(reader);
                readers.add(reader);
                try {
                    CdmGroup.addVariable(g, v);
                } catch (RuntimeException e) {
                    throw cdmRefused(key, "variable " + childPath(gm, vm.name()), e);
                }
            }
            int i = 0;
            for (GroupModel c : gm.groups()) {
                fill(c, g.getGroups().get(i++));
            }
        }

        private Variable variable(Group g, VarModel vm) {
            boolean records = vm.type() == NcType.STRUCTURE;
            Variable v = records ? new Structure(ncfile, g, null, vm.name()) : new Variable(ncfile, g, null, vm.name());
            v.setDataType(CdmValues.dataType(vm.type()));
            List<Dimension> vd = new ArrayList<>();
            for (String path : vm.dimensions()) {
                vd.add(dims.get(path));
            }
            v.setDimensions(vd);
            if (records) {
                CdmStructures.addMembers(ncfile, g, (Structure) v, vm.element().compound());
            }
            if (!fitsOneArray(vm.shape())) {
                // cdm 4.5.5 decides whether to cache the whole variable from its size in bytes, which
                // overflows for such shapes: every read would then try to read all of it
                v.setCaching(false);
            }
            for (Attr a : vm.attributes()) {
                v.addAttribute(CdmValues.variableAttribute(a, vm.type()));
            }
            if (vm.type().isUnsigned()) {
                v.addAttribute(new Attribute(CdmValues.UNSIGNED, "true"));
            }
            if (!vm.isScalar() && vm.array().edges() == null) {
                // a rectilinear grid has no one chunk shape to report
                v.addAttribute(new Attribute(
                        CdmValues.CHUNK_SIZES, Array.factory(vm.array().chunks().clone())));
            }
            return v;
        }

        /**
         * cdm 4.5.5 turns blanks in names into underscores ({@code "a b"} is {@code "a_b"}), so two
         * names netCDF keeps apart can meet in one group. Looked up in a set: cdm's own lookups walk
         * lists, which made an open of many variables quadratic.
         */
        private void refuseMerged(Group g, char kind, String key, String object, String name)
                throws UnsupportedFeatureException {
            Set<String> names = taken.get(g);
            if (names == null) {
                names = new HashSet<>();
                taken.put(g, names);
            }
            if (!names.add(kind + cdmName(name))) {
                throw new UnsupportedFeatureException(
                        model.location(),
                        key,
                        null,
                        "names that netCDF-Java makes equal",
                        object + " is named '" + cdmName(name)
                                + "' in netCDF-Java, a name its group already has for another object",
                        null);
            }
        }

        /**
         * cdm refuses what it cannot represent (a duplicate name, say) with a RuntimeException, which
         * becomes the project's exception naming the object.
         */
        private NcZarrException cdmRefused(String key, String object, RuntimeException e) {
            return Guard.cdmRefused(model.location(), key, object, e);
        }
    }

    /** The name netCDF-Java gives an object called {@code name}. */
    private static String cdmName(String name) {
        return NetcdfFile.makeValidCdmObjectName(name);
    }

    /** Whether a variable of this shape could be read whole into one Java array. */
    private static boolean fitsOneArray(long[] shape) {
        long n = 1;
        for (long len : shape) {
            if (len != 0 && n > (Integer.MAX_VALUE - 8) / len) {
                return false;
            }
            n *= len;
        }
        return true;
    }

    private static String childPath(GroupModel g, String name) {
        return g.path().equals("/") ? "/" + name : g.path() + "/" + name;
    }

    private static String groupKey(GroupModel g) {
        return StoreKeys.join(g.key(), ".zgroup");
    }

    @Override
    public Array readData(Variable v2, Section section) throws IOException, InvalidRangeException {
        try {
            return read(v2, section);
        } catch (RuntimeException e) {
            throw Guard.unexpected(location(), v2.getFullName(), e);
        } catch (OutOfMemoryError e) {
            // here or in a decode thread: the read's chunks did not fit the heap
            throw PoolFailures.outOfMemory(
                    location(),
                    null,
                    v2.getFullName(),
                    "the read",
                    dataset.options().limits().chunk(),
                    e);
        }
    }

    private Array read(Variable v2, Section section) throws IOException, InvalidRangeException {
        ZarrVariableReader reader = (ZarrVariableReader) v2.getSPobject();
        Section s;
        try {
            s = Section.fill(section, v2.getShape());
            String outOfRange = s.checkInRange(v2.getShape());
            if (outOfRange != null) {
                throw new InvalidRangeException(outOfRange);
            }
        } catch (InvalidRangeException e) {
            throw new InvalidRangeException(model.location() + ": variable '" + v2.getFullName() + "': section "
                    + section + " is outside the shape " + Arrays.toString(v2.getShape()) + ": " + e.getMessage());
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
        TypedArray data = reader.read(new ArraySection(origin, count, stride));
        VarModel vm = reader.variable();
        if (vm.type() == NcType.STRUCTURE) {
            return CdmStructures.array((Structure) v2, vm.element().compound(), s.getShape(), data.bytes());
        }
        return CdmValues.array(vm.type(), s.getShape(), data.storage());
    }

    @Override
    public Object sendIospMessage(Object message) {
        if (MESSAGE_MODEL.equals(message)) {
            return model;
        }
        if (message instanceof ReadProgress p) {
            readers.forEach(r -> r.setProgress(p));
            return Boolean.TRUE;
        }
        return super.sendIospMessage(message);
    }

    @Override
    public void close() throws IOException {
        try {
            if (dataset != null) {
                dataset.close();
            }
        } finally {
            super.close();
        }
    }

    @Override
    public String getFileTypeId() {
        return "NCZarr";
    }

    @Override
    public String getFileTypeDescription() {
        return "NCZarr / Zarr v2 (netcdf-c conventions)";
    }

    @Override
    public String getFileTypeVersion() {
        return model == null ? "" : model.conventions();
    }

    @Override
    public String getDetailInfo() {
        return model == null ? "" : "store: " + dataset.store() + "\nconventions: " + model.conventions() + "\n";
    }
}
