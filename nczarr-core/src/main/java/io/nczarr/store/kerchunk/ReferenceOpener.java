package io.nczarr.store.kerchunk;

import io.nczarr.error.StoreException;
import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.http.HttpSettings;
import io.nczarr.source.ObjectSource;
import io.nczarr.source.Origin;
import io.nczarr.store.ByteLimit;
import io.nczarr.store.MemoryLimits;
import io.nczarr.store.StoreResources;
import io.nczarr.store.kerchunk.ReferenceFiles.Ref;
import io.nczarr.url.DatasetUrl;
import io.nczarr.url.DatasetUrl.StoreKind;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Reads a kerchunk reference file (local, S3 or HTTP) and makes its {@link ReferenceStore}; the targets it
 * names are checked against the reference file as their origin ({@link io.nczarr.source.Trust}).
 */
final class ReferenceOpener {
    private ReferenceOpener() {}

    /** As {@link ReferenceStore#open}. */
    static ReferenceStore open(DatasetUrl url, StoreResources resources) throws IOException {
        // the reference file without fragment (modes, settings) or credentials
        String location = url.localPath() != null
                ? url.localPath().toString()
                : io.nczarr.error.Redaction.redact(stripFragment(url.uri()));
        HttpSettings httpSettings = resources.httpSettings(url, location);
        ByteLimit limit = new ByteLimit(MemoryLimits.MAX_OBJECT_BYTES, resources.maxObjectBytes());
        StoreKind where = url.referenceLocationKind();
        if (where == StoreKind.DIRECTORY && url.localPath() != null) {
            refuseParquet(location, url.localPath());
        }
        byte[] json;
        try {
            // the resolver reads it: trust rules, credentials and client decided there
            json = resources
                    .sources()
                    .readDocument(
                            url,
                            resources.originOf(url),
                            location,
                            Math.min(limit.bytes(), MemoryLimits.MAX_ARRAY_BYTES))
                    .orElseThrow(() -> new StoreException(
                            location,
                            null,
                            "no such reference file" + (where == StoreKind.HTTP ? " (HTTP 404)" : ""),
                            false,
                            null));
        } catch (ObjectSource.TooLarge e) {
            limit.checkArray(location, null, null, "reference file", e.size());
            throw limit.exceeded(location, null, null, "reference file", e.size(), e);
        } catch (StoreException e) {
            // an HTTP failure names the reference file (S3's and the trust rules' already say what they need)
            if (where != StoreKind.HTTP || e.getClass() != StoreException.class || location.equals(e.dataset())) {
                throw e;
            }
            throw new StoreException(location, null, e.getMessage(), e.isRetryable(), e);
        }
        URI base = url.localPath() != null ? url.localPath().toUri() : url.uri();
        String s3Authority = null;
        if (where == StoreKind.S3 && !"s3".equalsIgnoreCase(base.getScheme())) {
            s3Authority = base.getScheme().toLowerCase(Locale.ROOT) + "://" + base.getRawAuthority();
        }
        if (json.length >= 4 && json[0] == 'P' && json[1] == 'A' && json[2] == 'R' && json[3] == '1') {
            throw parquet(location);
        }
        Map<String, Ref> refs;
        try {
            // the parsed references count against the limit the reference file is read within
            refs = ReferenceFiles.parse(json, stripFragment(base), location, limit);
        } catch (ReferenceFiles.Malformed e) {
            throw new StoreException(location, null, "malformed reference file: " + e.getMessage(), false, null);
        }
        // the targets are named inside this reference file: the trust rules apply to them
        Origin origin = resources.originOf(url).within(stripFragment(base));
        return new ReferenceStore(
                location,
                refs,
                new ReferenceTargets(resources, url.parameters(), s3Authority, httpSettings, origin),
                resources.limits());
    }

    private static URI stripFragment(URI u) throws StoreException {
        if (u.getRawFragment() == null && u.getRawQuery() == null) {
            return u;
        }
        try {
            return new URI(u.getScheme(), u.getRawAuthority(), u.getPath(), null, null);
        } catch (URISyntaxException e) {
            throw new StoreException(u.toString(), null, e.getReason(), false, null);
        }
    }

    /** fsspec's Parquet references: a folder with {@code .zmetadata} holding {@code record_size}, or {@code *.parq}. */
    private static void refuseParquet(String location, Path p) throws IOException {
        Path file = p.getFileName();
        String name = file == null ? "" : file.toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".parq") || name.endsWith(".parquet")) {
            throw parquet(location);
        }
        Path zm = p.resolve(".zmetadata");
        if (Files.isDirectory(p) && Files.isRegularFile(zm) && Files.size(zm) < (1 << 20)) {
            String s = Files.readString(zm);
            if (s.contains("\"record_size\"")) {
                throw parquet(location);
            }
        }
    }

    private static UnsupportedFeatureException parquet(String location) {
        return new UnsupportedFeatureException(
                location,
                null,
                null,
                "Parquet reference files",
                "Parquet references (fsspec LazyReferenceMapper) are read from their folder, not from one record"
                        + " file or as JSON: open the folder holding .zmetadata (a local path, or URL#mode=kerchunk)",
                null);
    }
}
