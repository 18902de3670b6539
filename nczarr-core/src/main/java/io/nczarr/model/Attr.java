package io.nczarr.model;

import java.lang.reflect.Array;

/**
 * An attribute with its netCDF type.
 *
 * @param value {@code byte[] short[] int[] long[] float[] double[]} for numeric types (unsigned
 *     values as their bit patterns), {@code String} for char, {@code String[]} for string
 * @param json true for a char attribute holding JSON text that has no netCDF equivalent
 */
public record Attr(String name, NcType type, Object value, boolean json) {

    public Attr(String name, NcType type, Object value) {
        this(name, type, value, false);
    }

    /** Number of values (characters count as one value for char). */
    public int length() {
        if (value instanceof String) {
            return 1;
        }
        return Array.getLength(value);
    }
}
