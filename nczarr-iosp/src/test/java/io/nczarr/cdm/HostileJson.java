package io.nczarr.cdm;

import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

/**
 * Hostile JSON values, as text: wrong types, extreme numbers, odd strings, big and deep structures.
 * {@link #generic} fits anywhere; {@link #forField} holds the values that hurt one metadata field.
 */
final class HostileJson {
    private HostileJson() {}

    private static final String LONG_MAX = "9223372036854775807";
    private static final String TWO_64 = "18446744073709551616";

    /** Values of every JSON type, with the numbers at the edges of int, long and double. */
    static final List<String> GENERIC = List.of(
            "null",
            "true",
            "false",
            "0",
            "-1",
            "1",
            "2147483647",
            "2147483648",
            LONG_MAX,
            "-9223372036854775808",
            TWO_64,
            "1e308",
            "1e400",
            "-0.0",
            "1.5",
            "NaN",
            "-Infinity",
            "\"NaN\"",
            "\"\"",
            "\"x\"",
            "\"../..\"",
            "\"/\"",
            "\"a/b\"",
            "\"\\u0000\"",
            "\"\\ud800\"",
            "\"\u00e9\u6f22\"",
            "[]",
            "{}",
            "[1, 2]",
            "[[[]]]",
            "[null]",
            "{\"id\": \"zlib\"}",
            "{\"a\": {\"b\": {}}}");

    /** The field's specific troublemakers; empty when there are none. */
    static List<String> forField(String field) {
        return FIELDS.getOrDefault(field, List.of());
    }

    /** A generic value, now and then a big or deep one built on the spot. */
    static String generic(Random rnd) {
        switch (rnd.nextInt(20)) {
            case 0:
                return "\"" + "x".repeat(200_000) + "\"";
            case 1:
                return longList(10_000);
            case 2:
                return nested(rnd.nextBoolean() ? 500 : 999);
            case 3:
                return "1" + "0".repeat(2_000); // more digits than a number may have
            default:
                return GENERIC.get(rnd.nextInt(GENERIC.size()));
        }
    }

    /** {@code [[[...]]]} {@code depth} deep. */
    static String nested(int depth) {
        return "[".repeat(depth) + "]".repeat(depth);
    }

    /** {@code {"a":{"a":...{}}}} {@code depth} deep. */
    static String nestedObjects(int depth) {
        return "{\"a\":".repeat(depth) + "{}" + "}".repeat(depth);
    }

    static String longList(int n) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "" : ",").append(i);
        }
        return b.append(']').toString();
    }

    private static final List<String> SHAPES = List.of(
            "[" + LONG_MAX + "]",
            "[4611686018427387904, 4]",
            "[2147483648, 2147483648, 2147483648]",
            "[3037000500, 3037000500]",
            "[2147483647]",
            "[2147483647, 2147483647]",
            "[" + TWO_64 + "]",
            "[]",
            "[0]",
            "[0, 0]",
            "[-1]",
            "[-9223372036854775808]",
            "[1.5]",
            "[1e400]",
            "[\"3\"]",
            "[3, null]",
            "[true]",
            "[[3]]",
            "\"[3]\"",
            "5",
            "{}",
            "[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]");

    private static final List<String> DTYPES = List.of(
            "\"<f16\"",
            "\"<f2\"",
            "\"<c8\"",
            "\"|V8\"",
            "\"<M8[ns]\"",
            "\"<m8[s]\"",
            "\"|U0\"",
            "\"|S0\"",
            "\"<U99999999\"",
            "\"|S2147483647\"",
            "\"<U536870912\"",
            "\"|S99999999999999999999\"",
            "\"<i3\"",
            "\"<i16\"",
            "\"O\"",
            "\"|O\"",
            "\"|b1\"",
            "\"<b2\"",
            "\">S1\"",
            "\"<U1\"",
            "\"|S1\"",
            "\"<u8\"",
            "\">f8\"",
            "\"\"",
            "\"i4\"",
            "\"<<i4\"",
            "\"<i4 \"",
            "[[\"a\", \"<i4\"]]",
            "5",
            "null");

    private static final List<String> FILLS = List.of(
            "\"NaN\"",
            "\"Infinity\"",
            "\"-Infinity\"",
            "\"nanf\"",
            "1e400",
            "-1",
            "256",
            "-129",
            "65536",
            TWO_64,
            "-9223372036854775809",
            "1.5",
            "\"abc\"",
            "\"AAAA\"",
            "\"%%%\"",
            "\"\"",
            "true",
            "[]",
            "[1]",
            "[1, 2]",
            "{}",
            "null");

    private static final List<String> CODECS = List.of(
            "{\"id\": \"nope\"}",
            "{\"id\": null}",
            "{\"id\": 5}",
            "{}",
            "\"zlib\"",
            "5",
            "[]",
            "{\"id\": \"zlib\", \"level\": \"x\"}",
            "{\"id\": \"zlib\", \"level\": 99}",
            "{\"id\": \"gzip\", \"level\": -99}",
            "{\"id\": \"blosc\", \"cname\": \"nope\", \"clevel\": 5, \"shuffle\": 1, \"blocksize\": 0}",
            "{\"id\": \"blosc\", \"cname\": \"lz4\", \"clevel\": 5, \"shuffle\": 7, \"blocksize\": -1}",
            "{\"id\": \"zstd\", \"level\": 1e10}",
            "{\"id\": \"lzma\", \"format\": 99, \"check\": 99, \"preset\": 99, \"filters\": null}",
            "{\"id\": \"lzma\", \"format\": 3, \"filters\": [{\"id\": 999}]}",
            "{\"id\": \"lz4\", \"acceleration\": \"fast\"}",
            "{\"id\": \"shuffle\", \"elementsize\": -1}",
            "{\"id\": \"shuffle\", \"elementsize\": 2147483647}",
            "{\"id\": \"shuffle\", \"elementsize\": 0}",
            "{\"id\": \"delta\", \"dtype\": \"<i4\", \"astype\": \"<U5\"}",
            "{\"id\": \"delta\", \"dtype\": \"<f16\"}",
            "{\"id\": \"fixedscaleoffset\", \"scale\": 0, \"offset\": 0, \"dtype\": \"<f8\", \"astype\": \"|u1\"}",
            "{\"id\": \"fixedscaleoffset\", \"scale\": \"x\", \"offset\": null, \"dtype\": \"<f8\"}",
            "{\"id\": \"astype\", \"encode_dtype\": \"|S0\", \"decode_dtype\": \"<f8\"}",
            "{\"id\": \"astype\", \"encode_dtype\": \"<f4\", \"decode_dtype\": \"<U3\"}",
            "{\"id\": \"quantize\", \"digits\": -1000, \"dtype\": \"<f8\"}",
            "{\"id\": \"quantize\", \"digits\": 1000, \"dtype\": \"<i4\"}",
            "{\"id\": \"bitround\", \"keepbits\": -1}",
            "{\"id\": \"bitround\", \"keepbits\": 99}",
            "{\"id\": \"categorize\", \"labels\": 5, \"dtype\": \"<U4\", \"astype\": \"|u1\"}",
            "{\"id\": \"categorize\", \"labels\": [\"a\", 5, null], \"dtype\": \"<f8\", \"astype\": \"<f8\"}",
            "{\"id\": \"packbits\"}",
            "{\"id\": \"fletcher32\"}",
            "{\"id\": \"crc32\", \"location\": \"middle\"}",
            "{\"id\": \"adler32\"}",
            "{\"id\": \"vlen-utf8\"}",
            "{\"id\": \"vlen-bytes\"}",
            "{\"id\": \"szip\", \"mask\": 5, \"pixels_per_block\": 0}");

    /** Every codec as the only filter, and filter lists that are not lists of codecs. */
    private static final List<String> FILTERS = Stream.concat(
                    CODECS.stream().map(c -> "[" + c + "]"),
                    Stream.of("[null]", "[[]]", "5", "{}", "[{\"id\": \"shuffle\", \"elementsize\": 3}]"))
            .toList();

    /** Codec parameters: sizes, levels, dtypes and names, each wrong for some codec. */
    private static final List<String> CODEC_PARAMS = List.of(
            "-1",
            "0",
            "1",
            "3",
            "8",
            "9",
            "255",
            "2147483647",
            "-2147483648",
            "1e10",
            "1.5",
            "\"<i4\"",
            "\"<f8\"",
            "\"|u1\"",
            "\"<U3\"",
            "\"|S0\"",
            "\"<f16\"",
            "\"nope\"",
            "null",
            "[]",
            "{}");

    private static final List<String> NAME_LISTS = List.of(
            "[\"\"]",
            "[\"..\"]",
            "[\".\"]",
            "[\"a/b\"]",
            "[\"/\"]",
            "[\"nosuch\"]",
            "[null]",
            "[5]",
            "[[\"x\"]]",
            "\"x\"",
            "{}",
            "5");

    private static final List<String> DIM_MAPS = List.of(
            "{\"x\": -1}",
            "{\"x\": " + LONG_MAX + "}",
            "{\"x\": 2147483648}",
            "{\"x\": 2147483647}",
            "{\"x\": \"abc\"}",
            "{\"x\": \" 12 \"}",
            "{\"x\": 1.5}",
            "{\"x\": null}",
            "{\"x\": {\"size\": null}}",
            "{\"x\": {\"size\": \"12\", \"unlimited\": \"yes\"}}",
            "{\"x\": {\"size\": 3, \"unlimited\": {}}}",
            "{\"x\": {}}",
            "{\"x\": []}",
            "{\"\": 1}",
            "{\"..\": 1}",
            "{\"a/b\": 1}",
            "[{\"name\": \"x\", \"size\": 3}]",
            "\"x\"",
            "5");

    private static final List<String> DIMREFS = List.of(
            "[\"/nosuch\"]",
            "[\"\"]",
            "[\"/\"]",
            "[\"//x\"]",
            "[\"/x/..\"]",
            "[\"/x/x/x\"]",
            "[\"/g/../x\"]",
            "[\"../x\"]",
            "[null]",
            "[5]",
            "[]",
            "\"/x\"",
            "{}");

    private static final List<String> TYPES = List.of(
            "{\"types\": 5}",
            "{\"types\": []}",
            "{\"types\": {\"a\": \"99999999999\"}}",
            "{\"types\": {\"a\": \"-1\"}}",
            "{\"types\": {\"a\": \"12\"}}",
            "{\"types\": {\"a\": \"|J0\"}}",
            "{\"types\": {\"a\": \"<U0\"}}",
            "{\"types\": {\"a\": {}}}",
            "{\"types\": {\"a\": null}}",
            "5",
            "[]");

    private static final Map<String, List<String>> FIELDS = Map.ofEntries(
            Map.entry("zarr_format", List.of("3", "\"2\"", "2.5", "-2", "[2]", "null", TWO_64)),
            Map.entry("shape", SHAPES),
            Map.entry("chunks", SHAPES),
            Map.entry("dtype", DTYPES),
            Map.entry("fill_value", FILLS),
            Map.entry("_FillValue", FILLS),
            Map.entry("order", List.of("\"X\"", "\"\"", "5", "null", "\"F\"", "\"c\"")),
            Map.entry("dimension_separator", List.of("\"/\"", "\".\"", "\"\"", "\"//\"", "5", "null")),
            Map.entry("compressor", CODECS),
            Map.entry("filters", FILTERS),
            Map.entry("level", CODEC_PARAMS),
            Map.entry("clevel", CODEC_PARAMS),
            Map.entry("cname", CODEC_PARAMS),
            Map.entry("shuffle", CODEC_PARAMS),
            Map.entry("blocksize", CODEC_PARAMS),
            Map.entry("elementsize", CODEC_PARAMS),
            Map.entry("astype", CODEC_PARAMS),
            Map.entry("encode_dtype", CODEC_PARAMS),
            Map.entry("decode_dtype", CODEC_PARAMS),
            Map.entry("scale", CODEC_PARAMS),
            Map.entry("offset", CODEC_PARAMS),
            Map.entry("digits", CODEC_PARAMS),
            Map.entry("keepbits", CODEC_PARAMS),
            Map.entry("labels", CODEC_PARAMS),
            Map.entry("format", CODEC_PARAMS),
            Map.entry("check", CODEC_PARAMS),
            Map.entry("preset", CODEC_PARAMS),
            Map.entry("acceleration", CODEC_PARAMS),
            Map.entry(
                    "id",
                    List.of(
                            "\"nope\"",
                            "5",
                            "null",
                            "\"\"",
                            "\"zlib\"",
                            "\"blosc\"",
                            "\"vlen-utf8\"",
                            "\"fletcher32\"",
                            "\"shuffle\"",
                            "\"delta\"",
                            "\"astype\"",
                            "\"categorize\"",
                            "\"packbits\"",
                            "\"bitround\"",
                            "\"quantize\"",
                            "\"fixedscaleoffset\"",
                            "\"szip\"",
                            "\"lzma\"",
                            "\"zstd\"",
                            "\"lz4\"")),
            Map.entry("vars", NAME_LISTS),
            Map.entry("arrays", NAME_LISTS),
            Map.entry("groups", NAME_LISTS),
            Map.entry("dims", DIM_MAPS),
            Map.entry("dimensions", DIM_MAPS),
            Map.entry("dimrefs", DIMREFS),
            Map.entry("dimension_references", DIMREFS),
            Map.entry("_ARRAY_DIMENSIONS", DIMREFS),
            Map.entry("storage", List.of("\"scalar\"", "\"contiguous\"", "5", "null", "{}")),
            Map.entry("_nczarr_attr", TYPES),
            Map.entry("_NCZARR_ATTR", TYPES),
            Map.entry("types", TYPES),
            Map.entry("_nczarr_superblock", List.of("5", "{}", "{\"version\": {}}", "[]", "null")),
            Map.entry("_NCZARR_SUPERBLOCK", List.of("5", "{}", "{\"version\": {}}", "[]", "null")),
            Map.entry("_nczarr_group", List.of("5", "{}", "[]", "null", "\"x\"")),
            Map.entry("_NCZARR_GROUP", List.of("5", "{}", "[]", "null", "\"x\"")),
            Map.entry("_nczarr_array", List.of("5", "{}", "[]", "null", "{\"dimrefs\": 5}")),
            Map.entry("_NCZARR_ARRAY", List.of("5", "{}", "[]", "null", "{\"dimrefs\": 5}")),
            Map.entry("metadata", List.of("5", "{}", "[]", "null", "{\"../.zgroup\": {}}", "{\".zgroup\": 5}")),
            Map.entry("zarr_consolidated_format", List.of("99", "\"1\"", "null")),
            Map.entry("nczarr_version", List.of("5", "{}", "\"99.0.0\"", "null")),
            Map.entry("version", List.of("5", "{}", "\"99.0.0\"", "null")));
}
