package io.nczarr.store;

import io.nczarr.error.StoreException;
import io.nczarr.source.LocalFiles;
import java.io.EOFException;
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
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;

/**
 * A dataset stored in a zip file. Two layouts occur: netcdf-c's (entry 0 is a directory
 * {@code NAME/} and every key is below it) and zarr-python's ZipStore (keys at the top level).
 * Entries whose names are absolute or contain {@code ..} make the open fail: such an archive was
 * not written by either tool and a key must never resolve outside the dataset; so do two entries of the
 * same name. A corrupt archive or entry is a {@link StoreException} that is not retryable: an entry
 * that inflates to more or less than its declared size, fails its CRC-32, or is not where the zip
 * directory says. Reads are bounded by the declared size, which is checked against the memory limit
 * before anything is inflated.
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

    private final ByteLimit objectLimit;

    /** A store whose whole-object reads are bounded by the default object limit for this heap. */
    public ZipStore(Path file) throws IOException {
        this(file, MemoryLimits.defaults().maxObjectBytes());
    }

    public ZipStore(Path file, long maxObjectBytes) throws IOException {
        this.file = file;
        this.objectLimit = new ByteLimit(MemoryLimits.MAX_OBJECT_BYTES, maxObjectBytes);
        try {
            this.zip = LocalFiles.openZip(file);
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
                if (!e.isDirectory() && byName.put(trimmed, e) != null) {
                    // which of the two is the data is anyone's guess (tools differ), so neither is read
                    throw new StoreException(
                            file.toString(),
                            null,
                            "zip entry '" + name + "' occurs more than once; refusing to open the archive",
                            false,
                            null);
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
            if (!children.computeIfAbsent(parent, k -> new TreeSet<>()).add(child.substring(slash + 1))) {
                return; // known already, and so are its parents (a deep tree stays linear, issue 21 #7)
            }
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
        return get(key, objectLimit);
    }

    /**
     * The entry, refused before anything is inflated when its declared size is over {@code limit}; then
     * read to exactly that size (an entry that inflates past it is corrupt, never read on) and checked
     * against its CRC-32.
     */
    @Override
    public Optional<byte[]> get(String key, ByteLimit limit) throws IOException {
        ZipEntry e = entries.get(StoreKeys.check(key));
        if (e == null) {
            return Optional.empty();
        }
        String what = "zip entry '" + e.getName() + "'";
        long declared = e.getSize();
        if (declared < 0) {
            throw corrupt(key, what + " has no size in the zip directory", null);
        }
        limit.checkArray(location(), key, null, what, declared);
        try (InputStream in = zip.getInputStream(e)) {
            return Optional.of(readEntry(key, e, in, (int) declared));
        } catch (ZipException ex) {
            String where = String.valueOf(ex.getMessage()).contains("LOC header")
                    ? " (the zip directory's local header offset does not point at one)"
                    : "";
            throw corrupt(key, "corrupt " + what + ": " + ex.getMessage() + where, ex);
        } catch (EOFException ex) {
            // java.util.zip says only "EOFException" (no message) when the local header is not where the directory says
            throw corrupt(
                    key,
                    what + " lies past the end of the archive (a bogus local header offset, or a truncated file)",
                    ex);
        } catch (IOException ex) {
            throw LocalFailures.of(location(), key, "cannot read " + what, ex);
        }
    }

    /** Exactly {@code size} bytes of the entry, never more, with the CRC-32 its directory entry promises. */
    private byte[] readEntry(String key, ZipEntry e, InputStream in, int size) throws IOException {
        String what = "zip entry '" + e.getName() + "'";
        byte[] data = new byte[size];
        int n = in.readNBytes(data, 0, size);
        if (n < size) {
            throw corrupt(key, what + " is truncated (" + n + " of " + size + " bytes)", null);
        }
        if (in.read() >= 0) {
            throw corrupt(key, what + " inflates past its declared size of " + size + " bytes", null);
        }
        if (e.getCrc() != -1) {
            CRC32 crc = new CRC32();
            crc.update(data);
            if (crc.getValue() != e.getCrc()) {
                throw corrupt(
                        key,
                        what + " fails its CRC-32 check (" + Long.toHexString(crc.getValue())
                                + ", the zip directory says " + Long.toHexString(e.getCrc()) + ")",
                        null);
            }
        }
        return data;
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
