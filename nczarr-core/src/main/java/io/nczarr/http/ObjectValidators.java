package io.nczarr.http;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * What identifies the version of a remote object across the responses of one reader: its length,
 * its {@code ETag} and its {@code Last-Modified} time. The first response that tells each one sets
 * it; a later response with another length or ETag means the object was replaced while being read,
 * and its bytes must not be mixed with the earlier ones. Thread-safe; the HTTP client's threads call
 * it while handling response headers, so no lock is held across a request.
 */
public final class ObjectValidators {
    private final Object lock = new Object();
    private volatile long length = -1;
    private volatile String etag;
    private volatile long lastModified;

    /** The object's length, or -1 while no response told it. */
    public long length() {
        return length;
    }

    /** Last-Modified in ms since the epoch, or 0 while unknown. */
    public long lastModified() {
        return lastModified;
    }

    /** The {@code ETag} the first response told, as sent (with its quotes), or null while unknown. */
    public String etag() {
        return etag;
    }

    /** Records the length unless one is known already (the first answer wins; changes are caught by {@link #changed}). */
    public void learnLength(long total) {
        synchronized (lock) {
            if (length < 0) {
                length = total;
            }
        }
    }

    /**
     * Compares a response with the first ones, and records its validators when they are the first.
     *
     * @param total the object length this response tells, or -1
     * @param etagHeader its {@code ETag}, or null
     * @param lastModifiedHeader its {@code Last-Modified}, or null
     * @return why the object is no longer the one read so far, or null when it is the same
     */
    public String changed(long total, String etagHeader, String lastModifiedHeader) {
        long known = length;
        if (total >= 0 && known >= 0 && total != known) {
            return "object changed while reading: its length was " + known + " bytes and is now " + total;
        }
        if (etagHeader != null) {
            synchronized (lock) {
                if (etag == null) {
                    etag = etagHeader;
                } else if (!etag.equals(etagHeader)) {
                    return "object changed while reading: its ETag was " + etag + " and is now " + etagHeader;
                }
            }
        }
        if (lastModified == 0) {
            note(etagHeader, lastModifiedHeader);
        }
        return null;
    }

    /**
     * Records validators without comparing them (a HEAD's answer: it carries no bytes to mix). The
     * ETag is kept only if none is known; Last-Modified is informational and replaced.
     */
    public void note(String etagHeader, String lastModifiedHeader) {
        if (lastModifiedHeader != null) {
            try {
                lastModified = ZonedDateTime.parse(lastModifiedHeader, DateTimeFormatter.RFC_1123_DATE_TIME)
                        .toInstant()
                        .toEpochMilli();
            } catch (DateTimeParseException ignored) {
                // informational only: a malformed date leaves the time unknown
            }
        }
        if (etagHeader != null && etag == null) {
            synchronized (lock) {
                if (etag == null) {
                    etag = etagHeader;
                }
            }
        }
    }
}
