package io.nczarr.store;

import io.nczarr.error.StoreException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A dataset stored as a directory tree (netcdf-c {@code mode=...,file}, zarr-python DirectoryStore).
 * A key is a relative file path; a file that vanishes between the check and the read counts as
 * missing. Other I/O failures are {@link StoreException}s.
 */
public final class DirectoryStore implements Store {

    private final Path root;
    private final ByteLimit objectLimit;

    /** A store whose whole-object reads are bounded by the default object limit for this heap. */
    public DirectoryStore(Path root) throws IOException {
        this(root, MemoryLimits.defaults().maxObjectBytes());
    }

    /** @throws StoreException when {@code root} is not a readable directory */
    public DirectoryStore(Path root, long maxObjectBytes) throws IOException {
        if (!Files.isDirectory(root)) {
            throw new StoreException(root.toString(), null, "not a directory", false, null);
        }
        try {
            this.root = root.toRealPath();
        } catch (IOException e) {
            throw LocalFailures.of(root.toString(), null, "cannot resolve the directory", e);
        }
        this.objectLimit = new ByteLimit(MemoryLimits.MAX_OBJECT_BYTES, maxObjectBytes);
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

    @Override
    public Optional<byte[]> get(String key) throws IOException {
        return get(key, objectLimit);
    }

    @Override
    public Optional<byte[]> get(String key, ByteLimit limit) throws IOException {
        Path p = resolve(key);
        if (!Files.isRegularFile(p)) {
            return Optional.empty();
        }
        // the size is checked on the open file, and no more than that size is read even if it grows
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
            long size = ch.size();
            limit.checkArray(location(), key, null, "file", size);
            return Optional.of(read(ch, 0, (int) size));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw LocalFailures.of(location(), key, "cannot read the file", e);
        }
    }

    @Override
    public Optional<byte[]> getRange(String key, long offset, int length) throws IOException {
        StoreLimits.checkRange(offset, length);
        Path p = resolve(key);
        if (!Files.isRegularFile(p)) {
            return Optional.empty();
        }
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
            return Optional.of(read(ch, offset, length));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw LocalFailures.of(location(), key, "cannot read the file", e);
        }
    }

    /** Up to {@code length} bytes at {@code offset}; fewer at the end of the file, none past it. */
    private static byte[] read(FileChannel ch, long offset, int length) throws IOException {
        int n = (int) Math.max(0, Math.min(length, ch.size() - offset));
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
        Path dir = resolve(dirKey);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
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
