package io.nczarr.source;

import io.nczarr.error.NcZarrException;
import io.nczarr.error.Redaction;
import io.nczarr.error.StoreException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;

/**
 * Failures of the object sources, shaped once: {@link StoreException}s whose dataset is the source's location,
 * keeping a backend's verdict on retrying; a missing object is a {@link FileNotFoundException} (what
 * netCDF-Java callers expect) with such a StoreException as cause.
 */
public final class SourceFailures {
    private SourceFailures() {}

    /** The message without its leading {@code location: }, which the dataset field holds instead. */
    public static String detail(String location, String message) {
        if (message == null) {
            return "";
        }
        String prefix = location + ": ";
        return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
    }

    /** A missing object at {@code location}. */
    public static FileNotFoundException missing(String location, String detail, Throwable cause) {
        FileNotFoundException nf = new FileNotFoundException(location + ": " + detail);
        nf.initCause(new StoreException(location, null, detail, false, cause));
        return nf;
    }

    /** A backend's failure (the S3 bucket classifies its own) as this source reports it. */
    public static IOException of(String location, IOException e) {
        if (e instanceof io.nczarr.error.PreconditionFailedException p) {
            return p.dataset() == null ? p.withContext(location, null, null) : p;
        }
        if (e instanceof StoreException s) {
            // the bucket names the object by its URL, which is this source's location: keep its text once
            return s.dataset() == null ? new StoreException(location, null, s.detail(), s.isRetryable(), s) : s;
        }
        if (e instanceof NcZarrException || e instanceof InterruptedIOException) {
            return e;
        }
        String detail = detail(location, e.getMessage());
        if (e instanceof FileNotFoundException) {
            FileNotFoundException nf = new FileNotFoundException(e.getMessage());
            nf.initCause(new StoreException(location, null, detail, false, e));
            return nf;
        }
        // the bucket classifies its own failures; anything else broke the stream itself
        return new StoreException(location, null, detail, e.getClass() != IOException.class, e);
    }

    /**
     * A URL an HTTP source cannot use ({@link HttpObjectSource#open} refused it: no host, credentials in it...) as
     * a {@link StoreException} of the redacted URL; the reason loses its trailing URL, which the dataset field holds.
     */
    public static StoreException unusableUrl(URI target, IllegalArgumentException e) {
        String where = Redaction.redact(target);
        String why = e.getMessage().endsWith(": " + where)
                ? e.getMessage().substring(0, e.getMessage().length() - where.length() - 2)
                : e.getMessage();
        return new StoreException(where, null, why, false, e);
    }
}
