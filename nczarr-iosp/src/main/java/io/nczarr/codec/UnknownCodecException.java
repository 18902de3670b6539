package io.nczarr.codec;

/** No factory is registered for a codec id. */
public class UnknownCodecException extends CodecException {
    private final String codecId;

    public UnknownCodecException(String codecId) {
        super("unknown codec '" + codecId + "'");
        this.codecId = codecId;
    }

    public String codecId() {
        return codecId;
    }
}
