package io.nczarr.spark;

import io.nczarr.error.NcZarrException;
import io.nczarr.model.NcType;
import io.nczarr.read.CfEncoding;
import io.nczarr.read.ChunkGrid;
import io.nczarr.read.VariableReader;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The table a dataset shows Spark: the selected variables' common dimensions (their lengths, the chunk
 * grid partitions follow, the coordinate values) and the columns. Made on the driver from metadata and the
 * 1-D coordinate variables; shipped to executors (small: no store, no netCDF object).
 */
final class Grid implements Serializable {
    private static final long serialVersionUID = 1L;

    final SourceOptions options;
    final String[] dimNames;
    final long[] lengths;
    /** The chunk (for a sharded array: the shard) shape of the first selected variable. */
    final int[] chunk;

    final List<ColumnSpec> columns;
    /** Per dimension: the coordinate's raw values (COORDINATE), epoch micros (TIME), or null (INDEX). */
    final Object[] dimValues;

    private Grid(
            SourceOptions options,
            String[] dimNames,
            long[] lengths,
            int[] chunk,
            List<ColumnSpec> columns,
            Object[] dimValues) {
        this.options = options;
        this.dimNames = dimNames;
        this.lengths = lengths;
        this.chunk = chunk;
        this.columns = columns;
        this.dimValues = dimValues;
    }

    /** Opens the dataset (through this JVM's cache) and lays out its table. */
    static Grid load(SourceOptions options) throws IOException {
        Opened ds = CoreAccess.dataset(options.url());
        List<VariableReader> vars = select(ds, options);
        VariableReader first = vars.get(0);
        List<String> dims = CoreAccess.tableDimensions(first);
        for (VariableReader v : vars) {
            if (!CoreAccess.tableDimensions(v).equals(dims)) {
                throw new NcZarrException(
                        ds.location(),
                        null,
                        v.name(),
                        "dimensions " + CoreAccess.tableDimensions(v) + " differ from " + first.name() + "'s " + dims
                                + ": the variables of one table share their dimensions (read the others in"
                                + " another table)",
                        null);
            }
        }
        int rank = dims.size();
        String[] names = new String[rank];
        long[] lengths = CoreAccess.tableShape(first);
        // the chunk grid of the first variable: for a sharded array, its shards (whole objects)
        ChunkGrid grid = first.grid();
        int[] gridChunk = grid.isSharded() ? grid.shardShape() : grid.chunkShape();
        int[] chunk = new int[rank];
        Object[] values = new Object[rank];
        List<ColumnSpec> cols = new ArrayList<>();
        Set<String> used = new HashSet<>();
        for (int d = 0; d < rank; d++) {
            String path = dims.get(d);
            names[d] = path.substring(path.lastIndexOf('/') + 1);
            if (used.contains(names[d])) {
                // a dimension used twice (a square matrix): the second column is named by its position
                names[d] = names[d] + "_" + d;
            }
            chunk[d] = gridChunk.length >= rank
                    ? Math.max(1, gridChunk[d])
                    : (int) Math.min(Integer.MAX_VALUE, Math.max(1, lengths[d]));
            VariableReader coord = coordinate(ds, path, lengths[d]);
            ColumnSpec col;
            if (coord == null) {
                col = new ColumnSpec(names[d], ColumnSpec.Kind.INDEX, d, null, null, DataTypes.LongType, false, false);
            } else {
                Object raw = CoreAccess.readAll(coord);
                long[] ref = CfTime.parse(CoreAccess.text(coord, "units"), CoreAccess.text(coord, "calendar"));
                if (ref != null) {
                    long[] micros = new long[(int) lengths[d]];
                    for (int i = 0; i < micros.length; i++) {
                        micros[i] = CfTime.micros(ref, Values.asDouble(raw, i, coord.type()));
                    }
                    values[d] = micros;
                    col = new ColumnSpec(
                            names[d],
                            ColumnSpec.Kind.TIME,
                            d,
                            coord.path(),
                            coord.type(),
                            DataTypes.TimestampType,
                            false,
                            false);
                } else {
                    values[d] = raw;
                    col = new ColumnSpec(
                            names[d],
                            ColumnSpec.Kind.COORDINATE,
                            d,
                            coord.path(),
                            coord.type(),
                            Values.sparkType(coord.type()),
                            false,
                            false);
                }
            }
            cols.add(col);
            used.add(names[d]);
        }
        for (VariableReader v : vars) {
            if (!used.add(v.name())) {
                throw new NcZarrException(
                        ds.location(), null, v.name(), "two columns would be named " + v.name(), null);
            }
            cols.add(variableColumn(v, options.cfDecode()));
        }
        if (options.chunks()) {
            cols = chunkColumns(cols);
        }
        return new Grid(options, names, lengths, chunk, List.copyOf(cols), values);
    }

    /** The variables named by the option, else every readable data variable of the first most-dimensional one's dimensions. */
    private static List<VariableReader> select(Opened ds, SourceOptions options) throws NcZarrException {
        List<VariableReader> out = new ArrayList<>();
        if (options.variables() != null) {
            for (String name : options.variables()) {
                VariableReader v = CoreAccess.find(ds, name);
                if (!CoreAccess.readable(v)) {
                    throw new NcZarrException(
                            ds.location(),
                            null,
                            v.name(),
                            "a " + v.type().cdlName() + " variable is not a column the nczarr data source makes"
                                    + " (numeric, string, char and structure variables are; opaque ones and"
                                    + " structures of an unknown record type are not)",
                            null);
                }
                out.add(v);
            }
            return out;
        }
        VariableReader best = null;
        for (VariableReader v : CoreAccess.variables(ds).values()) {
            if (CoreAccess.readable(v)
                    && v.type().isNumeric()
                    && !isCoordinate(v)
                    && (best == null || v.shape().length > best.shape().length)) {
                best = v;
            }
        }
        if (best == null) {
            throw new NcZarrException(
                    ds.location(), null, null, "no numeric data variable to read (option variables names them)", null);
        }
        for (VariableReader v : CoreAccess.variables(ds).values()) {
            if (CoreAccess.readable(v)
                    && !isCoordinate(v)
                    && CoreAccess.tableDimensions(v).equals(best.dimensions())) {
                out.add(v);
            }
        }
        return out;
    }

    /** A 1-D variable named as its dimension. */
    private static boolean isCoordinate(VariableReader v) {
        if (v.dimensions().size() != 1) {
            return false;
        }
        String d = v.dimensions().get(0);
        return d.substring(d.lastIndexOf('/') + 1).equals(v.name());
    }

    /** The 1-D numeric coordinate variable of a dimension (same name, same group), or null. */
    private static VariableReader coordinate(Opened ds, String dimPath, long length) {
        for (VariableReader v : CoreAccess.variables(ds).values()) {
            if (isCoordinate(v)
                    && v.dimensions().get(0).equals(dimPath)
                    && CoreAccess.readable(v)
                    && v.type().isNumeric()
                    && v.shape()[0] == length
                    && length <= Integer.MAX_VALUE - 8) {
                return v;
            }
        }
        return null;
    }

    private static ColumnSpec variableColumn(VariableReader v, boolean cf) {
        NcType t = v.type();
        if (t == NcType.STRUCTURE) {
            // records keep their raw field values: decode cf has no rule for a field
            return new ColumnSpec(
                    v.name(),
                    ColumnSpec.Kind.VARIABLE,
                    -1,
                    v.path(),
                    t,
                    Records.sparkType(CoreAccess.compound(v)),
                    false,
                    false);
        }
        if (!cf || !t.isNumeric()) {
            return new ColumnSpec(
                    v.name(), ColumnSpec.Kind.VARIABLE, -1, v.path(), t, Values.sparkType(t), false, false);
        }
        CfEncoding enc = v.encoding();
        boolean packed = enc.isPacked();
        DataType type = packed
                ? (enc.unpackedType() == NcType.DOUBLE ? DataTypes.DoubleType : DataTypes.FloatType)
                : Values.sparkType(t);
        return new ColumnSpec(v.name(), ColumnSpec.Kind.VARIABLE, -1, v.path(), t, type, packed, true);
    }

    /** Layout chunks: origin and shape, then each variable's values as an array. */
    private static List<ColumnSpec> chunkColumns(List<ColumnSpec> grid) {
        List<ColumnSpec> out = new ArrayList<>();
        out.add(new ColumnSpec(
                "origin",
                ColumnSpec.Kind.ORIGIN,
                -1,
                null,
                null,
                DataTypes.createArrayType(DataTypes.LongType, false),
                false,
                false));
        out.add(new ColumnSpec(
                "shape",
                ColumnSpec.Kind.SHAPE,
                -1,
                null,
                null,
                DataTypes.createArrayType(DataTypes.IntegerType, false),
                false,
                false));
        for (ColumnSpec c : grid) {
            if (c.kind() == ColumnSpec.Kind.VARIABLE) {
                out.add(new ColumnSpec(
                        c.name(),
                        c.kind(),
                        -1,
                        c.varPath(),
                        c.type(),
                        DataTypes.createArrayType(c.sparkType(), c.nullable()),
                        c.packed(),
                        c.cf()));
            }
        }
        return out;
    }

    /** The table's schema: dimension columns first, then the variables. */
    StructType schema() {
        List<StructField> fields = new ArrayList<>();
        for (ColumnSpec c : columns) {
            fields.add(new StructField(c.name(), c.sparkType(), c.nullable(), Metadata.empty()));
        }
        return new StructType(fields.toArray(new StructField[0]));
    }

    /** The column of this name (Spark's names are case-insensitive by default), or null. */
    ColumnSpec column(String name) {
        for (ColumnSpec c : columns) {
            if (c.name().equals(name)) {
                return c;
            }
        }
        for (ColumnSpec c : columns) {
            if (c.name().equalsIgnoreCase(name)) {
                return c;
            }
        }
        return null;
    }

    /** Bytes one row of these columns takes decoded. */
    static long rowBytes(List<ColumnSpec> cols) {
        long b = 0;
        for (ColumnSpec c : cols) {
            b += Values.width(c.sparkType());
        }
        return Math.max(1, b);
    }

    /** The value of a dimension column at an index, boxed as Spark holds it (filters compare with these). */
    Object dimValue(ColumnSpec c, long index) {
        switch (c.kind()) {
            case INDEX:
                return index;
            case TIME:
                return ((long[]) dimValues[c.dim()])[(int) index];
            default:
                return Values.boxed(dimValues[c.dim()], (int) index, c.type());
        }
    }
}
