package io.nczarr.cdm;

import io.nczarr.model.DatasetModel;
import io.nczarr.open.Datasets;
import io.nczarr.open.NcZarrOptions;
import io.nczarr.open.OpenDataset;
import io.nczarr.raf.ByteRangeFiles;
import io.nczarr.source.Origin;
import io.nczarr.source.Trust;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import ucar.nc2.NetcdfFile;
import ucar.nc2.dataset.NetcdfDataset;
import ucar.nc2.util.cache.FileCacheIF;
import ucar.nc2.util.cache.FileFactory;

/**
 * Opens NCZarr / Zarr datasets by netcdf-c URL or path. This is the entry point that accepts
 * every form ({@code file:///x.file#mode=nczarr,file}, {@code /data/x.zip}, a directory...);
 * cdm 4.5.5's own {@code NetcdfFile.open} cannot open a directory or a URL with a fragment.
 *
 * <p>{@code #mode=bytes} (or the bare fragment {@code #bytes}) names one netCDF-3 or
 * netCDF-4/HDF5 file read by HTTP byte ranges instead: {@code https://host/path/file.nc#mode=bytes},
 * a THREDDS {@code .../fileServer/...nc#bytes}. It is opened by netCDF-Java's own netCDF-3/HDF5
 * readers over a block-cached byte-range {@code RandomAccessFile} (module s3-raf).
 */
public final class NcZarrFiles {
    private NcZarrFiles() {}

    static {
        registerIosp();
    }

    /**
     * Registers {@link NcZarrIosp} with netCDF-Java ahead of its built-in IOSPs, once per class loader
     * (thread-safe; done when this class is loaded). Without it, cdm 4.5.5 asks its own readers first and
     * one of them prints {@code In isValidFile(): java.io.EOFException} on stdout for a {@code .zgroup}
     * path given to {@code NetcdfFile.open}; the ServiceLoader entry alone puts this IOSP last.
     * Applications that never touch this class can do the same with
     * {@code NetcdfFile.registerIOProvider(NcZarrIosp.class)}.
     */
    public static void registerIosp() {
        synchronized (NcZarrFiles.class) {
            if (NetcdfFile.iospRegistered(NcZarrIosp.class)) {
                return;
            }
            try {
                NetcdfFile.registerIOProvider(NcZarrIosp.class);
            } catch (IllegalAccessException | InstantiationException | RuntimeException e) {
                // the ServiceLoader entry still finds the IOSP, after cdm's own
            }
        }
    }

    /**
     * Makes cdm's CF enhancement treat netCDF default fills of our datasets as missing ({@link DefaultFills}) for
     * {@code new NetcdfDataset(file)} wrappers too; {@code NetcdfDataset.openDataset} and this class's dataset
     * opens do it themselves.
     */
    public static void registerConventions() {
        DefaultFills.register();
    }

    /** Opens a dataset with the process default {@link NcZarrOptions#shared()}; the caller closes the file. */
    public static NetcdfFile open(String location) throws IOException {
        return open(location, NcZarrOptions.shared());
    }

    /**
     * Opens a dataset with the given resources and settings (codec registry, threads, S3 and HTTP clients,
     * limits); the options stay open after the file is closed.
     */
    public static NetcdfFile open(String location, NcZarrOptions options) throws IOException {
        return Aggregations.wrap(openPlain(location, options), location, options);
    }

    /** {@link #open(String, NcZarrOptions)} without interpreting aggregations (fragments are opened so). */
    static NetcdfFile openPlain(String location, NcZarrOptions options) throws IOException {
        return openPlain(location, options, null);
    }

    /**
     * {@link #openPlain(String, NcZarrOptions)} of a URL named inside a document ({@code origin}, already
     * checked by {@link Trust#check}): its own credential keys are replaced by what {@link Trust#forDocument}
     * allows, and what it names in turn is checked with the chain.
     */
    static NetcdfFile openPlain(String location, NcZarrOptions options, Origin origin) throws IOException {
        DatasetUrl parsed = Datasets.parse(location);
        if (origin != null) {
            parsed = Trust.forDocument(parsed, origin);
        }
        // a URL that does not say what it names (a local .nc file, an http(s) URL without a mode) is looked at
        DatasetUrl url = Datasets.resolve(parsed, options, origin);
        if (url.isBytes()) {
            return openBytes(url, location, options);
        }
        OpenDataset dataset;
        try {
            dataset = Datasets.open(url, options, origin);
        } catch (RuntimeException e) {
            throw Guard.unexpected(Guard.name(url), null, e);
        }
        return open(dataset, location);
    }

    /**
     * Wraps a dataset that is already open (from a URL, or from an in-memory store in tests) in a
     * NetcdfFile; the dataset is closed if that fails.
     */
    static NetcdfFile open(OpenDataset dataset, String location) throws IOException {
        try {
            return new NcZarrFile(new NcZarrIosp(dataset), location);
        } catch (IOException e) {
            dataset.close();
            throw e;
        } catch (RuntimeException e) {
            dataset.close();
            // cdm wraps whatever the IOSP's open threw that is not an IOException
            throw Guard.unexpected(dataset.model().location(), null, e);
        }
    }

    /**
     * {@code #mode=bytes}: one netCDF file read with cdm's own readers. Remote URLs go through
     * {@link ByteRangeFiles} (its {@code nczarr.bytes.*} settings read from the options' environment, with
     * the options' HTTP client and S3 pool), which picks the backend: S3 requests for {@code s3://} and for
     * http(s) URLs with {@code s3} mode or an {@code aws.profile}, plain HTTP ranges otherwise. A local path
     * is opened directly.
     */
    private static NetcdfFile openBytes(DatasetUrl url, String location, NcZarrOptions options) throws IOException {
        try {
            if ("file".equals(url.scheme())) {
                return NetcdfFile.open(url.localPath().toString());
            }
            return ByteRangeFiles.open(
                    url.uri(),
                    url.parameters(),
                    location,
                    ByteRangeFiles.config(options.environment()::property),
                    options.httpClient(),
                    options.s3Clients());
        } catch (RuntimeException e) {
            // cdm's own netCDF-3/HDF5 readers, on a file they cannot parse
            throw Guard.unexpected(Guard.name(url), null, e);
        }
    }

    /** Opens a dataset as a NetcdfDataset, optionally with the default CF enhancements. */
    public static NetcdfDataset openDataset(String location, boolean enhance) throws IOException {
        DefaultFills.register();
        NetcdfFile nc = open(location);
        try {
            return new NetcdfDataset(nc, enhance);
        } catch (IOException e) {
            nc.close();
            throw e;
        } catch (RuntimeException e) {
            // cdm's enhancements (coordinate systems, scale/offset) on attributes they cannot use
            DatasetModel model = model(nc);
            nc.close();
            throw Guard.unexpected(model != null ? model.location() : Guard.name(Datasets.parse(location)), null, e);
        }
    }

    /**
     * A {@link FileFactory} for netCDF-Java's file cache:
     * {@code NetcdfDataset.acquireFile(NcZarrFiles.fileFactory(), NcZarrFiles.fileCacheKey(url), url, -1, null,
     * null)}. (cdm 4.5.5's plain {@code acquireFile(url)} uses {@code NetcdfFile.open}, which cannot open
     * URLs with fragments.) With the cache on, cdm 4.5.5 asks an {@code http(s)} server about the URL before
     * it calls the factory (GET {@code .dds}, {@code .dmr}, then HEAD of the URL without its fragment, which a
     * store's folder answers 404: name the store's {@code .zgroup}, {@code .zmetadata} or {@code zarr.json} in
     * the URL instead, which this factory opens as the store) and cannot ask about {@code s3://} at all
     * ("Malformed URL"): for those use {@link #acquireFile(String)} (docs/user-guide.md).
     */
    public static FileFactory fileFactory() {
        return FILE_FACTORY;
    }

    /**
     * The factory for {@code NetcdfDataset.acquireDataset(NcZarrFiles.datasetFactory(), url, ...)}:
     * cdm 4.5.5 casts what the factory returns to NetcdfDataset and does not pass the enhance
     * mode on, so these datasets get {@code NetcdfDataset.getDefaultEnhanceMode()}. The cache key is the
     * location itself: give {@code acquireFile} of the same location {@link #fileCacheKey(String)}, or cdm
     * hands it this dataset or this call that file ({@code ClassCastException}). Remote URLs as for
     * {@link #fileFactory()}.
     */
    public static FileFactory datasetFactory() {
        return DATASET_FACTORY;
    }

    /**
     * A file from netCDF-Java's file cache ({@code NetcdfDataset.initNetcdfFileCache}) for any location
     * {@link #open(String)} takes, S3 and HTTP included: cdm's own URL probing is bypassed. Cached apart from
     * {@link #acquireDataset(String)} of the same location. Without a cache it simply opens. {@code close()}
     * hands the file back to the cache.
     */
    public static NetcdfFile acquireFile(String location) throws IOException {
        FileCacheIF cache = NetcdfDataset.getNetcdfFileCache();
        if (cache == null) {
            return open(location);
        }
        return (NetcdfFile) cache.acquire(FILE_FACTORY, fileCacheKey(location), location, -1, null, null);
    }

    /** As {@link #acquireFile(String)}, enhanced as {@link #openDataset(String, boolean)} with {@code true}. */
    public static NetcdfDataset acquireDataset(String location) throws IOException {
        DefaultFills.register();
        FileCacheIF cache = NetcdfDataset.getNetcdfFileCache();
        if (cache == null) {
            return openDataset(location, true);
        }
        return (NetcdfDataset) cache.acquire(DATASET_FACTORY, DATASET_KEY + location, location, -1, null, null);
    }

    /** The cache key of {@link #acquireFile(String)}: never the key of a dataset of the same location. */
    public static String fileCacheKey(String location) {
        return FILE_KEY + location;
    }

    private static final String FILE_KEY = "nczarr-file:";
    private static final String DATASET_KEY = "nczarr-dataset:";

    /**
     * An {@code http(s)} store URL that names the store's root metadata object ({@code .../x.zarr/.zgroup},
     * {@code .zmetadata} or {@code zarr.json}, which cdm 4.5.5's probe can HEAD) as the store's own URL.
     */
    static String storeLocation(String location) {
        int hash = location.indexOf('#');
        String base = hash < 0 ? location : location.substring(0, hash);
        String lower = base.toLowerCase(java.util.Locale.ROOT);
        if (lower.startsWith("http://") || lower.startsWith("https://")) {
            for (String object : new String[] {"/.zgroup", "/.zmetadata", "/zarr.json"}) {
                if (base.endsWith(object)) {
                    return base.substring(0, base.length() - object.length())
                            + (hash < 0 ? "" : location.substring(hash));
                }
            }
        }
        return location;
    }

    private static final FileFactory FILE_FACTORY =
            (location, bufferSize, cancelTask, iospMessage) -> open(storeLocation(location));
    private static final FileFactory DATASET_FACTORY =
            (location, bufferSize, cancelTask, iospMessage) -> openDataset(storeLocation(location), true);

    /** The metadata model behind a file this plugin opened, or {@code null} for other files. */
    public static DatasetModel model(NetcdfFile file) {
        Object m = file.sendIospMessage(NcZarrIosp.MESSAGE_MODEL);
        return m instanceof DatasetModel dm ? dm : null;
    }
}
