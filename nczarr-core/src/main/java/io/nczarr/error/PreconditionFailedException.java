package io.nczarr.error;

/**
 * A conditional read ({@code If-Match}, {@code If-Unmodified-Since}) answered {@code 412 Precondition Failed}:
 * the object is no longer the one the conditions describe, and none of its bytes were transferred. Not
 * retryable. The caller that set the conditions words what that means (e.g. an Icechunk virtual chunk whose
 * source file changed since the repository was written).
 */
public class PreconditionFailedException extends StoreException {
    private static final long serialVersionUID = 1L;

    private final String conditions;

    /**
     * @param location the object (redacted)
     * @param conditions the conditions sent, e.g. {@code If-Match: "abc"}
     */
    public PreconditionFailedException(String location, String conditions) {
        this(location, null, null, conditions, null);
    }

    private PreconditionFailedException(
            String location, String key, String variable, String conditions, Throwable cause) {
        super(location, key, variable, "precondition failed (HTTP 412) for " + conditions, false, cause);
        this.conditions = conditions;
    }

    /** The conditions that were sent. */
    public String conditions() {
        return conditions;
    }

    @Override
    public PreconditionFailedException withContext(String dataset, String key, String variable) {
        return new PreconditionFailedException(
                or(dataset(), dataset), or(key(), key), or(variable(), variable), conditions, this);
    }
}
