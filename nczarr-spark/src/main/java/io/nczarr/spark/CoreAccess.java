package io.nczarr.spark;

import io.nczarr.dtype.CompoundType;
import io.nczarr.error.NcZarrException;
import io.nczarr.model.Attr;
import io.nczarr.model.NcType;
import io.nczarr.open.Datasets;
import io.nczarr.open.NcZarrOptions;
import io.nczarr.read.ArraySection;
import io.nczarr.read.VariableReader;
import io.nczarr.read.ZarrVariableReader;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one place the connector uses the core's read API: opening (once per JVM and URL), finding variables,
 * attributes and reading sections into primitive arrays. Executors and the driver share the per-JVM cache, so
 * a store, its S3 clients and its read pools are made once per JVM and reused by every task.
 */
final class CoreAccess {
    private CoreAccess() {}

    /** Open datasets of this JVM by URL (the options are fragment keys of the URL). */
    private static final Map<String, Opened> OPEN = new ConcurrentHashMap<>();

    /**
     * The dataset at {@code url}, opened on first use in this JVM with the process-wide core options, with its
     * CF/CFA aggregations (fragments open on first read, under the trust rules).
     */
    static Opened dataset(String url) throws IOException {
        try {
            return OPEN.computeIfAbsent(url, u -> {
                try {
                    NcZarrOptions options = NcZarrOptions.shared();
                    DatasetUrl parsed = Datasets.resolve(Datasets.parse(u), options);
                    return Opened.of(Datasets.open(parsed, options));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** Closes and forgets every dataset this JVM opened (tests; a host shutting down). */
    static void closeAll() {
        for (String url : List.copyOf(OPEN.keySet())) {
            Opened d = OPEN.remove(url);
            if (d != null) {
                try {
                    d.close();
                } catch (IOException e) {
                    // closing releases resources; nothing to report to a reader
                }
            }
        }
    }

    /** How many datasets this JVM holds open (tests). */
    static int openCount() {
        return OPEN.size();
    }

    /** Every variable shown (aggregations presented, bookkeeping left out) by full path, root group first. */
    static Map<String, VariableReader> variables(Opened ds) {
        return ds.readers();
    }

    /** The typed reader of a variable named by a name or path ({@code temp}, {@code obs/t2m}, {@code /obs/t2m}). */
    static VariableReader find(Opened ds, String nameOrPath) throws NcZarrException {
        String want = nameOrPath.startsWith("/") ? nameOrPath : "/" + nameOrPath;
        VariableReader r = ds.readers().get(want);
        if (r == null) {
            throw new NcZarrException(ds.location(), null, nameOrPath, "no such variable (option variables)", null);
        }
        return r;
    }

    /** A text attribute's value, or null. */
    static String text(VariableReader v, String name) {
        for (Attr a : v.attributes()) {
            if (a.name().equals(name)) {
                if (a.value() instanceof String s) {
                    return s;
                }
                if (a.value() instanceof String[] s && s.length > 0) {
                    return s[0];
                }
            }
        }
        return null;
    }

    /**
     * Whether the connector can put this variable into a column: numeric, string and structure (records of a
     * known type) variables, and char variables (whose last dimension is the text: a 1-D char variable is one
     * string, a table of one row, as a scalar is).
     */
    static boolean readable(VariableReader v) {
        NcType t = v.type();
        return t.isNumeric() || t == NcType.STRING || t == NcType.CHAR || t == NcType.STRUCTURE && compound(v) != null;
    }

    /** The record type of a structure variable, or null (not a structure, or not a variable of a Zarr array). */
    static CompoundType compound(VariableReader v) {
        if (v.type() == NcType.STRUCTURE && v instanceof ZarrVariableReader z) {
            return z.variable().element().compound();
        }
        return null;
    }

    /** Whether a char variable's last dimension is its text (a 0-d char variable is one character). */
    private static boolean hasText(VariableReader v) {
        return v.type() == NcType.CHAR && v.shape().length > 0;
    }

    /** The dimensions a variable spans in a table: a char variable's last one is its text, not a dimension. */
    static List<String> tableDimensions(VariableReader v) {
        List<String> d = v.dimensions();
        return hasText(v) ? d.subList(0, d.size() - 1) : d;
    }

    /** The shape a variable spans in a table ({@link #tableDimensions}). */
    static long[] tableShape(VariableReader v) {
        long[] s = v.shape();
        return hasText(v) ? java.util.Arrays.copyOf(s, s.length - 1) : s;
    }

    /**
     * Reads a section of the table's dimensions: {@link #read}, for a char variable with the whole text
     * dimension added ({@code byte[]}, each value its text length of bytes).
     */
    static Object readTable(VariableReader v, long[] origin, int[] count) throws IOException {
        if (!hasText(v)) {
            return read(v, origin, count);
        }
        long[] o = java.util.Arrays.copyOf(origin, origin.length + 1);
        int[] c = java.util.Arrays.copyOf(count, count.length + 1);
        c[count.length] = (int) v.shape()[count.length];
        return read(v, o, c);
    }

    /** The text length of a char variable (its last dimension). */
    static int textLength(VariableReader v) {
        long[] s = v.shape();
        return s.length == 0 ? 1 : (int) s[s.length - 1];
    }

    /**
     * Reads a section ({@code origin}, {@code count} along the variable's dimensions) as a primitive array
     * in C order: {@code byte[] short[] int[] long[] float[] double[]} by the variable's storage type
     * (unsigned types as their bit patterns).
     */
    static Object read(VariableReader v, long[] origin, int[] count) throws IOException {
        return v.read(ArraySection.of(origin, count)).storage();
    }

    /** The whole of a variable. */
    static Object readAll(VariableReader v) throws IOException {
        return v.readAll().storage();
    }
}
