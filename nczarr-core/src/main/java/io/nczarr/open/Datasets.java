package io.nczarr.open;

import io.nczarr.error.MetadataException;
import io.nczarr.error.NcZarrException;
import io.nczarr.icechunk.IcechunkStore;
import io.nczarr.meta.MetadataReader;
import io.nczarr.model.DatasetModel;
import io.nczarr.source.Origin;
import io.nczarr.store.PoolFailures;
import io.nczarr.store.Store;
import io.nczarr.store.StoreResources;
import io.nczarr.store.Stores;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;

/** Opening an NCZarr/Zarr dataset: URL → store → metadata → model, with the resources of the options. */
public final class Datasets {
    private Datasets() {}

    /** Parses a netcdf-c URL or path; a malformed one is an {@link NcZarrException} naming it. */
    public static DatasetUrl parse(String location) throws NcZarrException {
        try {
            return DatasetUrl.parse(location);
        } catch (IllegalArgumentException e) {
            throw new NcZarrException(e.getMessage(), e);
        }
    }

    /**
     * The URL with its kind decided when it does not say ({@link Stores#resolve}: a local netCDF or reference
     * file by its first bytes, an http(s) URL without a mode by one small ranged GET); as it is otherwise.
     */
    public static DatasetUrl resolve(DatasetUrl url, NcZarrOptions options) throws IOException {
        return resolve(url, options, null);
    }

    /**
     * {@link #resolve(DatasetUrl, NcZarrOptions)} of a URL named inside a document ({@code origin}; null: the
     * user's): the sniffing request carries the user's HTTP credentials only where the trust rules bind them.
     */
    public static DatasetUrl resolve(DatasetUrl url, NcZarrOptions options, Origin origin) throws IOException {
        StoreResources resources = origin == null
                ? options.storeResources()
                : options.storeResources().withOrigin(origin);
        return Stores.resolve(url, resources);
    }

    /** Opens the store and reads the whole metadata hierarchy; the caller closes the result. */
    public static OpenDataset open(DatasetUrl url, NcZarrOptions options) throws IOException {
        return open(url, options, null);
    }

    /**
     * {@link #open(DatasetUrl, NcZarrOptions)} of a URL named inside a document: {@code origin} is the document
     * chain (null: the user gave the URL), so that what the dataset names in turn (reference targets) is checked
     * against it.
     */
    public static OpenDataset open(DatasetUrl url, NcZarrOptions options, Origin origin) throws IOException {
        StoreResources resources = origin == null
                ? options.storeResources()
                : options.storeResources().withOrigin(origin);
        try {
            return open(openStore(url, resources), url.format(), url.useXarrayDimensions(), options);
        } catch (MetadataException e) {
            // no Zarr root: a local Icechunk repository opened without its mode gets a hint (remote: no extra request)
            if (!url.isIcechunk()
                    && !url.isBytes()
                    && url.localPath() != null
                    && IcechunkStore.isRepository(url, resources)) {
                throw new MetadataException(
                        e.dataset(),
                        e.key(),
                        e.detail() + "; this is an Icechunk repository: open it with #mode=zarr,icechunk",
                        e);
            }
            throw e;
        }
    }

    /** The store of {@code url}; for {@code mode=...,icechunk} the snapshot it selects of the repository there. */
    public static Store openStore(DatasetUrl url, StoreResources resources) throws IOException {
        Store store = Stores.open(url, resources);
        return url.isIcechunk() ? IcechunkStore.open(store, url, resources) : store;
    }

    /**
     * Reads the metadata of a store that is already open (an in-memory one, say) the way a URL with
     * this format and xarray setting would; the store is closed with the result, or now if this fails.
     */
    public static OpenDataset open(
            Store store, DatasetUrl.Format format, boolean xarrayDimensions, NcZarrOptions options) throws IOException {
        try {
            // the metadata reader knows no limits: it reads through a view bounded by the metadata limit
            DatasetModel model = MetadataReader.read(
                    Stores.bounded(store, options.limits().metadata()),
                    format,
                    xarrayDimensions,
                    // remote: the request pool; local: the decode pool, used for groups of many children
                    options.readPool().forStore(store));
            return new OpenDataset(store, model, options);
        } catch (IOException | RuntimeException e) {
            store.close();
            throw e;
        } catch (OutOfMemoryError e) {
            // the hierarchy does not fit the heap (here or in a prefetch thread): what was read is garbage now
            store.close();
            throw PoolFailures.outOfMemory(
                    store.location(),
                    null,
                    null,
                    "reading the metadata",
                    options.limits().metadata(),
                    e);
        }
    }
}
