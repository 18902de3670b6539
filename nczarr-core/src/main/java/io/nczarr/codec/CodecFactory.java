package io.nczarr.codec;

import io.nczarr.error.CodecException;

/**
 * Creates {@link Codec}s for one numcodecs id. Register user codecs through
 * {@code META-INF/services/io.nczarr.codec.CodecFactory}, or build one with {@link #of}.
 */
public interface CodecFactory {

    /** The numcodecs id, e.g. {@code "zlib"}. */
    String id();

    /** Builds a codec for one variable's configuration; a bad parameter is a {@link CodecException}. */
    Codec create(CodecConfig config) throws CodecException;

    /** A factory for {@code id} whose codecs {@code builder} makes (usually a constructor or method reference). */
    static CodecFactory of(String id, Builder builder) {
        return new NamedCodecFactory(id, builder);
    }

    /** Builds a codec from its configuration. */
    @FunctionalInterface
    interface Builder {
        Codec create(CodecConfig config) throws CodecException;
    }
}
