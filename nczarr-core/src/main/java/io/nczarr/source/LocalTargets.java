package io.nczarr.source;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Local paths of document-named targets: the path of a {@code file:} URI, its real path (links resolved) for
 * the root check, and the kind of file it is, read from its attributes before anything opens it (opening a
 * FIFO blocks until a writer comes).
 */
public final class LocalTargets {
    private LocalTargets() {}

    /** What a local target may be. */
    public enum Kind {
        /** Byte ranges of a regular file (kerchunk targets). */
        REGULAR_FILE,
        /** A regular file or a directory (a Zarr store as an aggregation fragment). */
        FILE_OR_DIRECTORY
    }

    /** The path of a {@code file:} URI, or null when it names none (another host, a bad path). */
    public static Path pathOf(URI target) {
        try {
            URI u = target;
            if (u.getRawFragment() != null || u.getRawQuery() != null) {
                u = new URI(u.getScheme(), u.getRawAuthority(), u.getPath(), null, null);
            }
            return Paths.get(u).toAbsolutePath().normalize();
        } catch (IllegalArgumentException | FileSystemNotFoundException | java.net.URISyntaxException e) {
            return null;
        }
    }

    /** The real path (every link resolved) when the file exists; else the normalized absolute path. */
    public static Path real(Path p) {
        Path a = p.toAbsolutePath().normalize();
        try {
            return a.toRealPath();
        } catch (IOException | SecurityException e) {
            // a missing file: its existing parent's real path, so that a link to a missing name is judged too
            Path parent = a.getParent();
            if (parent != null && !parent.equals(a)) {
                Path rp = real(parent);
                Path name = a.getFileName();
                return name == null ? rp : rp.resolve(name);
            }
            return a;
        }
    }

    /**
     * Why {@code p} may not be read as {@code kind} (a FIFO, a device, a socket, a directory where a file is
     * wanted), or null when it may (or does not exist: the read then says so). Reads attributes only.
     */
    public static String refusal(Path p, Kind kind) {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(p, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException | SecurityException e) {
            return "cannot read its attributes: " + e.getMessage();
        }
        if (a.isRegularFile()) {
            return null;
        }
        if (a.isDirectory()) {
            return kind == Kind.FILE_OR_DIRECTORY ? null : "a directory, not a regular file";
        }
        return "not a regular file (a FIFO, device or socket)";
    }
}
