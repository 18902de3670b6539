package io.nczarr.spark;

import io.nczarr.error.NcZarrException;
import io.nczarr.model.Attr;
import io.nczarr.model.GroupModel;
import io.nczarr.model.NcType;
import io.nczarr.model.VarModel;
import io.nczarr.open.Datasets;
import io.nczarr.open.NcZarrOptions;
import io.nczarr.open.OpenDataset;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
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
    private static final Map<String, OpenDataset> OPEN = new ConcurrentHashMap<>();

    /** The dataset at {@code url}, opened on first use in this JVM with the process-wide core options. */
    static OpenDataset dataset(String url) throws IOException {
        try {
            return OPEN.computeIfAbsent(url, u -> {
                try {
                    NcZarrOptions options = NcZarrOptions.shared();
                    DatasetUrl parsed = Datasets.resolve(Datasets.parse(u), options);
                    return Datasets.open(parsed, options);
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
            OpenDataset d = OPEN.remove(url);
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

    /** Every variable of the dataset, depth first, root group first. */
    static List<VarModel> variables(OpenDataset ds) {
        List<VarModel> out = new ArrayList<>();
        collect(ds.model().root(), out);
        return out;
    }

    private static void collect(GroupModel g, List<VarModel> out) {
        out.addAll(g.variables());
        for (GroupModel c : g.groups()) {
            collect(c, out);
        }
    }

    /** The path of a variable ({@code /obs/t2m}): its store key with a leading slash. */
    static String path(VarModel v) {
        return v.key().startsWith("/") ? v.key() : "/" + v.key();
    }

    /** The variable named by a name or path ({@code temp}, {@code obs/t2m}, {@code /obs/t2m}). */
    static VarModel find(OpenDataset ds, String nameOrPath) throws NcZarrException {
        String want = nameOrPath.startsWith("/") ? nameOrPath : "/" + nameOrPath;
        for (VarModel v : variables(ds)) {
            if (path(v).equals(want)) {
                return v;
            }
        }
        throw new NcZarrException(ds.model().location(), null, nameOrPath, "no such variable (option variables)", null);
    }

    /** The attribute, or null. */
    static Attr attribute(VarModel v, String name) {
        for (Attr a : v.attributes()) {
            if (a.name().equals(name)) {
                return a;
            }
        }
        return null;
    }

    /** A text attribute's value, or null. */
    static String text(VarModel v, String name) {
        Attr a = attribute(v, name);
        if (a == null) {
            return null;
        }
        if (a.value() instanceof String s) {
            return s;
        }
        if (a.value() instanceof String[] s && s.length > 0) {
            return s[0];
        }
        return null;
    }

    /** A numeric attribute's values as doubles (unsigned types as their values), or null. */
    static double[] numbers(VarModel v, String name) {
        Attr a = attribute(v, name);
        if (a == null || !a.type().isNumeric()) {
            return null;
        }
        int n = a.length();
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            out[i] = Values.asDouble(a.value(), i, a.type());
        }
        return out;
    }

    /** Whether the connector can put this variable into a column: numeric of a fixed width. */
    static boolean readable(VarModel v) {
        NcType t = v.type();
        return t.isNumeric() && !v.isScalar();
    }

    /**
     * Reads a section ({@code origin}, {@code count} along the variable's dimensions) as a primitive array
     * in C order: {@code byte[] short[] int[] long[] float[] double[]} by the variable's storage type.
     */
    static Object read(OpenDataset ds, VarModel v, long[] origin, int[] count) throws IOException {
        int[] stride = new int[count.length];
        java.util.Arrays.fill(stride, 1);
        return ds.reader(v).read(origin, count, stride);
    }

    /** The whole of a 1-D variable. */
    static Object readAll(OpenDataset ds, VarModel v) throws IOException {
        return ds.reader(v).readAll();
    }
}
