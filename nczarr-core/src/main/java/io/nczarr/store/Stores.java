package io.nczarr.store;

import io.nczarr.error.StoreException;
import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.http.HttpObjects;
import io.nczarr.source.LocalFiles;
import io.nczarr.source.Origin;
import io.nczarr.source.StoreSources;
import io.nczarr.store.kerchunk.ParquetReferences;
import io.nczarr.store.kerchunk.ReferenceFiles;
import io.nczarr.store.kerchunk.ReferenceStore;
import io.nczarr.url.DatasetUrl;
import io.nczarr.url.DatasetUrl.StoreKind;
import io.nczarr.url.Mode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Opens the store a {@link DatasetUrl} names, and decides which kind of store that is. The URL
 * says so for remote data and with a storage flag; a plain local path is looked at here, where
 * the files are read, not while parsing the URL.
 */
public final class Stores {
    private Stores() {}

    /** The kind of store {@code url} names: {@link StoreSources#kindOf}. */
    public static StoreKind kindOf(DatasetUrl url) {
        return StoreSources.kindOf(url);
    }

    /** As {@link LocalFiles#looksLikeZip}. */
    public static boolean looksLikeZip(Path p) {
        return LocalFiles.looksLikeZip(p);
    }

    /**
     * Whether a local file is a zip holding a Zarr root ({@link LocalFiles#isZarrZip}): what a plugin asked "is
     * this yours?" may claim, without taking every zip.
     */
    public static boolean isZarrZip(Path p) {
        return LocalFiles.isZarrZip(p);
    }

    /** The object a Zarr root group has: {@code .zgroup} (v2) or {@code zarr.json} (v3). */
    public static boolean isRootMarker(String name) {
        return LocalFiles.isRootMarker(name);
    }

    /**
     * {@code url} with its kind decided when the URL itself does not say ({@link
     * DatasetUrl#declaredStoreKind()} empty), by looking at what it names:
     *
     * <ul>
     *   <li>a local regular file starting with the netCDF-3 ({@code CDF\1}, {@code CDF\2}, {@code CDF\5}) or
     *       HDF5 signature → {@code mode=bytes} (netCDF-Java's own readers); a local JSON file that is a
     *       kerchunk reference file ({@link ReferenceFiles#looksLikeReferences}) → {@code mode=kerchunk};
     *       a local folder of Parquet references ({@link ParquetReferences#isParquetFolder}) → {@code mode=kerchunk};
     *       anything else stays a directory or zip store ({@link #kindOf});
     *   <li>an http(s) URL: one ranged GET of its first {@value #SNIFF_BYTES} bytes: a netCDF-3/HDF5
     *       signature → {@code mode=bytes}; a reference file → {@code mode=kerchunk}; the JSON of a Zarr node
     *       ({@code .zgroup}, {@code .zmetadata}, {@code zarr.json}...) → the HTTP store of the folder holding
     *       it; anything else (404, an HTML page) → an error listing the URL forms.
     * </ul>
     */
    public static DatasetUrl resolve(DatasetUrl url, StoreResources resources) throws IOException {
        if (url.declaredStoreKind().isPresent()) {
            return url;
        }
        // a URL a document names is judged before even its first bytes are looked at
        resources.sources().check(url, resources.originOf(url));
        if ("file".equals(url.scheme())) {
            Path p = url.localPath();
            if (ParquetReferences.isParquetFolder(p)) {
                return url.withMode(Mode.KERCHUNK, null); // fsspec's Parquet references (issue 23)
            }
            if (!Files.isRegularFile(p)) {
                return url;
            }
            byte[] head;
            try (InputStream in = Files.newInputStream(p)) {
                head = in.readNBytes(SNIFF_BYTES);
            } catch (IOException e) {
                return url; // opening it as a store reports it
            }
            if (isNetcdfSignature(head)) {
                return url.withMode(Mode.BYTES, null);
            }
            if (ReferenceFiles.looksLikeReferences(head)) {
                return url.withMode(Mode.KERCHUNK, null);
            }
            return url;
        }
        return sniffHttp(url, resources);
    }

    /** How many bytes an http(s) URL without a mode is sniffed by. */
    public static final int SNIFF_BYTES = 4096;

    private static DatasetUrl sniffHttp(DatasetUrl url, StoreResources resources) throws IOException {
        URI u = url.uri();
        Origin origin = resources.originOf(url);
        StoreSources sources = resources.sources();
        HttpObjects http = sources.httpObjects(sources.httpSettings(url, origin, url.toString()), origin);
        Optional<byte[]> head;
        try {
            head = http.getRange(u, 0, SNIFF_BYTES, SNIFF_BYTES);
        } catch (StoreException e) {
            throw new StoreException(url.toString(), null, e.detail() + "; " + FORMS, e.isRetryable(), e);
        }
        if (head.isEmpty()) {
            throw refused(url, "no such object (HTTP 404); " + FORMS);
        }
        byte[] b = head.get();
        if (isNetcdfSignature(b)) {
            return url.withMode(Mode.BYTES, null);
        }
        if (ReferenceFiles.looksLikeReferences(b)) {
            return url.withMode(Mode.KERCHUNK, null);
        }
        if (looksLikeZarrNode(b)) {
            String path = u.getPath() == null ? "" : u.getPath();
            String parentPath = path.substring(0, path.lastIndexOf('/') + 1);
            try {
                URI parent = new URI(u.getScheme(), u.getRawAuthority(), parentPath, null, null);
                return url.withMode(Mode.HTTP, parent);
            } catch (URISyntaxException e) {
                throw refused(url, e.getReason());
            }
        }
        throw refused(url, "neither a netCDF file, a Zarr node nor a reference file; " + FORMS);
    }

    private static final String FORMS = "say what the URL is with a mode: #mode=zarr (or nczarr) for a Zarr store"
            + " on a plain HTTP server, #mode=bytes for a netCDF-3/netCDF-4 file, #mode=zarr,s3 for a store read"
            + " through the S3 API, #mode=kerchunk for a kerchunk reference file";

    /** netCDF-3 ({@code CDF} 1, 2, 5) at 0, or the HDF5 superblock signature at 0 or 512 (a user block). */
    public static boolean isNetcdfSignature(byte[] b) {
        if (b.length >= 4 && b[0] == 'C' && b[1] == 'D' && b[2] == 'F' && (b[3] == 1 || b[3] == 2 || b[3] == 5)) {
            return true;
        }
        return hdf5At(b, 0) || hdf5At(b, 512) || hdf5At(b, 1024) || hdf5At(b, 2048);
    }

    private static boolean hdf5At(byte[] b, int at) {
        byte[] sig = {(byte) 0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
        if (b.length < at + sig.length) {
            return false;
        }
        for (int i = 0; i < sig.length; i++) {
            if (b[at + i] != sig[i]) {
                return false;
            }
        }
        return true;
    }

    /** The JSON object of a Zarr node: {@code zarr_format}, {@code node_type} or {@code .zmetadata}'s {@code metadata}. */
    private static boolean looksLikeZarrNode(byte[] b) {
        String s = new String(b, java.nio.charset.StandardCharsets.UTF_8).stripLeading();
        return s.startsWith("{")
                && (s.contains("\"zarr_format\"")
                        || s.contains("\"node_type\"")
                        || s.contains("\"zarr_consolidated_format\""));
    }

    /**
     * Opens the store of {@code url}. Makes no request to a remote store whose kind the URL states; an
     * http(s) URL without a mode costs one ranged GET ({@link #resolve}).
     *
     * @throws StoreException when a local dataset does not exist or is the wrong kind of file, or
     *     the URL does not fit its storage flag
     * @throws UnsupportedFeatureException for {@code mode=bytes}, which is not a Zarr store
     */
    public static Store open(DatasetUrl url, StoreResources resources) throws IOException {
        url = resolve(url, resources);
        StoreKind kind = kindOf(url);
        switch (kind) {
            case REFERENCE:
                resources.sources().check(url, resources.originOf(url));
                return ParquetReferences.namesParquet(url)
                        ? ParquetReferences.open(url, resources)
                        : ReferenceStore.open(url, resources);
            case DIRECTORY:
            case ZIP:
            case S3:
            case HTTP:
                // the one URL → backend decision (trust, credentials, clients): io.nczarr.source
                return open(url, kind, resources);
            case BYTES:
                throw new UnsupportedFeatureException(
                        url.toString(),
                        null,
                        null,
                        "mode=bytes as a Zarr store",
                        "mode=bytes names a single netCDF file, not a Zarr store (open it with NcZarrFiles.open)",
                        null);
            default:
                throw new UnsupportedFeatureException(
                        url.toString(), null, null, "store " + kind, "unsupported store", null);
        }
    }

    /**
     * The store of {@code kind} (directory, zip, S3, HTTP) at {@code url}, its backend from the resolver ({@link
     * StoreSources#open}) with the trust rules of the resources' origin; makes no request.
     */
    public static Store open(DatasetUrl url, StoreKind kind, StoreResources resources) throws IOException {
        return of(resources.sources().open(url, kind, resources.originOf(url)), url, resources);
    }

    /** The store reading the backend the resolver gave: keys and bytes only. */
    private static Store of(StoreSources.Backend backend, DatasetUrl url, StoreResources resources) throws IOException {
        if (backend instanceof StoreSources.Folder f) {
            if (ParquetReferences.isParquetFolder(f.root())) {
                return ParquetReferences.open(
                        url, resources); // its .zmetadata read as plain Zarr would give fill values
            }
            return new DirectoryStore(f.root(), resources.maxObjectBytes(), resources.allowSymlinksOut());
        }
        if (backend instanceof StoreSources.Zip z) {
            return new ZipStore(z.file(), resources.maxObjectBytes());
        }
        if (backend instanceof StoreSources.S3Prefix s) {
            return new S3Store(s.bucket(), s.location(), resources.maxObjectBytes());
        }
        StoreSources.HttpFolder h = (StoreSources.HttpFolder) backend;
        return new HttpStore(h.root(), h.objects(), resources.maxObjectBytes());
    }

    /**
     * A view of {@code store} whose {@link Store#get(String)} is bounded by {@code limit} (e.g. {@link
     * MemoryLimits#metadata()} for the metadata reader); everything else passes through, and closing the
     * view leaves the store open.
     */
    public static Store bounded(Store store, ByteLimit limit) {
        return new BoundedStore(store, limit);
    }

    /** Not there, or not what the URL says: trying again will not change that. */
    private static StoreException refused(DatasetUrl url, String detail) {
        return new StoreException(url.toString(), null, detail, false, null);
    }
}
