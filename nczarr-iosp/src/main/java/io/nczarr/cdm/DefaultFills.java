package io.nczarr.cdm;

import io.nczarr.model.Fills;
import io.nczarr.model.NcType;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.nc2.Attribute;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;
import ucar.nc2.dataset.CoordSysBuilder;
import ucar.nc2.dataset.NetcdfDataset;

/**
 * netCDF default fills as missing values in the CF enhancement. A numeric variable without {@code _FillValue}
 * holds the netCDF default fill of its type where nothing was written; netCDF4-python masks those values (bytes
 * included; checked with netCDF4-python 1.7.5.1 on the NCZarr itself), and so does netCDF-Java 5, but cdm 4.5.5's
 * {@code EnhanceScaleMissingImpl} only looks at a {@code _FillValue} attribute. So, in the {@link NetcdfDataset}
 * of one of our files, before cdm enhances it, such a variable is given its default fill as {@code _FillValue}
 * (unsigned ones in the wider signed type, as {@link CdmValues#variableAttribute} gives a stored one; uint64 has
 * none and is left alone). The raw {@code NetcdfFile} is unchanged.
 *
 * <p>cdm 4.5.5 has one hook that runs before the enhancement, the convention's {@code augmentDataset}: CF-1.x
 * datasets get {@link DefaultFillCFConvention} (registered by name, ahead of cdm's {@code CF1Convention}, which it
 * extends and which it is for every file that is not ours), datasets no convention claims get {@link
 * DefaultFillConvention} (a ServiceLoader entry cdm asks last). Registering loads cdm's convention table (about
 * 20 ms), so it happens only when a dataset is being opened: from {@link NcZarrFiles#openDataset}, {@link
 * NcZarrFiles#acquireDataset}, {@link NcZarrFiles#registerConventions}, or when our IOSP opens under {@code
 * NetcdfDataset} (cdm's {@code openDataset}/{@code acquireDataset}, as ToolsUI and THREDDS do).
 */
public final class DefaultFills {
    private static volatile boolean registered;

    private DefaultFills() {}

    /** Registers {@link DefaultFillCFConvention} for CF-1.x datasets, once per class loader. */
    static void register() {
        if (registered) {
            return;
        }
        synchronized (DefaultFills.class) {
            if (!registered) {
                CoordSysBuilder.registerConvention("CF-1.", DefaultFillCFConvention.class, DefaultFills::isCfName);
                registered = true;
            }
        }
    }

    /** {@link #register()} if a {@code NetcdfDataset} is on the calling stack (a dataset open, not a file open). */
    static void registerForDatasetOpen() {
        if (!registered && onStack(NETCDF_DATASET)) {
            register();
        }
    }

    /** By name: the class constant would load {@code NetcdfDataset} at every file open. */
    private static final String NETCDF_DATASET = "ucar.nc2.dataset.NetcdfDataset";

    /**
     * Whether a method of class {@code name} is on the calling stack (a plain loop over the stack: a {@code
     * StackWalker} stream with its lambdas cost a few ms of class loading at a process's first open).
     */
    private static boolean onStack(String name) {
        for (StackTraceElement f : new Throwable().getStackTrace()) {
            if (name.equals(f.getClassName())) {
                return true;
            }
        }
        return false;
    }

    /** cdm's own rule for CF names: the whole attribute or one of its parts starts with {@code CF-1.}. */
    private static boolean isCfName(String conventions, String wanted) {
        if (conventions.startsWith(wanted)) {
            return true;
        }
        return CoordSysBuilder.breakupConventionNames(conventions).stream().anyMatch(c -> c.startsWith(wanted));
    }

    /** Whether a file (or the file under a dataset) was opened by our IOSPs. */
    static boolean isOurs(NetcdfFile file) {
        NetcdfFile f = file;
        while (f instanceof NetcdfDataset ds && ds.getReferencedFile() != null) {
            f = ds.getReferencedFile();
        }
        return f.getIosp() instanceof NcZarrIosp || f.getIosp() instanceof AggregationIosp;
    }

    /** Gives every numeric variable of one of our datasets without {@code _FillValue} its default fill. */
    static void addTo(NetcdfDataset ds) {
        if (!isOurs(ds)) {
            return;
        }
        for (Variable v : ds.getVariables()) {
            if (v.findAttribute("_FillValue") == null) {
                Array fill = defaultFill(CdmFills.type(v));
                if (fill != null) {
                    v.addAttribute(new Attribute("_FillValue", fill));
                }
            }
        }
    }

    /** The default fill of a numeric type as cdm's enhancement compares it; {@code null} for none. */
    static Array defaultFill(NcType type) {
        if (type == null || type == NcType.UINT64) {
            return null;
        }
        Number n = Fills.defaultFill(type);
        switch (type) {
            case BYTE:
                return scalar(DataType.BYTE, new byte[] {n.byteValue()});
            case UBYTE:
            case SHORT:
                return scalar(DataType.SHORT, new short[] {n.shortValue()});
            case USHORT:
            case INT:
                return scalar(DataType.INT, new int[] {n.intValue()});
            case UINT:
            case INT64:
                return scalar(DataType.LONG, new long[] {n.longValue()});
            case FLOAT:
                return scalar(DataType.FLOAT, new float[] {n.floatValue()});
            case DOUBLE:
                return scalar(DataType.DOUBLE, new double[] {n.doubleValue()});
            default:
                return null;
        }
    }

    private static Array scalar(DataType type, Object storage) {
        return Array.factory(type, new int[] {1}, storage);
    }
}
