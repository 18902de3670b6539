package io.nczarr.store;

import io.nczarr.http.auth.CookieJar;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;

/**
 * The cookie file of netcdf-c's {@code HTTP.COOKIEJAR} (libcurl's cookie jar): the cookies a {@link CookieJar}
 * starts with are read from it, and the jar is written back to it whenever a host sets or drops a cookie, so a
 * login (Earthdata) is kept across runs and shared with curl and wget ({@code --load-cookies/--save-cookies}).
 *
 * <p>The format is the Netscape one curl writes: one cookie a line, seven tab-separated fields {@code domain
 * includeSubdomains path secure expires name value} ({@code expires} in seconds since 1970, {@code 0} for a
 * session cookie), {@code #} comments, a {@code #HttpOnly_} prefix on the domain. A cookie goes back to the exact
 * host named in its line (the jar is host-only: a leading dot and {@code includeSubdomains} are not widened);
 * expired and malformed lines are skipped. Bounded: a file over {@link #MAX_BYTES} bytes is an error naming the
 * file and the option, and the jar's own bounds apply to what is loaded; a file that is not a regular file (a
 * FIFO, a device) is refused without being opened. Written with owner-only permissions, through a temporary file
 * in the same directory moved over the old one. Neither cookie names nor values ever appear in a message.
 */
public final class CookieFile {
    /** Largest cookie file read or written. */
    public static final int MAX_BYTES = 1 << 20;

    private static final String HTTP_ONLY = "#HttpOnly_";

    private final Path path;
    private final String option;

    /**
     * @param path the file (it need not exist yet)
     * @param option the setting that named it (for messages)
     */
    public CookieFile(Path path, String option) {
        this.path = path;
        this.option = option;
    }

    public Path path() {
        return path;
    }

    /** The setting that named the file. */
    public String option() {
        return option;
    }

    /**
     * Adds the file's live cookies to {@code jar}; an absent file adds nothing.
     *
     * @return how many cookies were loaded
     * @throws CookieFileException the file is not a regular file, too large or unreadable
     */
    public int loadInto(CookieJar jar) throws CookieFileException {
        if (!Files.exists(path)) {
            return 0;
        }
        String text;
        try {
            if (!Files.isRegularFile(path)) {
                throw new CookieFileException(path, option, "not a regular file");
            }
            if (Files.size(path) > MAX_BYTES) {
                throw new CookieFileException(path, option, "larger than " + MAX_BYTES + " bytes");
            }
            text = new String(Files.readAllBytes(path), StandardCharsets.UTF_8);
        } catch (CookieFileException e) {
            throw e;
        } catch (IOException e) {
            throw new CookieFileException(
                    path, option, "cannot be read (" + e.getClass().getSimpleName() + ")");
        }
        long nowSeconds = System.currentTimeMillis() / 1000L;
        int loaded = 0;
        for (String raw : text.split("\n", -1)) {
            String line = raw.endsWith("\r") ? raw.substring(0, raw.length() - 1) : raw;
            boolean httpOnly = line.startsWith(HTTP_ONLY);
            if (httpOnly) {
                line = line.substring(HTTP_ONLY.length());
            } else if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            String[] f = line.split("\t", -1);
            if (f.length != 7) {
                continue; // as curl: a line it cannot read is skipped
            }
            String host = f[0].startsWith(".") ? f[0].substring(1) : f[0];
            long expires;
            try {
                expires = Long.parseLong(f[4].trim());
            } catch (NumberFormatException e) {
                continue;
            }
            if (host.isEmpty() || f[5].isEmpty() || (expires != 0 && expires <= nowSeconds)) {
                continue;
            }
            boolean secure = f[3].trim().equalsIgnoreCase("TRUE");
            long expiresAtMillis = expires == 0 ? Long.MAX_VALUE : Math.multiplyExact(expires, 1000L);
            if (jar.put(host.toLowerCase(Locale.ROOT), f[5], f[6], secure, expiresAtMillis)) {
                loaded++;
            }
        }
        return loaded;
    }

    /**
     * Writes the live cookies of {@code jar} (at most {@link #MAX_BYTES} bytes: the cookies that do not fit are
     * left out).
     */
    public synchronized void save(CookieJar jar) throws CookieFileException {
        StringBuilder out = new StringBuilder("# Netscape HTTP Cookie File\n# written by nczarr-java\n\n");
        for (CookieJar.Cookie c : jar.snapshot()) {
            String line = c.host() + "\tFALSE\t/\t" + (c.secure() ? "TRUE" : "FALSE") + "\t"
                    + (c.expiresAtMillis() == Long.MAX_VALUE ? 0 : c.expiresAtMillis() / 1000L) + "\t" + c.name()
                    + "\t" + c.value() + "\n";
            if (out.length() + line.length() > MAX_BYTES) {
                break;
            }
            out.append(line);
        }
        Path dir = path.toAbsolutePath().getParent();
        if (dir == null) {
            throw new CookieFileException(path, option, "has no directory");
        }
        Path tmp = null;
        try {
            if (Files.exists(path, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(path)) {
                throw new CookieFileException(path, option, "not a regular file");
            }
            tmp = Files.createTempFile(dir, ".cookies-", ".tmp");
            try {
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException e) {
                // not a POSIX file system (Windows): the directory's own permissions apply
            }
            Files.writeString(tmp, out, StandardCharsets.UTF_8);
            try {
                Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException | FileAlreadyExistsException e) {
                Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING);
            }
            tmp = null;
        } catch (CookieFileException e) {
            throw e;
        } catch (IOException e) {
            throw new CookieFileException(
                    path, option, "cannot be written (" + e.getClass().getSimpleName() + ")");
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // best effort: a stray temporary file holds no more than the jar itself
                }
            }
        }
    }
}
