package io.nczarr.error;

/**
 * The data is well formed but uses something this reader does not implement (a codec, a data type, a
 * layout); {@link #feature()} names it.
 */
public class UnsupportedFeatureException extends NcZarrException {
    private static final long serialVersionUID = 1L;

    private final String feature;

    public UnsupportedFeatureException(String feature, String detail) {
        this(null, null, null, feature, detail, null);
    }

    public UnsupportedFeatureException(
            String dataset, String key, String variable, String feature, String detail, Throwable cause) {
        super(dataset, key, variable, detail, cause);
        this.feature = feature;
    }

    /** What is not supported, e.g. {@code codec szip}. */
    public String feature() {
        return feature;
    }

    @Override
    public UnsupportedFeatureException withContext(String dataset, String key, String variable) {
        return new UnsupportedFeatureException(
                or(dataset(), dataset), or(key(), key), or(variable(), variable), feature, detail(), this);
    }
}
