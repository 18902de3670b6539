package io.nczarr.codec;

import java.util.List;

/** The codecs shipped with this project. Add new built-ins here. */
final class BuiltInCodecs {
    private BuiltInCodecs() {
    }

    static List<CodecFactory> factories() {
        return List.of(
                // compressors
                new ZlibCodec.Factory(),
                new GzipCodec.Factory(),
                new Bz2Codec.Factory(),
                new LzmaCodec.Factory(),
                new ZstdCodec.Factory(),
                new Lz4Codec.Factory(),
                new BloscCodec.Factory(),
                // filters
                new ShuffleCodec.Factory(),
                new Fletcher32Codec.Factory(),
                Checksum32Codec.Factory.crc32(),
                Checksum32Codec.Factory.adler32(),
                Checksum32Codec.Factory.crc32c(),
                new DeltaCodec.Factory(),
                new FixedScaleOffsetCodec.Factory(),
                new AsTypeCodec.Factory("quantize", "astype", "dtype"),
                new AsTypeCodec.Factory("astype", "encode_dtype", "decode_dtype"),
                new AsTypeCodec.BitRoundFactory(),
                new PackBitsCodec.Factory(),
                new CategorizeCodec.Factory(),
                new SzipCodec.Factory(),
                // object codecs
                new VlenCodec.Factory("vlen-utf8", true),
                new VlenCodec.Factory("vlen-bytes", false));
    }
}
