package io.nczarr.store;

import io.nczarr.error.StoreException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;

/**
 * A dataset stored in a zip file. Two layouts occur: netcdf-c's (entry 0 is a directory
 * {@code NAME/} and every key is below it) and zarr-python's ZipStore (keys at the top level).
 * Entries whose names are absolute or contain {@code ..} make the open fail: such an archive was
 * not written by either tool and a key must never resolve outside the dataset. A corrupt archive
 * or entry is a {@link StoreException} that is not retryable.
 */
public final class ZipStore implements Store {

    private static final String[] ROOT_MARKERS = {".zgroup", ".zarray", ".zattrs", ".zmetadata", ".nczarr"};

    private final Path file;
    private final ZipFile zip;
    private final String rootPrefix;
    /** dataset key -> entry */
    private final Map<String, ZipEntry> entries;
    /** dataset "folder" key -> child names */
    private final Map<String, TreeSet<String>> children;

    private final long maxObjectBytes;

    public ZipStore(Path file) throws IOException {
        this(file, StoreLimits.DEFAULT_MAX_OBJECT_BYTES);
    }

    public ZipStore(Path file, long maxObjectBytes) throws IOException {
        this.file = file;
        this.maxObjectBytes = maxObjectBytes;
        try {
            this.zip = new ZipFile(file.toFile());
        } catch (ZipException e) {
            throw new StoreException(
                    file.toString(), null, "not a readable zip file (" + e.getMessage() + ")", false, e);
        } catch (IOException e) {
            throw LocalFailures.of(file.toString(), null, "cannot open the zip file", e);
        }
        try {
            List<String> names = new ArrayList<>();
            Map<String, ZipEntry> byName = new HashMap<>();
            Enumeration<? extends ZipEntry> en = zip.entries();
            while (en.hasMoreElements()) {
                ZipEntry e = en.nextElement();
                String name = e.getName();
                String trimmed = StoreKeys.trim(name);
                if (name.startsWith("/") || !StoreKeys.isSafe(trimmed)) {
                    throw new StoreException(
                            file.toString(),
                            null,
                            "zip entry '" + name + "' is absolute or contains '..'; refusing to open the archive",
                            false,
                            null);
                }
                names.add(name);
                if (!e.isDirectory()) {
                    byName.put(trimmed, e);
                }
            }
            this.rootPrefix = findRoot(names, byName);
            this.entries = new HashMap<>();
            this.children = new HashMap<>();
            for (Map.Entry<String, ZipEntry> e : byName.entrySet()) {
                String name = e.getKey();
                if (!name.startsWith(rootPrefix)) {
                    continue;
                }
                String key = name.substring(rootPrefix.length());
                if (key.isEmpty()) {
                    continue;
                }
                entries.put(key, e.getValue());
                addParents(key);
            }
        } catch (IOException | RuntimeException e) {
            zip.close();
            throw e;
        }
    }

    /** "" for the root layout, "NAME/" for netcdf-c's layout. */
    private static String findRoot(List<String> names, Map<String, ZipEntry> files) {
        for (String m : ROOT_MARKERS) {
            if (files.containsKey(m)) {
                return "";
            }
        }
        if (!names.isEmpty()) {
            String first = StoreKeys.trim(names.get(0));
            int slash = first.indexOf('/');
            String top = slash < 0 ? first : first.substring(0, slash);
            if (!top.isEmpty() && !files.containsKey(top)) {
                return top + "/";
            }
        }
        return "";
    }

    private void addParents(String key) {
        String child = key;
        int slash;
        while ((slash = child.lastIndexOf('/')) >= 0) {
            String parent = child.substring(0, slash);
            children.computeIfAbsent(parent, k -> new TreeSet<>()).add(child.substring(slash + 1));
            child = parent;
        }
        children.computeIfAbsent("", k -> new TreeSet<>()).add(child);
    }

    /** The folder inside the zip that holds the dataset ({@code ""} for the root layout). */
    public String rootPrefix() {
        return rootPrefix;
    }

    @Override
    public String location() {
        return file.toString();
    }

    @Override
    public Optional<byte[]> get(String key) throws IOException {
        ZipEntry e = entries.get(StoreKeys.check(key));
        if (e == null) {
            return Optional.empty();
        }
        long declared = e.getSize();
        if (declared >= 0) {
            StoreLimits.checkObjectSize(location(), key, declared, maxObjectBytes);
        }
        long limit = declared >= 0 ? declared : maxObjectBytes;
        try (InputStream in = zip.getInputStream(e)) {
            // never trust the declared size alone: read at most limit + 1 bytes and compare
            byte[] data = in.readNBytes((int) Math.min(limit + 1, Integer.MAX_VALUE - 16));
            if (data.length > limit) {
                throw corrupt(
                        key,
                        "zip entry '" + e.getName() + "' inflates past its declared size of " + limit + " bytes",
                        null);
            }
            if (declared >= 0 && data.length != declared) {
                throw corrupt(
                        key,
                        "zip entry '" + e.getName() + "' is truncated (" + data.length + " of " + declared + " bytes)",
                        null);
            }
            return Optional.of(data);
        } catch (ZipException ex) {
            throw corrupt(key, "corrupt zip entry '" + e.getName() + "': " + ex.getMessage(), ex);
        } catch (IOException ex) {
            throw LocalFailures.of(location(), key, "cannot read zip entry '" + e.getName() + "'", ex);
        }
    }

    /** The archive does not hold what its directory promises: reading again gives the same. */
    private StoreException corrupt(String key, String detail, Throwable cause) {
        return new StoreException(location(), key, detail, false, cause);
    }

    @Override
    public Optional<byte[]> getRange(String key, long offset, int length) throws IOException {
        StoreLimits.checkRange(offset, length);
        Optional<byte[]> whole = get(key);
        if (whole.isEmpty()) {
            return whole;
        }
        byte[] b = whole.get();
        int from = (int) Math.min(b.length, offset);
        int to = (int) Math.min(b.length, (long) from + length);
        return Optional.of(java.util.Arrays.copyOfRange(b, from, to));
    }

    @Override
    public List<String> list(String prefix) {
        TreeSet<String> c = children.get(StoreKeys.check(StoreKeys.trim(prefix)));
        return c == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(c));
    }

    @Override
    public void close() throws IOException {
        zip.close();
    }

    @Override
    public String toString() {
        return "ZipStore[" + file + (rootPrefix.isEmpty() ? "" : "!/" + rootPrefix) + "]";
    }
}
