package io.nczarr.store;

import io.nczarr.error.StoreException;
import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.http.HttpObjects;
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
import java.util.Enumeration;
import java.util.Locale;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Opens the store a {@link DatasetUrl} names, and decides which kind of store that is. The URL
 * says so for remote data and with a storage flag; a plain local path is looked at here, where
 * the files are read, not while parsing the URL.
 */
public final class Stores {
    private Stores() {}

    /**
     * The kind of store {@code url} names: its storage flag ({@code mode=...,file|zip|s3|bytes}), else
     * its scheme (remote = S3), else what the local path holds: a zip file (named {@code *.zip} or
     * starting with the zip signature) or else a directory.
     */
    public static StoreKind kindOf(DatasetUrl url) {
        if (url.declaredStoreKind().isEmpty() && !"file".equals(url.scheme())) {
            throw new IllegalArgumentException("undecided remote URL " + url + ": Stores.resolve it first");
        }
        return url.declaredStoreKind()
                .orElseGet(() -> looksLikeZip(url.localPath()) ? StoreKind.ZIP : StoreKind.DIRECTORY);
    }

    /**
     * Whether a local path is a zip file rather than a directory store: not a directory, and named
     * {@code *.zip} (even before it exists) or starting with {@code PK\3\4}. An unreadable file is
     * not a zip here; opening it as a directory then reports it.
     */
    public static boolean looksLikeZip(Path p) {
        if (Files.isDirectory(p)) {
            return false;
        }
        Path name = p.getFileName();
        if (name != null && name.toString().toLowerCase(Locale.ROOT).endsWith(".zip")) {
            return true;
        }
        return hasZipSignature(p);
    }

    /**
     * Whether a local file is a zip holding a Zarr root ({@code .zgroup} or v3 {@code zarr.json} at the top, or one folder down
     * as netcdf-c writes it): what a plugin asked "is this yours?" may claim, without taking every zip.
     */
    public static boolean isZarrZip(Path p) {
        if (!Files.isRegularFile(p) || !hasZipSignature(p)) {
            return false;
        }
        try (ZipFile z = new ZipFile(p.toFile())) {
            Enumeration<? extends ZipEntry> entries = z.entries();
            while (entries.hasMoreElements()) {
                String n = entries.nextElement().getName();
                int slash = n.indexOf('/');
                if (isRootMarker(n) || (slash > 0 && isRootMarker(n.substring(slash + 1)))) {
                    return true;
                }
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
        return false;
    }

    /** The object a Zarr root group has: {@code .zgroup} (v2) or {@code zarr.json} (v3). */
    public static boolean isRootMarker(String name) {
        return name.equals(".zgroup") || name.equals("zarr.json");
    }

    /** {@code PK\3\4}: a zip's first local header. Only regular files are opened: a FIFO would block. */
    private static boolean hasZipSignature(Path p) {
        if (!Files.isRegularFile(p)) {
            return false;
        }
        try (InputStream in = Files.newInputStream(p)) {
            byte[] magic = in.readNBytes(4);
            return magic.length == 4 && magic[0] == 'P' && magic[1] == 'K' && magic[2] == 3 && magic[3] == 4;
        } catch (IOException e) {
            return false;
        }
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
        HttpObjects http = resources.httpObjects(resources.httpSettings(url, url.toString()), resources.originOf(url));
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
            case HTTP:
                return HttpStore.open(url, resources);
            case REFERENCE:
                return ParquetReferences.namesParquet(url)
                        ? ParquetReferences.open(url, resources)
                        : ReferenceStore.open(url, resources);
            case DIRECTORY:
                return openDirectory(url, resources);
            case ZIP:
                return openZip(url, resources.maxObjectBytes());
            case S3:
                if (url.uri() == null) {
                    throw refused(url, "mode=s3 needs an s3://, https:// or http:// URL");
                }
                return S3Store.open(url, resources);
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

    private static Store openDirectory(DatasetUrl url, StoreResources resources) throws IOException {
        Path p = url.localPath();
        // a path to the root .zgroup or zarr.json (the form NetcdfFile.open can reach) means its folder
        Path name = p.getFileName();
        Path parent = p.getParent();
        if (name != null && parent != null && isRootMarker(name.toString()) && Files.isRegularFile(p)) {
            p = parent;
        }
        if (!Files.exists(p)) {
            throw refused(url, "no such dataset" + where(url, p));
        }
        if (!Files.isDirectory(p)) {
            throw refused(url, p + " is not a directory (for a zip file use mode=...,zip)");
        }
        if (ParquetReferences.isParquetFolder(p)) {
            return ParquetReferences.open(url, resources); // its .zmetadata read as plain Zarr would give fill values
        }
        return new DirectoryStore(p, resources.maxObjectBytes(), resources.allowSymlinksOut());
    }

    private static Store openZip(DatasetUrl url, long maxObjectBytes) throws IOException {
        Path p = url.localPath();
        if (p == null) {
            throw new UnsupportedFeatureException(
                    url.toString(), null, null, "remote zip stores", "zip stores must be local files", null);
        }
        if (!Files.isRegularFile(p)) {
            throw refused(url, "no such zip file" + where(url, p));
        }
        return new ZipStore(p, maxObjectBytes);
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

    /** " (/abs/path)" when the URL does not already say the path. */
    private static String where(DatasetUrl url, Path p) {
        return url.original().contains(p.toString()) ? "" : " (" + p + ")";
    }
}
