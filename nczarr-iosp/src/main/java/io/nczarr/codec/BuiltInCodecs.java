package io.nczarr.codec;

import java.util.List;

/** The codecs shipped with this project. Add new built-ins here. */
final class BuiltInCodecs {
    private BuiltInCodecs() {
    }

    static List<CodecFactory> factories() {
        return List.of(
                new ZlibCodec.Factory(),
                new GzipCodec.Factory());
    }
}
