package io.nczarr.error;

/**
 * Bytes could not be fetched: a transport failure, a refused request, a server error. {@link
 * #isRetryable()} says whether trying the same request again may succeed (timeouts, resets, 5xx) or
 * cannot (403, a malformed response, a file that is not a regular file).
 */
public class StoreException extends NcZarrException {
    private static final long serialVersionUID = 1L;

    private final boolean retryable;

    public StoreException(String detail, boolean retryable) {
        this(null, null, detail, retryable, null);
    }

    public StoreException(String detail, boolean retryable, Throwable cause) {
        this(null, null, detail, retryable, cause);
    }

    public StoreException(String dataset, String key, String detail, boolean retryable, Throwable cause) {
        this(dataset, key, null, detail, retryable, cause);
    }

    public StoreException(
            String dataset, String key, String variable, String detail, boolean retryable, Throwable cause) {
        super(dataset, key, variable, detail, cause);
        this.retryable = retryable;
    }

    /** True when the same request may succeed if tried again. */
    public boolean isRetryable() {
        return retryable;
    }

    /**
     * The same failure with a note on how retrying ended, e.g. "gave up after 4 attempts, ..."; still
     * retryable (a later request may pass), with this failure's cause.
     */
    public StoreException gaveUp(String note) {
        return new StoreException(dataset(), key(), variable(), detail() + " (" + note + ")", true, getCause());
    }

    @Override
    public StoreException withContext(String dataset, String key, String variable) {
        return new StoreException(
                or(dataset(), dataset), or(key(), key), or(variable(), variable), detail(), retryable, this);
    }
}
