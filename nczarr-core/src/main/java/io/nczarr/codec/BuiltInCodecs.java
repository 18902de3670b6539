package io.nczarr.codec;

import static io.nczarr.codec.CodecFactory.of;

import java.util.List;

/** The codecs shipped with this project: one line per numcodecs id. Add new built-ins here. */
final class BuiltInCodecs {
    private BuiltInCodecs() {}

    static List<CodecFactory> factories(NativeCodecs natives) {
        return List.of(
                // compressors (bytes -> bytes)
                of("zlib", c -> natives.hasDeflate() ? new NativeZlibCodec() : new ZlibCodec()),
                of("gzip", c -> new GzipCodec()),
                of("bz2", c -> new Bz2Codec()),
                of("lzma", LzmaCodec::create),
                of("zstd", c -> new ZstdCodec()),
                of("lz4", c -> new Lz4Codec()),
                // imagecodecs ids VirtualiZarr gives HDF5's LZF, LZ4 and bzip2 filters
                of("imagecodecs_lzf", LzfCodec::create),
                of("imagecodecs_lz4h5", Lz4H5Codec::create),
                of("imagecodecs_bz2", c -> {
                    c.requireOnly("level");
                    return new Bz2Codec();
                }),
                of(
                        "blosc",
                        c -> natives.hasBlosc()
                                ? new NativeBloscCodec(natives.bloscFormats(), true)
                                : new BloscCodec()),
                // bytes -> bytes filters
                of("shuffle", ShuffleCodec::create),
                of("fletcher32", c -> new Fletcher32Codec()),
                of("crc32", Checksum32Codec::crc32),
                of("adler32", Checksum32Codec::adler32),
                of("crc32c", Checksum32Codec::crc32c),
                // array -> array filters
                of("delta", DeltaCodec::create),
                of("fixedscaleoffset", FixedScaleOffsetCodec::create),
                of("quantize", AsTypeCodec::quantize),
                of("astype", AsTypeCodec::astype),
                of("bitround", BitRoundCodec::create),
                // zarr-extensions array -> array codecs (Zarr v3 names)
                of("scale_offset", ScaleOffsetCodec::create),
                of("cast_value", CastValueCodec::create),
                of("packbits", c -> {
                    // numcodecs' packbits has no parameters; zarr-extensions' packbits (padding_encoding, ...)
                    // is another layout: refused rather than misread
                    c.requireOnly();
                    return new PackBitsCodec();
                }),
                of("categorize", CategorizeCodec::create),
                // HDF5's szip filter (bytes -> bytes), known but not decodable
                of("szip", c -> new SzipCodec()),
                // object codecs (array -> bytes)
                of("vlen-utf8", c -> new VlenCodec("vlen-utf8", true)),
                of("vlen-bytes", c -> new VlenCodec("vlen-bytes", false)));
    }
}
