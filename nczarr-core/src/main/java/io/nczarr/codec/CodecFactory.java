package io.nczarr.codec;

import io.nczarr.error.CodecException;

/**
 * Creates {@link Codec}s for one numcodecs id. Register user codecs through
 * {@code META-INF/services/io.nczarr.codec.CodecFactory}.
 */
public interface CodecFactory {

    /** The numcodecs id, e.g. {@code "zlib"}. */
    String id();

    /** Builds a codec for one variable's configuration; a bad parameter is a {@link CodecException}. */
    Codec create(CodecConfig config) throws CodecException;
}
