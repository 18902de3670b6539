package io.nczarr.source;

import io.nczarr.error.StoreException;
import io.nczarr.http.RequestStats;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * One local file as an {@link ObjectSource}: a regular file only (a FIFO, device, socket or directory is
 * refused from its attributes before anything opens it, and checked again at every read, since the file may
 * be replaced), read through an {@link OpenFiles} pool (given: shared and bounded, closed by its owner; or
 * its own of one channel). Thread-safe.
 */
public final class LocalObjectSource implements ObjectSource {
    private final Path path;
    private final String location;
    private final OpenFiles files;
    private final boolean ownsFiles;
    private final RequestStats stats = new RequestStats();
    private volatile boolean closed;

    private LocalObjectSource(Path path, OpenFiles files, boolean ownsFiles) {
        this.path = path;
        this.location = path.toString();
        this.files = files;
        this.ownsFiles = ownsFiles;
    }

    /** A source reading {@code path} with a channel of its own, closed with the source. */
    public static LocalObjectSource open(Path path) throws IOException {
        return open(path, new OpenFiles(1), true);
    }

    /** A source reading {@code path} through the shared pool {@code files} (left open by {@link #close}). */
    public static LocalObjectSource open(Path path, OpenFiles files) throws IOException {
        return open(path, files, false);
    }

    private static LocalObjectSource open(Path path, OpenFiles files, boolean owns) throws IOException {
        Path p = path.toAbsolutePath().normalize();
        LocalObjectSource s = new LocalObjectSource(p, Objects.requireNonNull(files, "files"), owns);
        s.refuseNonRegular();
        return s;
    }

    private void refuseNonRegular() throws StoreException {
        String why = LocalTargets.refusal(path, LocalTargets.Kind.REGULAR_FILE);
        if (why != null) {
            throw new StoreException(location, null, "the file is " + why, false, null);
        }
    }

    private OpenFiles.Lease lease() throws IOException {
        if (closed) {
            throw new StoreException(location, null, "closed", false, null);
        }
        // checked again at every open: the file may have been replaced by a FIFO since
        refuseNonRegular();
        try {
            return files.lease(path);
        } catch (NoSuchFileException e) {
            throw SourceFailures.missing(location, "the file does not exist", e);
        } catch (IOException e) {
            throw new StoreException(location, null, "cannot read the file: " + e, false, e);
        }
    }

    @Override
    public long length() throws IOException {
        try (OpenFiles.Lease f = lease()) {
            return f.size();
        }
    }

    @Override
    public int read(long offset, byte[] buf, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, buf.length);
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
        try (OpenFiles.Lease f = lease()) {
            if (len == 0) {
                return 0;
            }
            long size = f.size();
            if (offset >= size) {
                return -1;
            }
            int n = (int) Math.min(len, size - offset);
            stats.countGet();
            if (!f.read(ByteBuffer.wrap(buf, off, n), offset)) {
                throw new StoreException(
                        location, null, "the file ended while reading " + n + " bytes at " + offset, false, null);
            }
            stats.countBytes(n);
            return n;
        }
    }

    @Override
    public String location() {
        return location;
    }

    @Override
    public long lastModified() {
        return path.toFile().lastModified();
    }

    @Override
    public RequestStats stats() {
        return stats;
    }

    @Override
    public void close() {
        closed = true;
        if (ownsFiles) {
            files.close();
        }
    }

    @Override
    public String toString() {
        return "LocalObjectSource[" + location + "]";
    }
}
