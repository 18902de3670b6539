package io.nczarr.codec;

import io.nczarr.error.CodecException;
import java.util.Objects;

/** {@link CodecFactory#of}: an id and the function that builds its codecs. */
record NamedCodecFactory(String id, CodecFactory.Builder builder) implements CodecFactory {

    NamedCodecFactory {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(builder, "builder");
    }

    @Override
    public Codec create(CodecConfig config) throws CodecException {
        return builder.create(config);
    }
}
