package io.nczarr.error;

/** No codec is registered for an id found in the metadata. */
public class UnknownCodecException extends UnsupportedFeatureException {
    private static final long serialVersionUID = 1L;

    private final String codecId;

    public UnknownCodecException(String codecId) {
        this(null, null, null, codecId, null);
    }

    private UnknownCodecException(String dataset, String key, String variable, String codecId, Throwable cause) {
        super(dataset, key, variable, "codec " + codecId, "unknown codec '" + codecId + "'", cause);
        this.codecId = codecId;
    }

    public String codecId() {
        return codecId;
    }

    @Override
    public UnknownCodecException withContext(String dataset, String key, String variable) {
        return new UnknownCodecException(
                or(dataset(), dataset), or(key(), key), or(variable(), variable), codecId, this);
    }
}
