package io.nczarr.source;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Enumeration;
import java.util.Locale;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The local half of the door: every file channel and zip archive the library reads is opened here (the
 * directory and zip stores receive them, {@link LocalObjectSource} pools its own through {@link OpenFiles}), and
 * the look at a local path that decides its store kind (zip or folder) is made here. Only regular files are ever
 * opened (a FIFO would block the reader forever).
 */
public final class LocalFiles {
    private LocalFiles() {}

    /**
     * A channel reading the regular file {@code p}, which the caller has confined (no link followed at the last
     * step); a FIFO, device or socket is refused before it is opened.
     */
    public static FileChannel openRegular(Path p) throws IOException {
        if (Files.exists(p, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(p + ": not a regular file (a FIFO, device, socket or link)");
        }
        return FileChannel.open(p, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * As {@link #openRegular}, for a path the caller has itself just found to be a regular file (an {@code lstat},
     * as the directory store makes of every object before it reads it): no second look before the open, which
     * for a small chunk was two of its eight system calls. The open still follows no link at the last step.
     */
    public static FileChannel openLookedAt(Path p) throws IOException {
        return FileChannel.open(p, READ_NO_LINK);
    }

    /** The options of {@link #openLookedAt}, made once (the varargs form builds a set per open). */
    private static final Set<OpenOption> READ_NO_LINK = Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);

    /** The zip archive {@code p} (a regular file), open; the caller closes it. */
    public static ZipFile openZip(Path p) throws IOException {
        if (!Files.isRegularFile(p)) {
            throw new IOException(p + ": not a regular file");
        }
        return new ZipFile(p.toFile());
    }

    /**
     * Whether a local path is a zip file rather than a directory store: not a directory, and named {@code *.zip}
     * (even before it exists) or starting with {@code PK\3\4}. An unreadable file is not a zip here; opening it as
     * a directory then reports it.
     */
    public static boolean looksLikeZip(Path p) {
        if (Files.isDirectory(p)) {
            return false;
        }
        Path name = p.getFileName();
        if (name != null && name.toString().toLowerCase(Locale.ROOT).endsWith(".zip")) {
            return true;
        }
        return hasZipSignature(p);
    }

    /**
     * Whether a local file is a zip holding a Zarr root ({@code .zgroup} or v3 {@code zarr.json} at the top, or
     * one folder down as netcdf-c writes it).
     */
    public static boolean isZarrZip(Path p) {
        if (!Files.isRegularFile(p) || !hasZipSignature(p)) {
            return false;
        }
        try (ZipFile z = new ZipFile(p.toFile())) {
            Enumeration<? extends ZipEntry> entries = z.entries();
            while (entries.hasMoreElements()) {
                String n = entries.nextElement().getName();
                int slash = n.indexOf('/');
                if (isRootMarker(n) || (slash > 0 && isRootMarker(n.substring(slash + 1)))) {
                    return true;
                }
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
        return false;
    }

    /** The object a Zarr root group has: {@code .zgroup} (v2) or {@code zarr.json} (v3). */
    public static boolean isRootMarker(String name) {
        return name.equals(".zgroup") || name.equals("zarr.json");
    }

    /** {@code PK\3\4}: a zip's first local header. Only regular files are opened: a FIFO would block. */
    private static boolean hasZipSignature(Path p) {
        if (!Files.isRegularFile(p)) {
            return false;
        }
        try (InputStream in = Files.newInputStream(p)) {
            byte[] magic = in.readNBytes(4);
            return magic.length == 4 && magic[0] == 'P' && magic[1] == 'K' && magic[2] == 3 && magic[3] == 4;
        } catch (IOException e) {
            return false;
        }
    }
}
