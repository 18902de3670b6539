package io.nczarr.store;

import io.nczarr.error.NcZarrException;
import io.nczarr.error.StoreException;
import java.io.IOException;
import java.io.InterruptedIOException;

/**
 * Failures of what a remote store reads through (an S3 bucket, an HTTP client, a reference target) as
 * failures of the store's own dataset and key. Interruptions pass unchanged: the read was cancelled,
 * the store is fine.
 */
public final class InnerFailures {
    private InnerFailures() {}

    /**
     * {@code e} as a failure of {@code location}/{@code key}: a {@link StoreException} keeps its detail (after
     * the other dataset it names, if any) and whether it may pass; other project failures gain the context
     * they lack; anything else becomes a non-retryable {@link StoreException}.
     */
    static IOException of(String location, String key, IOException e) {
        if (e instanceof StoreException s) {
            return new StoreException(location, key, detail(location, s), s.isRetryable(), s);
        }
        if (e instanceof NcZarrException n) {
            return n.withContext(location, key, null);
        }
        if (e instanceof InterruptedIOException) {
            return e;
        }
        return new StoreException(location, key, String.valueOf(e.getMessage()), false, e);
    }

    /** A store failure's detail, led by the dataset it names when that is not {@code location}. */
    public static String detail(String location, StoreException s) {
        return s.dataset() != null && !s.dataset().equals(location) ? s.dataset() + ": " + s.detail() : s.detail();
    }
}
