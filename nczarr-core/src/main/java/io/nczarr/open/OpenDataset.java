package io.nczarr.open;

import io.nczarr.chunk.ChunkReader;
import io.nczarr.error.NcZarrException;
import io.nczarr.model.DatasetModel;
import io.nczarr.model.GroupModel;
import io.nczarr.model.VarModel;
import io.nczarr.read.ZarrVariableReader;
import io.nczarr.store.Store;
import java.io.Closeable;
import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One open NCZarr/Zarr dataset: its store, its metadata model, and readers for its variables that run
 * on the options' threads. What a binding (netCDF-Java 4.5 today, 5.x later) wraps; knows no
 * netCDF-Java itself. Closing it closes the store (and so releases its S3 client lease).
 */
public final class OpenDataset implements Closeable {
    private final Store store;
    private final DatasetModel model;
    private final NcZarrOptions options;
    private volatile Map<String, VarModel> variables;

    OpenDataset(Store store, DatasetModel model, NcZarrOptions options) {
        this.store = store;
        this.model = model;
        this.options = options;
    }

    public Store store() {
        return store;
    }

    public DatasetModel model() {
        return model;
    }

    public NcZarrOptions options() {
        return options;
    }

    /**
     * A reader of one variable's sections, on the read threads this store wants, within the options' limits:
     * remote reads keep the store's concurrency in flight unless their chunks (fetched and decoded) would take
     * more than {@link #inFlightBytes} together.
     */
    public ChunkReader reader(VarModel variable) {
        // a task holds the fetched object (at most about the decoded size) and the decoded chunk
        long taskBytes = Math.min(Long.MAX_VALUE / 2, ChunkReader.decodedChunkBytes(variable)) * 2;
        return new ChunkReader(
                store,
                variable,
                options.codecs(),
                options.readPool().forStore(store, taskBytes, inFlightBytes()),
                options.limits());
    }

    /**
     * Typed reads of a variable by its full path ({@code "/temp"}, {@code "/obs/t2m"}; the leading slash may be
     * left out), with its CF metadata and chunk grid.
     *
     * @throws NcZarrException when the dataset has no such variable, naming the dataset and the path
     */
    public ZarrVariableReader variable(String path) throws NcZarrException {
        String p = path.startsWith("/") ? path : "/" + path;
        VarModel v = variables().get(p);
        if (v == null) {
            throw new NcZarrException(store.location(), null, p, "no such variable", null);
        }
        return typed(p, v);
    }

    /** Typed reads of a variable of this dataset's model whose full path the caller knows. */
    public ZarrVariableReader typed(String path, VarModel variable) {
        return new ZarrVariableReader(path, reader(variable));
    }

    /** Every variable of the dataset by its full path ({@code "/obs/t2m"}), groups depth first, in order. */
    public Map<String, VarModel> variables() {
        Map<String, VarModel> m = variables;
        if (m == null) {
            Map<String, VarModel> all = new LinkedHashMap<>();
            collect(model.root(), all);
            m = Collections.unmodifiableMap(all);
            variables = m;
        }
        return m;
    }

    private static void collect(GroupModel g, Map<String, VarModel> into) {
        String prefix = g.path().equals("/") ? "/" : g.path() + "/";
        for (VarModel v : g.variables()) {
            into.put(prefix + v.name(), v);
        }
        for (GroupModel c : g.groups()) {
            collect(c, into);
        }
    }

    /** What the chunks in flight of one remote read may hold: a quarter of the read limit, at most 256 MiB. */
    long inFlightBytes() {
        return Math.min(256L << 20, options.limits().maxReadBytes() / 4);
    }

    @Override
    public void close() throws IOException {
        store.close();
    }

    @Override
    public String toString() {
        return "OpenDataset[" + store + ", " + model.conventions() + "]";
    }
}
