package io.nczarr.spark;

import io.nczarr.model.NcType;
import java.io.Serializable;
import org.apache.spark.sql.types.DataType;

/**
 * One output column: a dimension (its index, its coordinate value or its CF time) or a variable (raw, or
 * CF-decoded: {@code value * scale + offset}, fill values as null).
 *
 * @param dim the dimension's position among the grid's dimensions (dimension columns), else -1
 * @param varPath the variable's path (variable columns), else null
 * @param type the variable's (or coordinate's) netCDF type; null for an index column
 * @param packed whether values are unpacked ({@code raw * scale_factor + add_offset}, decode cf)
 * @param cf whether fill, missing and out-of-range values read as null (decode cf, by the core's {@code
 *     CfEncoding} of the variable)
 */
record ColumnSpec(
        String name, Kind kind, int dim, String varPath, NcType type, DataType sparkType, boolean packed, boolean cf)
        implements Serializable {

    enum Kind {
        INDEX,
        COORDINATE,
        TIME,
        VARIABLE,
        /** layout chunks: the chunk's first index along each dimension */
        ORIGIN,
        /** layout chunks: the chunk's length along each dimension */
        SHAPE
    }

    boolean isDimension() {
        return kind == Kind.INDEX || kind == Kind.COORDINATE || kind == Kind.TIME;
    }

    /** Decoded values may be null, and so may strings. */
    boolean nullable() {
        return cf || type == NcType.STRING;
    }
}
