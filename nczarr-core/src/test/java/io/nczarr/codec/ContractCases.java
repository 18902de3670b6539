package io.nczarr.codec;

import io.nczarr.codec.CodecContractTest.Case;
import io.nczarr.codec.CodecContractTest.SampleSource;
import io.nczarr.codec.CodecContractTest.Truncation;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Map;

/** The entry of every standard codec id in {@link CodecContractTest}: defaults, kind, truncation, sample. */
final class ContractCases {
    private ContractCases() {}

    static final Map<String, Case> CASES = Map.ofEntries(
            // compressors
            Map.entry("zlib", framed("{\"id\":\"zlib\"}", corpus("zlib/codec.00/encoded.00.dat"))),
            Map.entry("gzip", framed("{\"id\":\"gzip\"}", corpus("gzip/codec.00/encoded.00.dat"))),
            Map.entry("bz2", framed("{\"id\":\"bz2\"}", corpus("bz2/codec.00/encoded.00.dat"))),
            Map.entry("lzma", framed("{\"id\":\"lzma\"}", extra("data/lzma_xz_preset9_check_sha256.dat"))),
            Map.entry("zstd", framed("{\"id\":\"zstd\"}", corpus("zstd/codec.00/encoded.00.dat"))),
            Map.entry("lz4", framed("{\"id\":\"lz4\"}", corpus("lz4/codec.00/encoded.00.dat"))),
            Map.entry("imagecodecs_lzf", framed("{\"id\":\"imagecodecs_lzf\"}", ContractSamples::lzf)),
            Map.entry("imagecodecs_lz4h5", framed("{\"id\":\"imagecodecs_lz4h5\"}", ContractSamples::lz4h5)),
            Map.entry("imagecodecs_bz2", framed("{\"id\":\"imagecodecs_bz2\"}", ContractSamples::bz2)),
            Map.entry("blosc", framed("{\"id\":\"blosc\"}", extra("data/blosc_lz4_shuffle_blocks_i2.blosc"))),
            Map.entry(
                    "szip",
                    new Case(
                            "{\"id\":\"szip\",\"mask\":141,\"pixels-per-block\":32}",
                            CodecKind.BYTES_TO_BYTES,
                            Truncation.UNSUPPORTED,
                            0,
                            null)),
            // bytes -> bytes filters
            Map.entry(
                    "shuffle",
                    new Case(
                            "{\"id\":\"shuffle\"}",
                            CodecKind.BYTES_TO_BYTES,
                            Truncation.SAME_LENGTH,
                            1,
                            extra("data/hdf5_shuffle.dat"))),
            Map.entry("fletcher32", framed("{\"id\":\"fletcher32\"}", extra("data/hdf5_fletcher32_f32.dat"))),
            Map.entry("crc32", framed("{\"id\":\"crc32\"}", extra("data/crc32.dat"))),
            Map.entry("adler32", framed("{\"id\":\"adler32\"}", extra("data/adler32.dat"))),
            Map.entry("crc32c", framed("{\"id\":\"crc32c\"}", CodecContractTest::crc32cSample)),
            // array -> array filters
            Map.entry(
                    "delta",
                    elementwise(
                            "{\"id\":\"delta\",\"dtype\":\"<i4\"}", 4, corpus("delta/int32/codec.00/encoded.00.dat"))),
            Map.entry(
                    "fixedscaleoffset",
                    elementwise(
                            "{\"id\":\"fixedscaleoffset\",\"scale\":1,\"offset\":0,\"dtype\":\"<f8\"}",
                            2,
                            corpus("fixedscaleoffset/codec.01/encoded.00.dat"))),
            Map.entry(
                    "quantize",
                    elementwise(
                            "{\"id\":\"quantize\",\"digits\":3,\"dtype\":\"<f8\"}",
                            2,
                            corpus("quantize/codec.00/encoded.00.dat"))),
            Map.entry(
                    "astype",
                    elementwise(
                            "{\"id\":\"astype\",\"decode_dtype\":\"<f8\",\"encode_dtype\":\"<f4\"}",
                            2,
                            corpus("astype/i/codec.00/encoded.00.dat"))),
            Map.entry(
                    "bitround",
                    new Case(
                            "{\"id\":\"bitround\",\"keepbits\":10}",
                            CodecKind.ARRAY_TO_ARRAY,
                            Truncation.SAME_LENGTH,
                            4,
                            ContractSamples::bitround)),
            Map.entry("scale_offset", elementwise("{\"id\":\"scale_offset\"}", 8, ContractSamples::scaleOffset)),
            Map.entry(
                    "cast_value",
                    elementwise("{\"id\":\"cast_value\",\"data_type\":\"uint16\"}", 2, ContractSamples::castValue)),
            Map.entry(
                    "packbits",
                    new Case(
                            "{\"id\":\"packbits\"}",
                            CodecKind.ARRAY_TO_ARRAY,
                            Truncation.PACKBITS,
                            1,
                            corpus("packbits/codec.00/encoded.00.dat"))),
            Map.entry(
                    "categorize",
                    elementwise(
                            "{\"id\":\"categorize\",\"labels\":[\"a\"],\"dtype\":\"<U1\"}",
                            2,
                            extra("data/categorize_u5.dat"))),
            // object codecs
            Map.entry(
                    "vlen-utf8",
                    new Case(
                            "{\"id\":\"vlen-utf8\"}",
                            CodecKind.ARRAY_TO_BYTES,
                            Truncation.FRAMED,
                            1,
                            extra("data/vlen-utf8.dat"))),
            Map.entry(
                    "vlen-bytes",
                    new Case(
                            "{\"id\":\"vlen-bytes\"}",
                            CodecKind.ARRAY_TO_BYTES,
                            Truncation.FRAMED,
                            1,
                            extra("data/vlen-bytes.dat"))));

    private static Case framed(String defaults, SampleSource sample) {
        return new Case(defaults, CodecKind.BYTES_TO_BYTES, Truncation.FRAMED, 1, sample);
    }

    private static Case elementwise(String defaults, int encodedWidth, SampleSource sample) {
        return new Case(defaults, CodecKind.ARRAY_TO_ARRAY, Truncation.ELEMENTWISE, encodedWidth, sample);
    }

    private static SampleSource extra(String encoded) {
        return () -> {
            try {
                Path dir = Path.of(ContractCases.class
                                .getResource("/codec-extra/INDEX.json")
                                .toURI())
                        .getParent();
                return CodecContractTest.fixture(dir, encoded);
            } catch (URISyntaxException e) {
                throw new IOException(e);
            }
        };
    }

    private static SampleSource corpus(String encoded) {
        return () -> CodecContractTest.fixture(TestSupport.requireCorpus("codecs"), encoded);
    }
}
