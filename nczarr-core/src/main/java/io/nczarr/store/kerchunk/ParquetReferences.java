package io.nczarr.store.kerchunk;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.error.Redaction;
import io.nczarr.error.StoreException;
import io.nczarr.store.DirectoryStore;
import io.nczarr.store.Store;
import io.nczarr.store.StoreKeys;
import io.nczarr.store.StoreResources;
import io.nczarr.store.Stores;
import io.nczarr.url.DatasetUrl;
import io.nczarr.url.DatasetUrl.StoreKind;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Finding and opening fsspec's Parquet references ({@link ParquetReferenceStore}): which URLs name them, the
 * folder's {@code .zmetadata} ({@code metadata} + {@code record_size}) and the chunk grid of each array, which
 * maps a chunk key to its record.
 */
public final class ParquetReferences {
    /**
     * Bare {@code NaN}/{@code Infinity} tokens are read (VirtualiZarr's Parquet writer puts xarray's {@code
     * "_FillValue": NaN} in {@code .zmetadata}, as the JSON references hold it) and written back as tokens, not
     * strings, so the metadata objects handed on read as they were written. In a holder class: every local open
     * asks {@link #isParquetFolder}, and an {@code ObjectMapper} costs some 300 classes on first use.
     */
    private static final class Json {
        static final ObjectMapper MAPPER = JsonMapper.builder()
                .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
                .disable(com.fasterxml.jackson.core.json.JsonWriteFeature.WRITE_NAN_AS_STRINGS)
                .build();
    }

    /** How much of the head and of the tail of a local {@code .zmetadata} is looked at for {@code record_size}. */
    private static final int SNIFF = 4096;

    private ParquetReferences() {}

    /** The folder's metadata objects (plus a consolidated {@code .zmetadata}), chunk grids and record size. */
    record Layout(Map<String, byte[]> metadata, NavigableMap<String, long[]> grids, long recordSize) {}

    /**
     * Whether local {@code p} is a Parquet reference folder (or its {@code .zmetadata}): a {@code .zmetadata}
     * naming a {@code record_size}, which consolidated Zarr metadata never has.
     */
    public static boolean isParquetFolder(Path p) {
        Path name = p.getFileName();
        Path zm = name != null && name.toString().equals(".zmetadata") ? p : p.resolve(".zmetadata");
        try {
            if (!Files.isRegularFile(zm)) {
                return false;
            }
            long size = Files.size(zm);
            try (InputStream in = Files.newInputStream(zm)) {
                byte[] head = in.readNBytes(SNIFF);
                if (contains(head)) {
                    return true;
                }
                if (size > 2L * SNIFF) {
                    in.skipNBytes(size - 2L * SNIFF);
                }
                return contains(in.readNBytes(SNIFF));
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static boolean contains(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1).contains("\"record_size\"");
    }

    /**
     * Whether a {@code kerchunk} URL names Parquet references rather than a JSON reference file: a local
     * directory (or its {@code .zmetadata}, or a {@code .parq} file, refused with a hint); remotely (nothing can be listed) a path ending in {@code /}, {@code
     * .parq}, {@code .parquet} or {@code /.zmetadata}.
     */
    public static boolean namesParquet(DatasetUrl url) {
        if (url.localPath() != null) {
            Path p = url.localPath();
            Path name = p.getFileName();
            String n = name == null ? "" : name.toString().toLowerCase(Locale.ROOT);
            return Files.isDirectory(p) || n.equals(".zmetadata") || n.endsWith(".parq") || n.endsWith(".parquet");
        }
        String path = url.uri() == null || url.uri().getPath() == null
                ? ""
                : url.uri().getPath();
        String lower = path.toLowerCase(Locale.ROOT);
        return lower.endsWith("/")
                || lower.endsWith(".parq")
                || lower.endsWith(".parquet")
                || lower.endsWith("/.zmetadata");
    }

    /** Opens the Parquet references {@code url} names: a local folder, an S3 prefix or an HTTP folder. */
    public static ParquetReferenceStore open(DatasetUrl url, StoreResources resources) throws IOException {
        StoreKind where = url.referenceLocationKind();
        Store folder;
        URI base;
        String s3Authority = null;
        boolean remote = true;
        if (url.localPath() != null) {
            Path p = url.localPath();
            Path name = p.getFileName();
            Path parent = p.getParent();
            if (name != null && name.toString().equals(".zmetadata") && parent != null) {
                p = parent;
            }
            if (Files.isRegularFile(p)) {
                throw new StoreException(
                        p.toString(),
                        null,
                        "a .parq file is one record file of Parquet references: open the folder holding .zmetadata",
                        false,
                        null);
            }
            if (!Files.isDirectory(p)) {
                throw new StoreException(p.toString(), null, "no such Parquet reference folder", false, null);
            }
            folder = new DirectoryStore(p, resources.maxObjectBytes(), resources.allowSymlinksOut());
            base = withoutSlash(p.toAbsolutePath().toUri());
            remote = false;
        } else {
            URI u = withoutSlash(folderOf(url.uri()));
            DatasetUrl folderUrl = url.withMode(io.nczarr.url.Mode.KERCHUNK, u);
            if (where == StoreKind.S3) {
                folder = Stores.open(folderUrl, StoreKind.S3, resources);
                if (!"s3".equalsIgnoreCase(u.getScheme())) {
                    s3Authority = u.getScheme().toLowerCase(Locale.ROOT) + "://" + u.getRawAuthority();
                }
            } else {
                folder = Stores.open(folderUrl, StoreKind.HTTP, resources);
            }
            base = u;
        }
        String location = remote ? Redaction.redact(base) : folder.location();
        try {
            byte[] zm = folder.get(".zmetadata", resources.limits().metadata())
                    .orElseThrow(() -> new StoreException(
                            location,
                            ".zmetadata",
                            "no .zmetadata: not a Parquet reference folder (fsspec LazyReferenceMapper)",
                            false,
                            null));
            Layout layout = parse(zm, location);
            // the record files name the targets: the trust rules apply to them as to a JSON reference file
            ReferenceTargets targets = new ReferenceTargets(
                    resources,
                    url.parameters(),
                    s3Authority,
                    resources.httpSettings(url, location),
                    resources.originOf(url).within(base));
            return new ParquetReferenceStore(location, folder, layout, base, targets, resources.limits(), remote);
        } catch (IOException | RuntimeException e) {
            folder.close();
            throw e;
        }
    }

    /** The URL of the folder: without fragment and query, and without a trailing {@code /.zmetadata}. */
    private static URI folderOf(URI u) throws StoreException {
        String path = u.getPath() == null ? "" : u.getPath();
        if (path.endsWith("/.zmetadata")) {
            path = path.substring(0, path.length() - ".zmetadata".length());
        }
        try {
            return new URI(u.getScheme(), u.getRawAuthority(), path, null, null);
        } catch (URISyntaxException e) {
            throw new StoreException(Redaction.redact(u), null, e.getReason(), false, null);
        }
    }

    /** Relative targets resolve against the folder as against a reference file: they are its siblings. */
    private static URI withoutSlash(URI u) {
        String s = u.toString();
        return s.endsWith("/") && s.length() > 1 ? URI.create(s.substring(0, s.length() - 1)) : u;
    }

    /** Parses {@code .zmetadata}: {@code record_size} (a positive integer) and the {@code metadata} object. */
    static Layout parse(byte[] zmetadata, String location) throws StoreException {
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(zmetadata);
        } catch (JacksonException e) {
            throw malformed(location, "not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw malformed(location, e.toString());
        }
        if (root == null || !root.isObject()) {
            throw malformed(location, "not a JSON object");
        }
        JsonNode rs = root.get("record_size");
        if (rs == null || !rs.isIntegralNumber() || !rs.canConvertToLong() || rs.asLong() < 1) {
            throw malformed(location, "record_size must be a positive integer, not " + rs);
        }
        JsonNode meta = root.get("metadata");
        if (meta == null || !meta.isObject()) {
            throw malformed(location, "no \"metadata\" object");
        }
        Map<String, byte[]> metadata = new HashMap<>();
        NavigableMap<String, long[]> grids = new TreeMap<>();
        ObjectNode consolidated = Json.MAPPER.createObjectNode();
        for (Map.Entry<String, JsonNode> e : meta.properties()) {
            String key = e.getKey();
            if (!StoreKeys.isSafe(key) || key.equals(".zmetadata")) {
                throw malformed(location, "illegal metadata key '" + ReferenceFiles.abbreviate(key) + "'");
            }
            JsonNode v = e.getValue();
            try {
                metadata.put(
                        key,
                        v.isTextual() ? v.asText().getBytes(StandardCharsets.UTF_8) : Json.MAPPER.writeValueAsBytes(v));
            } catch (JacksonException x) {
                throw malformed(location, key + ": " + x.getOriginalMessage());
            }
            if (v.isObject()) {
                consolidated.set(key, v);
            }
            if (key.equals(".zarray") || key.endsWith("/.zarray")) {
                long[] grid = grid(v);
                if (grid != null) {
                    grids.put(key.equals(".zarray") ? "" : key.substring(0, key.length() - "/.zarray".length()), grid);
                }
            }
        }
        ObjectNode zm = Json.MAPPER.createObjectNode();
        zm.put("zarr_consolidated_format", 1);
        zm.set("metadata", consolidated);
        try {
            metadata.put(".zmetadata", Json.MAPPER.writeValueAsBytes(zm));
        } catch (JacksonException x) {
            throw malformed(location, x.getOriginalMessage());
        }
        return new Layout(metadata, grids, rs.asLong());
    }

    /** Chunks per dimension ({@code [1]} for a 0-d array), or {@code null} when shape/chunks are unusable. */
    private static long[] grid(JsonNode zarray) {
        JsonNode shape = zarray.get("shape");
        JsonNode chunks = zarray.get("chunks");
        if (shape == null || chunks == null || !shape.isArray() || !chunks.isArray() || shape.size() != chunks.size()) {
            return null;
        }
        if (shape.isEmpty()) {
            return new long[] {1};
        }
        long[] g = new long[shape.size()];
        for (int i = 0; i < g.length; i++) {
            JsonNode s = shape.get(i);
            JsonNode c = chunks.get(i);
            if (!s.canConvertToLong() || !c.canConvertToLong() || s.asLong() < 0 || c.asLong() < 1) {
                return null;
            }
            g[i] = (s.asLong() + c.asLong() - 1) / c.asLong();
        }
        return g;
    }

    /**
     * The C-order index of chunk {@code id} ({@code i.j.k}) over {@code grid}, or {@code -1} when it is no chunk
     * of that grid (wrong rank, not a number, out of range).
     */
    static long chunkNumber(String id, long[] grid) {
        String[] parts = id.split("\\.", -1);
        if (parts.length != grid.length) {
            return -1;
        }
        long n = 0;
        for (int i = 0; i < parts.length; i++) {
            String s = parts[i];
            if (s.isEmpty() || s.length() > 18 || !s.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return -1;
            }
            long v = Long.parseLong(s);
            if (v >= grid[i]) {
                return -1;
            }
            try {
                n = Math.addExact(Math.multiplyExact(n, grid[i]), v);
            } catch (ArithmeticException e) {
                return -1;
            }
        }
        return n;
    }

    private static StoreException malformed(String location, String why) {
        return new StoreException(
                location, ".zmetadata", "malformed Parquet reference .zmetadata: " + why, false, null);
    }
}
