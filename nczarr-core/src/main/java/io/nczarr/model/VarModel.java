package io.nczarr.model;

import java.util.List;

/**
 * A variable: where its chunks live, how they decode and what netCDF sees.
 *
 * @param name the variable name
 * @param key the store prefix of the array ({@code "g1/temp"})
 * @param dimensions full paths of its shared dimensions ({@code "/time"}), outermost first
 * @param shape the netCDF shape ({@code []} for a scalar)
 * @param array the Zarr array layout (its shape is {@code [1]} for an NCZarr scalar)
 * @param element element storage and netCDF type
 * @param fill what a missing chunk reads as: a boxed value of the variable's type, or {@code null} for zeros
 * @param attributes user-visible attributes
 */
public record VarModel(
        String name,
        String key,
        List<String> dimensions,
        long[] shape,
        ArrayMeta array,
        ElementType element,
        Object fill,
        List<Attr> attributes) {

    public NcType type() {
        return element.ncType();
    }

    public boolean isScalar() {
        return shape.length == 0;
    }
}
