package io.nczarr.store;

import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.nio.file.Files;
import java.io.FileNotFoundException;
import java.nio.file.Path;

/** Opens the store a {@link DatasetUrl} names. */
public final class Stores {
    private Stores() {
    }

    /** " (/abs/path)" when the URL does not already say the path. */
    private static String where(DatasetUrl url, Path p) {
        return url.original().contains(p.toString()) ? "" : " (" + p + ")";
    }

    public static Store open(DatasetUrl url) throws IOException {
        switch (url.storeKind()) {
            case DIRECTORY: {
                Path p = url.localPath();
                // a path to the root .zgroup (the form NetcdfFile.open can reach) means its folder
                if (p.getFileName() != null && p.getFileName().toString().equals(".zgroup") && Files.isRegularFile(p)) {
                    p = p.getParent();
                }
                if (!Files.exists(p)) {
                    throw new FileNotFoundException(url + ": no such dataset" + where(url, p));
                }
                if (!Files.isDirectory(p)) {
                    throw new IOException(url + ": " + p + " is not a directory (for a zip file use mode=...,zip)");
                }
                return new DirectoryStore(p);
            }
            case ZIP: {
                Path p = url.localPath();
                if (p == null) {
                    throw new IOException(url + ": zip stores must be local files");
                }
                if (!Files.isRegularFile(p)) {
                    throw new FileNotFoundException(url + ": no such zip file" + where(url, p));
                }
                return new ZipStore(p);
            }
            case S3:
                if (url.uri() == null) {
                    throw new IOException(url + ": mode=s3 needs an s3://, https:// or http:// URL");
                }
                return S3Store.open(url);
            case BYTES:
                throw new IOException(url + ": mode=bytes names a single netCDF file, not a Zarr store"
                        + " (open it with NcZarrFiles.open)");
            default:
                throw new IOException(url + ": unsupported store");
        }
    }
}
