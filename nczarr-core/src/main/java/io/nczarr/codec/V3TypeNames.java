package io.nczarr.codec;

import java.util.Map;

/** Zarr v3's fixed-size data type names and the little-endian numpy dtype each is stored as: the one table. */
public final class V3TypeNames {
    private V3TypeNames() {}

    public static final Map<String, String> FIXED_SIZE = Map.ofEntries(
            Map.entry("bool", "|b1"),
            Map.entry("int8", "|i1"),
            Map.entry("uint8", "|u1"),
            Map.entry("int16", "<i2"),
            Map.entry("uint16", "<u2"),
            Map.entry("int32", "<i4"),
            Map.entry("uint32", "<u4"),
            Map.entry("int64", "<i8"),
            Map.entry("uint64", "<u8"),
            Map.entry("float16", "<f2"),
            Map.entry("float32", "<f4"),
            Map.entry("float64", "<f8"),
            Map.entry("complex64", "<c8"),
            Map.entry("complex128", "<c16"));

    /** {@link #FIXED_SIZE} without the names given. */
    public static Map<String, String> without(String... names) {
        Map<String, String> m = new java.util.HashMap<>(FIXED_SIZE);
        for (String n : names) {
            m.remove(n);
        }
        return Map.copyOf(m);
    }
}
