package io.nczarr.codec;

import java.io.IOException;

/** A codec could not be built or could not decode; the chunk reader adds dataset and key. */
public class CodecException extends IOException {
    public CodecException(String message) {
        super(message);
    }

    public CodecException(String message, Throwable cause) {
        super(message, cause);
    }
}
