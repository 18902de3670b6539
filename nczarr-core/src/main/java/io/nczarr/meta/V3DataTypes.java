package io.nczarr.meta;

import com.fasterxml.jackson.databind.JsonNode;
import io.nczarr.codec.V3TypeNames;
import io.nczarr.dtype.CompoundType;
import io.nczarr.dtype.NumpyDtype;
import java.util.Map;

/**
 * Zarr v3 {@code data_type} names → the dtype the codec chain stores and the dtype chunks decode
 * to. Types with no netCDF rule (raw bits, extensions) are absent; variable-length
 * bytes are opaque ({@link #isBytes}); complex
 * numbers are records of {@code real} and {@code imag}.
 */
final class V3DataTypes {
    private V3DataTypes() {}

    /**
     * @param stored what the chain encodes
     * @param decoded what a chunk decodes to
     * @param time the CF units of {@code numpy.datetime64} / {@code numpy.timedelta64}, else {@code null}
     */
    record Mapping(NumpyDtype stored, NumpyDtype decoded, TimeUnits.Units time, CompoundType compound) {
        Mapping(NumpyDtype stored, NumpyDtype decoded) {
            this(stored, decoded, null, null);
        }

        Mapping(NumpyDtype stored, NumpyDtype decoded, TimeUnits.Units time) {
            this(stored, decoded, time, null);
        }
    }

    private static final Map<String, String> STORED = stored();

    private static Map<String, String> stored() {
        Map<String, String> m = new java.util.HashMap<>(V3TypeNames.FIXED_SIZE);
        // zarr-extensions bfloat16: its raw 16 bits, widened exactly to float ({@link #isBFloat16})
        m.put("bfloat16", "<u2");
        m.put("string", "|O");
        m.put("variable_length_bytes", "|O");
        m.put("bytes", "|O");
        return Map.copyOf(m);
    }

    /** {@code variable_length_bytes} (zarr-python 3.1) or {@code bytes} (the spec's name): opaque byte strings. */
    static boolean isBytes(JsonNode dataType) {
        return dataType != null
                && dataType.isTextual()
                && (dataType.textValue().equals("variable_length_bytes")
                        || dataType.textValue().equals("bytes"));
    }

    /** The most bytes one raw-bytes element may hold (as for fixed-length strings). */
    static final int MAX_RAW_BYTES = 1 << 20;

    /**
     * The length in bytes of zarr-extensions raw bits {@code r<N>} (N a positive multiple of 8) or zarr-python's
     * {@code {"name": "raw_bytes", "configuration": {"length_bytes": n}}}; 0 for any other type.
     */
    static int rawLength(JsonNode dataType) {
        long n = 0;
        if (dataType != null && dataType.isTextual() && dataType.textValue().matches("r[0-9]{1,9}")) {
            long bits = Long.parseLong(dataType.textValue().substring(1));
            n = bits % 8 == 0 ? bits / 8 : 0;
        } else if (dataType != null
                && dataType.isObject()
                && dataType.path("name").asText("").equals("raw_bytes")) {
            JsonNode len = dataType.path("configuration").get("length_bytes");
            n = len != null && len.isIntegralNumber() && len.canConvertToInt() ? len.intValue() : 0;
        }
        return n > 0 && n <= MAX_RAW_BYTES ? (int) n : 0;
    }

    /** Whether a mapping is raw bytes' ({@code |V<n>} with no record type): opaque values. */
    static boolean isRaw(Mapping m) {
        return m.stored().kind() == 'V' && m.compound() == null;
    }

    /** Whether a mapping is bfloat16's (raw bits {@code <u2} decoding to {@code <f4}). */
    static boolean isBFloat16(Mapping m) {
        return m.stored().kind() == 'u' && m.decoded().kind() == 'f';
    }

    /**
     * Why a type has no mapping: the zarr-extensions families no netCDF type holds (float8/6/4, the
     * sub-byte integers, raw bits), or unknown.
     */
    static String unsupportedReason(JsonNode dataType) {
        String n = name(dataType);
        if (n.startsWith("float8")
                || n.startsWith("float6")
                || n.startsWith("float4")
                || n.startsWith("complex_float")
                || n.matches("u?int[124]")
                || n.matches("r[0-9]+")
                || n.equals("raw_bytes")) {
            // r<N> with N not a multiple of 8, or a length past MAX_RAW_BYTES
            return "data type '" + n + "' is not supported (no netCDF type holds it)";
        }
        return "data type '" + n + "' has no netCDF mapping";
    }

    /** The type's name for messages: a string, or an extension object's {@code name}. */
    static String name(JsonNode dataType) {
        if (dataType == null) {
            return "null";
        }
        if (dataType.isTextual()) {
            return dataType.textValue();
        }
        JsonNode n = dataType.get("name");
        return n != null && n.isTextual()
                ? n.textValue()
                : dataType.getNodeType().toString().toLowerCase();
    }

    /** The mapping, or {@code null} when the type has none. */
    static Mapping of(JsonNode dataType) {
        int raw = rawLength(dataType);
        if (raw > 0) {
            NumpyDtype v = NumpyDtype.parseOrNull("|V" + raw);
            return v == null ? null : new Mapping(v, v);
        }
        if (V3Structs.isStruct(dataType)) {
            return struct(dataType);
        }
        if (dataType != null && dataType.isObject()) {
            Mapping fixed = fixedLength(dataType);
            return fixed != null ? fixed : time(dataType);
        }
        String text = dataType != null && dataType.isTextual() ? STORED.get(dataType.textValue()) : null;
        if (text == null) {
            return null;
        }
        NumpyDtype stored = NumpyDtype.parseOrNull(text);
        NumpyDtype decoded =
                text.equals("<f2") || dataType.textValue().equals("bfloat16") ? NumpyDtype.parseOrNull("<f4") : stored;
        return new Mapping(stored, decoded);
    }

    /** {@code struct} / legacy {@code structured}: records (stored as {@code |V<itemsize>}), or null. */
    private static Mapping struct(JsonNode dataType) {
        CompoundType c;
        try {
            c = V3Structs.compound(dataType);
        } catch (IllegalArgumentException e) {
            return null;
        }
        NumpyDtype v = NumpyDtype.parseOrNull("|V" + c.itemsize());
        return v == null ? null : new Mapping(v, v, null, c);
    }

    /**
     * zarr-extensions' {@code fixed_length_utf32} (numpy {@code <U n}, what xarray 2026.4+ writes for
     * numpy strings: {@code length_bytes} = 4 n) → string; {@code null_terminated_bytes} (numpy
     * {@code |S n}) → char for n = 1, else string (text up to the first NUL).
     */
    private static Mapping fixedLength(JsonNode dataType) {
        String name = dataType.path("name").asText("");
        boolean utf32 = name.equals("fixed_length_utf32");
        if (!utf32 && !name.equals("null_terminated_bytes")) {
            return null;
        }
        JsonNode len = dataType.path("configuration").get("length_bytes");
        if (len == null || !len.canConvertToInt() || !len.isIntegralNumber()) {
            return null;
        }
        int n = len.intValue();
        if (n <= 0 || n > (1 << 20) || (utf32 && n % 4 != 0)) {
            return null;
        }
        NumpyDtype d = NumpyDtype.parseOrNull(utf32 ? "<U" + (n / 4) : "|S" + n);
        return d == null ? null : new Mapping(d, d);
    }

    /**
     * zarr-python's {@code {"name": "numpy.datetime64", "configuration": {"unit": "ns",
     * "scale_factor": 1}}} (or timedelta64): int64 counts with CF units, as for v2 {@code <M8[ns]}.
     * Only a scale factor of 1 and the units {@link TimeUnits} has a rule for.
     */
    private static Mapping time(JsonNode dataType) {
        String name = dataType.path("name").asText("");
        boolean datetime = name.equals("numpy.datetime64");
        if (!datetime && !name.equals("numpy.timedelta64")) {
            return null;
        }
        JsonNode conf = dataType.get("configuration");
        if (conf == null || !conf.isObject()) {
            return null;
        }
        JsonNode scale = conf.get("scale_factor");
        if (scale != null && !(scale.isIntegralNumber() && scale.asLong() == 1)) {
            return null;
        }
        JsonNode unit = conf.get("unit");
        TimeUnits.Units units = unit != null && unit.isTextual() ? TimeUnits.of(datetime, unit.textValue()) : null;
        if (units == null) {
            return null;
        }
        NumpyDtype int64 = NumpyDtype.parseOrNull("<i8");
        return new Mapping(int64, int64, units);
    }
}
