package io.nczarr.cdm;

import io.nczarr.model.ArrayMeta;
import io.nczarr.open.Datasets;
import io.nczarr.open.NcZarrOptions;
import io.nczarr.open.OpenDataset;
import io.nczarr.read.ZarrVariableReader;
import io.nczarr.store.MemoryStore;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.util.Map;
import ucar.ma2.Array;
import ucar.ma2.InvalidRangeException;
import ucar.ma2.Range;
import ucar.ma2.Section;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;
import ucar.nc2.dataset.NetcdfDataset;

/**
 * Runs one fuzz case through the whole reader as a netCDF-Java user sees it: an in-memory store,
 * the metadata layer, the IOSP building CDM objects, then reads of every variable (whole when it is
 * small enough, and its first element, last element and a strided section), and the small ones
 * again through cdm's CF enhancements.
 */
final class FuzzProbe {
    private FuzzProbe() {}

    /**
     * Variables up to this many elements and chunks are read whole. Bigger ones (a huge declared shape
     * is legal metadata) get the section reads only: allocating them is the memory budget's business,
     * not this test's.
     */
    static final long MAX_WHOLE_ELEMENTS = 1 << 20;

    static final long MAX_WHOLE_CHUNKS = 4096;

    /** Opens objects as a dataset named {@code location}, through the binding. */
    static NetcdfFile open(String location, Map<String, byte[]> objects, DatasetUrl.Format format, boolean xarray)
            throws IOException {
        MemoryStore store = new MemoryStore(location, objects);
        OpenDataset dataset = Datasets.open(store, format, xarray, NcZarrOptions.shared());
        return NcZarrFiles.open(dataset, location);
    }

    /** Opens and reads everything; any failure is classified by {@link FuzzOutcome#ofFailure}. */
    static FuzzOutcome openAndRead(
            String location, Map<String, byte[]> objects, DatasetUrl.Format format, boolean xarray) {
        try (NetcdfFile nc = open(location, objects, format, xarray)) {
            for (Variable v : nc.getVariables()) {
                String wrong = readEverything(v);
                if (wrong != null) {
                    return FuzzOutcome.escape("variable " + v.getFullName() + ": " + wrong);
                }
            }
            String wrong = readEnhanced(nc);
            if (wrong != null) {
                return FuzzOutcome.escape(wrong);
            }
            return FuzzOutcome.of(FuzzOutcome.Kind.OPENED_AND_READ);
        } catch (Throwable t) { // an Error (stack overflow, out of memory) is exactly what this looks for
            return FuzzOutcome.ofFailure(t, location, null);
        }
    }

    /**
     * What {@code NcZarrFiles.openDataset(url, true)} gives: cdm's CF enhancements (scale/offset,
     * missing values, coordinate systems) over whatever attributes the mutation left; the small
     * variables read through them (those read whole before).
     */
    private static String readEnhanced(NetcdfFile nc) throws IOException {
        NetcdfDataset ds = new NetcdfDataset(nc, true);
        for (Variable v : ds.getVariables()) {
            Variable plain = nc.findVariable(v.getFullNameEscaped());
            if (plain != null && isSmall(plain)) {
                String wrong = checkSize(v.read(), v.getSize(), "enhanced read");
                if (wrong != null) {
                    return "variable " + v.getFullName() + ": " + wrong;
                }
            }
        }
        return null;
    }

    /** Reads the variable in several ways; a description of a wrong result, or {@code null}. */
    private static String readEverything(Variable v) throws IOException, InvalidRangeException {
        int[] shape = v.getShape();
        if (isSmall(v)) {
            String wrong = checkSize(v.read(), v.getSize(), "whole read");
            if (wrong != null) {
                return wrong;
            }
        }
        for (int n : shape) {
            if (n == 0) {
                return null;
            }
        }
        int[] ones = new int[shape.length];
        java.util.Arrays.fill(ones, 1);
        int[] last = new int[shape.length];
        for (int d = 0; d < shape.length; d++) {
            last[d] = shape[d] - 1;
        }
        String wrong = checkSize(v.read(new int[shape.length], ones), 1, "first element");
        if (wrong == null) {
            wrong = checkSize(v.read(last, ones), 1, "last element");
        }
        if (wrong == null) {
            Section strided = strided(shape);
            wrong = checkSize(v.read(strided), strided.computeSize(), "section " + strided);
        }
        return wrong;
    }

    private static boolean isSmall(Variable v) {
        if (v.getSize() > MAX_WHOLE_ELEMENTS) {
            return false;
        }
        ArrayMeta a = ((ZarrVariableReader) v.getSPobject()).variable().array();
        long chunks = 1;
        for (int d = 0; d < a.shape().length; d++) {
            chunks *= Math.max(1, (a.shape()[d] + a.chunks()[d] - 1) / a.chunks()[d]);
            if (chunks > MAX_WHOLE_CHUNKS) {
                return false;
            }
        }
        return true;
    }

    /** About three indexes per dimension, evenly spaced. */
    private static Section strided(int[] shape) throws InvalidRangeException {
        Section s = new Section();
        for (int n : shape) {
            s.appendRange(new Range(0, n - 1, Math.max(1, n / 3)));
        }
        return s;
    }

    private static String checkSize(Array a, long expected, String what) {
        if (a == null) {
            return what + " returned null";
        }
        return a.getSize() == expected
                ? null
                : what + " returned " + a.getSize() + " elements, " + expected + " expected";
    }
}
