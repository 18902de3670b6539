package io.nczarr.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** A dataset stored as a directory tree (netcdf-c {@code mode=...,file}, zarr-python DirectoryStore). */
public final class DirectoryStore implements Store {

    private final Path root;
    private final long maxObjectBytes;

    public DirectoryStore(Path root) throws IOException {
        this(root, StoreLimits.DEFAULT_MAX_OBJECT_BYTES);
    }

    public DirectoryStore(Path root, long maxObjectBytes) throws IOException {
        if (!Files.isDirectory(root)) {
            throw new NoSuchFileException(root.toString(), null, "not a directory");
        }
        this.root = root.toRealPath();
        this.maxObjectBytes = maxObjectBytes;
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
        Path p = resolve(key);
        if (!Files.isRegularFile(p)) {
            return Optional.empty();
        }
        long size;
        try {
            size = Files.size(p);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        StoreLimits.checkObjectSize(location(), key, size, maxObjectBytes);
        try {
            return Optional.of(Files.readAllBytes(p));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    @Override
    public Optional<byte[]> getRange(String key, long offset, int length) throws IOException {
        Path p = resolve(key);
        if (!Files.isRegularFile(p)) {
            return Optional.empty();
        }
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
            long size = ch.size();
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
            return Optional.of(buf.position() == n ? buf.array() : java.util.Arrays.copyOf(buf.array(), buf.position()));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        Path dir = resolve(StoreKeys.trim(prefix));
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<String> names = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.forEach(p -> names.add(p.getFileName().toString()));
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
