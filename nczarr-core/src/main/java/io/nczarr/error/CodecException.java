package io.nczarr.error;

/**
 * A codec could not be built from its parameters or could not decode its input. Codecs know only bytes
 * and parameters, so they throw it without context; the chunk reader adds dataset, key and variable with
 * {@link #withContext} and the type reaches the caller unchanged.
 */
public class CodecException extends ChunkException {
    private static final long serialVersionUID = 1L;

    public CodecException(String detail) {
        super(detail);
    }

    public CodecException(String detail, Throwable cause) {
        super(detail, cause);
    }

    public CodecException(String dataset, String key, String variable, String detail, Throwable cause) {
        super(dataset, key, variable, detail, cause);
    }

    @Override
    public CodecException withContext(String dataset, String key, String variable) {
        return new CodecException(or(dataset(), dataset), or(key(), key), or(variable(), variable), detail(), this);
    }
}
