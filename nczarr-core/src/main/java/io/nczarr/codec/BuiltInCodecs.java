package io.nczarr.codec;

import io.nczarr.error.CodecException;
import java.util.ArrayList;
import java.util.List;

/**
 * The codecs shipped with this project: one id in {@link #IDS} and one case in {@link BuiltIn#create} per numcodecs
 * id. Add new built-ins in both places.
 *
 * <p>One factory class and a switch rather than a lambda per id: a registry is made at the first open in every
 * process, where 22 lambdas cost the linking of 22 call sites (a class spun for each, and every codec class
 * loaded, xz included); here a codec's class is loaded when a variable first uses it.
 */
final class BuiltInCodecs {
    private BuiltInCodecs() {}

    static final List<String> IDS = List.of(
            // compressors (bytes -> bytes)
            "zlib",
            "gzip",
            "bz2",
            "lzma",
            "zstd",
            "lz4",
            // imagecodecs ids VirtualiZarr gives HDF5's LZF, LZ4 and bzip2 filters
            "imagecodecs_lzf",
            "imagecodecs_lz4h5",
            "imagecodecs_bz2",
            "blosc",
            // bytes -> bytes filters
            "shuffle",
            "fletcher32",
            "crc32",
            "adler32",
            "crc32c",
            // array -> array filters
            "delta",
            "fixedscaleoffset",
            "quantize",
            "astype",
            "bitround",
            // zarr-extensions array -> array codecs (Zarr v3 names)
            "scale_offset",
            "cast_value",
            "packbits",
            "categorize",
            // HDF5's szip filter (bytes -> bytes), known but not decodable
            "szip",
            // object codecs (array -> bytes)
            "vlen-utf8",
            "vlen-bytes");

    static List<CodecFactory> factories(NativeCodecs natives) {
        List<CodecFactory> all = new ArrayList<>(IDS.size());
        for (String id : IDS) {
            all.add(new BuiltIn(id, natives));
        }
        return List.copyOf(all);
    }

    /** The factory of one built-in id (a plain class: a record's methods are linked through invokedynamic). */
    static final class BuiltIn implements CodecFactory {
        private final String id;
        private final NativeCodecs natives;

        BuiltIn(String id, NativeCodecs natives) {
            this.id = id;
            this.natives = natives;
        }

        @Override
        public String id() {
            return id;
        }

        @Override
        public String toString() {
            return "BuiltIn[" + id + "]";
        }

        @Override
        public Codec create(CodecConfig c) throws CodecException {
            switch (id) {
                case "zlib":
                    return natives.hasDeflate() ? new NativeZlibCodec() : new ZlibCodec();
                case "gzip":
                    return new GzipCodec();
                case "bz2":
                    return new Bz2Codec();
                case "lzma":
                    return LzmaCodec.create(c);
                case "zstd":
                    return new ZstdCodec();
                case "lz4":
                    return new Lz4Codec();
                case "imagecodecs_lzf":
                    return LzfCodec.create(c);
                case "imagecodecs_lz4h5":
                    return Lz4H5Codec.create(c);
                case "imagecodecs_bz2":
                    c.requireOnly("level");
                    return new Bz2Codec();
                case "blosc":
                    return natives.hasBlosc() ? new NativeBloscCodec(natives.bloscFormats(), true) : new BloscCodec();
                case "shuffle":
                    return ShuffleCodec.create(c);
                case "fletcher32":
                    return new Fletcher32Codec();
                case "crc32":
                    return Checksum32Codec.crc32(c);
                case "adler32":
                    return Checksum32Codec.adler32(c);
                case "crc32c":
                    return Checksum32Codec.crc32c(c);
                case "delta":
                    return DeltaCodec.create(c);
                case "fixedscaleoffset":
                    return FixedScaleOffsetCodec.create(c);
                case "quantize":
                    return AsTypeCodec.quantize(c);
                case "astype":
                    return AsTypeCodec.astype(c);
                case "bitround":
                    return BitRoundCodec.create(c);
                case "scale_offset":
                    return ScaleOffsetCodec.create(c);
                case "cast_value":
                    return CastValueCodec.create(c);
                case "packbits":
                    // numcodecs' packbits has no parameters; zarr-extensions' packbits (padding_encoding, ...) is
                    // another layout: refused rather than misread
                    c.requireOnly();
                    return new PackBitsCodec();
                case "categorize":
                    return CategorizeCodec.create(c);
                case "szip":
                    return new SzipCodec();
                case "vlen-utf8":
                    return new VlenCodec("vlen-utf8", true);
                case "vlen-bytes":
                    return new VlenCodec("vlen-bytes", false);
                default:
                    throw new IllegalStateException("no built-in codec " + id);
            }
        }
    }
}
