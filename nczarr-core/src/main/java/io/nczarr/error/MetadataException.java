package io.nczarr.error;

/** Metadata that cannot be read or makes no sense; the message names the dataset, the key and the field. */
public class MetadataException extends NcZarrException {
    private static final long serialVersionUID = 1L;

    public MetadataException(String dataset, String key, String what) {
        super(dataset, key, null, what, null);
    }

    public MetadataException(String dataset, String key, String what, Throwable cause) {
        super(dataset, key, null, what, cause);
    }

    public MetadataException(String dataset, String key, String variable, String what, Throwable cause) {
        super(dataset, key, variable, what, cause);
    }

    @Override
    public MetadataException withContext(String dataset, String key, String variable) {
        return new MetadataException(or(dataset(), dataset), or(key(), key), or(variable(), variable), detail(), this);
    }
}
