package io.nczarr.store;

import io.nczarr.error.StoreException;
import io.nczarr.source.LocalFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
import java.util.stream.Stream;

/**
 * A dataset stored as a directory tree (netcdf-c {@code mode=...,file}, zarr-python DirectoryStore).
 * A key is a relative file path; a file that vanishes between the check and the read counts as
 * missing. Other I/O failures are {@link StoreException}s.
 *
 * <p>The store stays inside its root: an object whose real path (symbolic links of the file or of any
 * folder above it resolved) lies outside the dataset directory is refused, as is anything that is not a
 * regular file (a FIFO would block the reader, a device such as {@code /dev/zero} would never end).
 * Both refusals are {@link StoreException}s naming the dataset and the key, not retryable, and they say
 * nothing about the target. A folder where an object is asked for is not an object (empty, as in every
 * store). {@link #list} lists the names in a folder without looking at them: a listed link that leaves
 * the dataset is refused when it is read; listing a folder that itself resolves outside is refused.
 * Links that leave the root are allowed only when the store is opened so
 * ({@code nczarr.store.allowSymlinksOut}); a link inside the dataset to another file inside is always fine.
 */
public final class DirectoryStore implements Store {

    private final Path root;
    private final ByteLimit objectLimit;
    private final boolean allowSymlinksOut;
    /** Folder → its real path (links resolved), bounded: a dataset has few folders, a hostile one many. */
    private final Map<Path, Path> realFolders = new ConcurrentHashMap<>();
    /** Folder key ({@code ""}: the root, {@code "g/temp"}) → its real path, for folders inside the dataset; bounded. */
    private final Map<String, Path> insideFolders = new ConcurrentHashMap<>();

    private static final int MAX_CACHED_FOLDERS = 10_000;

    /** A store whose whole-object reads are bounded by the default object limit for this heap. */
    public DirectoryStore(Path root) throws IOException {
        this(root, MemoryLimits.defaults().maxObjectBytes());
    }

    /** A store whose links must stay inside {@code root}. */
    public DirectoryStore(Path root, long maxObjectBytes) throws IOException {
        this(root, maxObjectBytes, false);
    }

    /**
     * @param allowSymlinksOut whether objects may be symbolic links (or below linked folders) leading out
     *     of {@code root}
     * @throws StoreException when {@code root} is not a readable directory
     */
    public DirectoryStore(Path root, long maxObjectBytes, boolean allowSymlinksOut) throws IOException {
        if (!Files.isDirectory(root)) {
            throw new StoreException(root.toString(), null, "not a directory", false, null);
        }
        try {
            this.root = root.toRealPath();
        } catch (IOException e) {
            throw LocalFailures.of(root.toString(), null, "cannot resolve the directory", e);
        }
        insideFolders.put("", this.root);
        this.objectLimit = new ByteLimit(MemoryLimits.MAX_OBJECT_BYTES, maxObjectBytes);
        this.allowSymlinksOut = allowSymlinksOut;
    }

    public Path root() {
        return root;
    }

    @Override
    public String location() {
        return root.toString();
    }

    private Path resolve(String key) {
        StoreKeys.check(key);
        return key.isEmpty() ? root : root.resolve(key);
    }

    /**
     * The real path of the regular file at {@code key} and its attributes ({@code lstat}), checked before
     * anything is opened; {@code null} when there is none (nothing there, a dangling link, or a folder).
     *
     * @throws StoreException when it leads out of the dataset or is not a regular file
     */
    private Found object(String key) throws IOException {
        Found found = realPath(key);
        if (found == null) {
            return null;
        }
        BasicFileAttributes a = found.attributes();
        if (a == null) {
            try {
                a = Files.readAttributes(found.real(), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (NoSuchFileException e) {
                return null;
            } catch (IOException e) {
                throw LocalFailures.of(location(), key, "cannot read the file", e);
            }
        }
        if (a.isDirectory()) {
            return null;
        }
        if (!a.isRegularFile()) {
            throw refused(key, "not a regular file (a device, FIFO or socket); only regular files are read");
        }
        return found.attributes() == a ? found : new Found(found.real(), a);
    }

    /** Where a key really is, and its attributes when already known (not a link). */
    private record Found(Path real, BasicFileAttributes attributes) {}

    /**
     * Where {@code key} really is, every link resolved; empty when nothing is there. One {@code lstat} of the
     * object when it is not a link itself: its folder's real path is resolved once per store (folders of a
     * dataset do not move while it is read), so a chunk costs no walk of every path component.
     *
     * @throws StoreException when that is outside the dataset and such links are not allowed
     */
    private Found realPath(String key) throws IOException {
        Found known = inKnownFolder(key);
        if (known != null) {
            return known == MISSING ? null : known;
        }
        Path p = resolve(key);
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return null; // the common miss, without the cost of resolving links
        } catch (IOException e) {
            if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                return null; // below a file, say: nothing there
            }
            throw LocalFailures.of(location(), key, "cannot read the file attributes", e);
        }
        Path real;
        Path parent = p.getParent();
        Path name = p.getFileName();
        if (!a.isSymbolicLink() && !key.isEmpty() && parent != null && name != null) {
            Path folder = realFolder(key, parent);
            if (folder == null) {
                return null;
            }
            real = folder.resolve(name);
            if (folder.startsWith(root) && insideFolders.size() < MAX_CACHED_FOLDERS) {
                int slash = key.lastIndexOf('/');
                insideFolders.putIfAbsent(slash < 0 ? "" : key.substring(0, slash), folder);
            }
        } else {
            real = resolveLinks(key, p);
            if (real == null) {
                return null;
            }
            a = null; // the attributes of the link, not of what it leads to
        }
        if (!allowSymlinksOut && !real.startsWith(root)) {
            throw refused(
                    key,
                    "leads outside the dataset directory through a symbolic link; refused (set the system"
                            + " property nczarr.store.allowSymlinksOut=true to allow links out of the dataset)");
        }
        return new Found(real, a);
    }

    /** {@link #inKnownFolder}'s answer for a key with nothing there. */
    private static final Found MISSING = new Found(null, null);

    /**
     * The fast way of {@link #realPath}, for a key in a folder met before and found inside the dataset (chunks
     * after the first of their folder): the real path by the folder's key, no {@link Path} parsing of the key,
     * one {@code lstat}, no confinement check (a name without {@code /}, {@code .} or {@code ..} in a folder
     * inside stays inside). {@link #MISSING} when nothing is there; {@code null} when the slow way must decide
     * (a link, a folder not met, an error).
     */
    private Found inKnownFolder(String key) {
        if (key.isEmpty() || !StoreKeys.isSafe(key)) {
            return null;
        }
        int slash = key.lastIndexOf('/');
        Path folder = insideFolders.get(slash < 0 ? "" : key.substring(0, slash));
        if (folder == null || slash == key.length() - 1) {
            return null;
        }
        Path real = folder.resolve(key.substring(slash + 1));
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(real, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return MISSING;
        } catch (IOException e) {
            return null;
        }
        return a.isSymbolicLink() ? null : new Found(real, a);
    }

    /** The real path of the folder holding {@code key}, from the cache or resolved once; null if it vanished. */
    private Path realFolder(String key, Path folder) throws IOException {
        Path known = realFolders.get(folder);
        if (known != null) {
            return known;
        }
        Path real = resolveLinks(key, folder);
        if (real != null && realFolders.size() < MAX_CACHED_FOLDERS) {
            realFolders.put(folder, real);
        }
        return real;
    }

    private Path resolveLinks(String key, Path p) throws IOException {
        try {
            return p.toRealPath();
        } catch (NoSuchFileException e) {
            return null; // a dangling link, or removed meanwhile
        } catch (IOException e) {
            throw LocalFailures.of(location(), key, "cannot resolve the path", e);
        }
    }

    /** A refusal that trying again will not change; it names the key only, never what the link points at. */
    private StoreException refused(String key, String why) {
        return new StoreException(location(), key, why, false, null);
    }

    @Override
    public Optional<byte[]> get(String key) throws IOException {
        return get(key, objectLimit);
    }

    @Override
    public Optional<byte[]> get(String key, ByteLimit limit) throws IOException {
        Found found = object(key);
        if (found == null) {
            return Optional.empty();
        }
        // the size is checked before the open (the lstat just made), and no more than that size is read even if
        // the file grows
        long size = found.attributes().size();
        limit.checkArray(location(), key, null, "file", size);
        try (FileChannel ch = LocalFiles.openLookedAt(found.real())) {
            return Optional.of(read(ch, size, 0, (int) size));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw LocalFailures.of(location(), key, "cannot read the file", e);
        }
    }

    /** Bytes read per call into a caller's buffer. */
    private static final int READ_SLICE = 256 << 10;

    /** As {@link #get(String)}, into {@code buffers}' buffer: the chunk reader reuses one per thread. */
    @Override
    public Optional<ByteBuffer> get(String key, IntFunction<ByteBuffer> buffers) throws IOException {
        Found found = object(key);
        if (found == null) {
            return Optional.empty();
        }
        long size = found.attributes().size();
        objectLimit.checkArray(location(), key, null, "file", size);
        try (FileChannel ch = LocalFiles.openLookedAt(found.real())) {
            int n = (int) size;
            ByteBuffer into = buffers.apply(n).clear();
            int pos = 0;
            while (pos < n) {
                // a heap buffer in slices: the JDK reads it through a native one of the same size, kept per thread
                into.limit(into.isDirect() ? n : Math.min(n, pos + READ_SLICE)).position(pos);
                int r = ch.read(into, pos);
                if (r < 0) {
                    break; // shrunk while read: what is there
                }
                pos += r;
            }
            return Optional.of(into.limit(pos).position(0));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw LocalFailures.of(location(), key, "cannot read the file", e);
        }
    }

    @Override
    public Optional<byte[]> getRange(String key, long offset, int length) throws IOException {
        StoreLimits.checkRange(offset, length);
        Found found = object(key);
        if (found == null) {
            return Optional.empty();
        }
        try (FileChannel ch = LocalFiles.openLookedAt(found.real())) {
            return Optional.of(read(ch, ch.size(), offset, length));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw LocalFailures.of(location(), key, "cannot read the file", e);
        }
    }

    @Override
    public Optional<byte[]> getSuffix(String key, int length) throws IOException {
        StoreLimits.checkRange(0, length);
        Found found = object(key);
        if (found == null) {
            return Optional.empty();
        }
        try (FileChannel ch = LocalFiles.openLookedAt(found.real())) {
            long size = ch.size();
            return Optional.of(read(ch, size, Math.max(0, size - length), length));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw LocalFailures.of(location(), key, "cannot read the file", e);
        }
    }

    /** Up to {@code length} bytes at {@code offset} of a file of {@code size} bytes; fewer at its end, none past it. */
    private static byte[] read(FileChannel ch, long size, long offset, int length) throws IOException {
        int n = (int) Math.max(0, Math.min(length, size - offset));
        ByteBuffer buf = ByteBuffer.allocate(n);
        long pos = offset;
        while (buf.hasRemaining()) {
            int r = ch.read(buf, pos);
            if (r < 0) {
                break;
            }
            pos += r;
        }
        return buf.position() == n ? buf.array() : Arrays.copyOf(buf.array(), buf.position());
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        String dirKey = StoreKeys.trim(prefix);
        Found found = realPath(dirKey);
        if (found == null || !Files.isDirectory(found.real(), LinkOption.NOFOLLOW_LINKS)) {
            return List.of();
        }
        Path dir = found.real();
        List<String> names = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.forEach(p -> names.add(p.getFileName().toString()));
        } catch (NoSuchFileException | NotDirectoryException e) {
            return List.of();
        } catch (IOException e) {
            throw LocalFailures.of(location(), dirKey, "cannot list the directory", e);
        } catch (UncheckedIOException e) {
            // an entry that could not be read while the listing was walked
            throw LocalFailures.of(location(), dirKey, "cannot list the directory", e.getCause());
        }
        Collections.sort(names);
        return names;
    }

    @Override
    public void close() {
        // nothing held open
    }

    @Override
    public String toString() {
        return "DirectoryStore[" + root + "]";
    }
}
