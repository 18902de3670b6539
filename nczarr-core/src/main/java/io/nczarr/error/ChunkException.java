package io.nczarr.error;

/**
 * A chunk's bytes are not what its metadata promises: wrong size after decoding, or a codec failure
 * ({@link CodecException}). Never retried: the object is there, its content is wrong.
 */
public class ChunkException extends NcZarrException {
    private static final long serialVersionUID = 1L;

    public ChunkException(String detail) {
        super(detail);
    }

    public ChunkException(String detail, Throwable cause) {
        super(detail, cause);
    }

    public ChunkException(String dataset, String key, String variable, String detail, Throwable cause) {
        super(dataset, key, variable, detail, cause);
    }

    @Override
    public ChunkException withContext(String dataset, String key, String variable) {
        return new ChunkException(or(dataset(), dataset), or(key(), key), or(variable(), variable), detail(), this);
    }
}
