package io.nczarr.open;

import io.nczarr.chunk.ChunkReader;
import io.nczarr.model.DatasetModel;
import io.nczarr.model.VarModel;
import io.nczarr.store.Store;
import java.io.Closeable;
import java.io.IOException;

/**
 * One open NCZarr/Zarr dataset: its store, its metadata model, and readers for its variables that run
 * on the options' threads. What a binding (netCDF-Java 4.5 today, 5.x later) wraps; knows no
 * netCDF-Java itself. Closing it closes the store (and so releases its S3 client lease).
 */
public final class OpenDataset implements Closeable {
    private final Store store;
    private final DatasetModel model;
    private final NcZarrOptions options;

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
