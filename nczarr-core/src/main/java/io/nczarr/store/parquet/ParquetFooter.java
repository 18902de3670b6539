package io.nczarr.store.parquet;

import java.util.ArrayList;
import java.util.List;

/**
 * The part of a Parquet file's footer ({@code FileMetaData}, Thrift compact) that a reader of a flat table
 * needs: the leaf columns of the schema and, per row group, each column chunk's place and codec. Everything
 * else (statistics, key/value metadata, indexes, bloom filters) is skipped. Offsets are checked against the
 * file: a column chunk must lie between the leading magic and the footer.
 */
final class ParquetFooter {
    static final byte[] MAGIC = {'P', 'A', 'R', '1'};

    /** Physical types. */
    static final int INT32 = 1;

    static final int INT64 = 2;
    static final int BYTE_ARRAY = 6;

    /** A leaf column: name, physical type, and whether it may hold nulls (repetition OPTIONAL). */
    record Column(String name, int type, boolean optional) {}

    /** One column chunk of a row group. */
    record Chunk(
            String path,
            int type,
            int codec,
            long numValues,
            long dataPageOffset,
            long dictionaryPageOffset,
            long compressedSize,
            long uncompressedSize) {
        /** Where the chunk's first page starts: its dictionary page if it has one. */
        long start() {
            return dictionaryPageOffset >= MAGIC.length && dictionaryPageOffset < dataPageOffset
                    ? dictionaryPageOffset
                    : dataPageOffset;
        }
    }

    record RowGroup(long numRows, List<Chunk> chunks) {}

    final List<Column> columns = new ArrayList<>();
    final List<RowGroup> rowGroups = new ArrayList<>();
    long numRows;

    /** Parses the footer of {@code file} (the whole file in memory). */
    static ParquetFooter parse(byte[] file) throws ParquetFormatException {
        int n = file.length;
        if (n < 12) {
            throw new ParquetFormatException("not a Parquet file: " + n + " bytes");
        }
        if (!magicAt(file, 0) || !magicAt(file, n - 4)) {
            throw new ParquetFormatException("not a Parquet file: no PAR1 magic at both ends");
        }
        long len = (file[n - 8] & 0xffL)
                | (file[n - 7] & 0xffL) << 8
                | (file[n - 6] & 0xffL) << 16
                | (file[n - 5] & 0xffL) << 24;
        if (len < 2 || len > n - 12) {
            throw new ParquetFormatException("footer length " + len + " does not fit the file's " + n + " bytes");
        }
        int from = (int) (n - 8 - len);
        ParquetFooter f = new ParquetFooter();
        ThriftCompact t = new ThriftCompact(file, from, n - 8);
        f.read(t, from);
        return f;
    }

    private static boolean magicAt(byte[] b, int at) {
        return b[at] == MAGIC[0] && b[at + 1] == MAGIC[1] && b[at + 2] == MAGIC[2] && b[at + 3] == MAGIC[3];
    }

    private void read(ThriftCompact t, int footerStart) throws ParquetFormatException {
        t.beginStruct();
        boolean schema = false;
        for (int type = t.nextField(); type != ThriftCompact.STOP; type = t.nextField()) {
            switch (t.fieldId()) {
                case 2:
                    expect(type, ThriftCompact.LIST, "schema");
                    readSchema(t);
                    schema = true;
                    break;
                case 3:
                    expect(type, ThriftCompact.I64, "num_rows");
                    numRows = t.readI64();
                    break;
                case 4:
                    expect(type, ThriftCompact.LIST, "row_groups");
                    int groups = t.readListHeader();
                    for (int i = 0; i < groups; i++) {
                        rowGroups.add(readRowGroup(t, footerStart));
                    }
                    break;
                case 8:
                case 9:
                    throw new ParquetFormatException("encrypted Parquet files are not supported");
                default:
                    t.skip(type);
            }
        }
        t.endStruct();
        if (!schema) {
            throw new ParquetFormatException("the footer has no schema");
        }
        if (numRows < 0) {
            throw new ParquetFormatException("negative num_rows " + numRows);
        }
        long sum = 0;
        for (RowGroup g : rowGroups) {
            sum += g.numRows();
            if (g.numRows() < 0 || sum > numRows) {
                throw new ParquetFormatException("row groups hold more rows than the file's " + numRows);
            }
        }
        if (sum != numRows) {
            throw new ParquetFormatException("row groups hold " + sum + " rows, the file says " + numRows);
        }
    }

    private void readSchema(ThriftCompact t) throws ParquetFormatException {
        int n = t.readListHeader();
        for (int i = 0; i < n; i++) {
            t.beginStruct();
            int type = -1;
            int repetition = 0;
            int children = 0;
            String name = null;
            for (int ft = t.nextField(); ft != ThriftCompact.STOP; ft = t.nextField()) {
                switch (t.fieldId()) {
                    case 1:
                        type = t.readI32();
                        break;
                    case 3:
                        repetition = t.readI32();
                        break;
                    case 4:
                        expect(ft, ThriftCompact.BINARY, "schema name");
                        name = t.readString();
                        break;
                    case 5:
                        children = t.readI32();
                        break;
                    default:
                        t.skip(ft);
                }
            }
            t.endStruct();
            if (i == 0) {
                if (children != n - 1) {
                    throw new ParquetFormatException("nested Parquet schemas are not supported (root has " + children
                            + " children, " + (n - 1) + " elements follow)");
                }
                continue;
            }
            if (name == null) {
                throw new ParquetFormatException("schema element " + i + " has no name");
            }
            if (children != 0 || type < 0) {
                throw new ParquetFormatException("nested Parquet schemas are not supported (column " + name + ")");
            }
            if (repetition == 2) {
                throw new ParquetFormatException("repeated column " + name + " is not supported");
            }
            columns.add(new Column(name, type, repetition == 1));
        }
    }

    private static RowGroup readRowGroup(ThriftCompact t, int footerStart) throws ParquetFormatException {
        t.beginStruct();
        List<Chunk> chunks = new ArrayList<>();
        long rows = -1;
        for (int ft = t.nextField(); ft != ThriftCompact.STOP; ft = t.nextField()) {
            switch (t.fieldId()) {
                case 1:
                    expect(ft, ThriftCompact.LIST, "columns");
                    int n = t.readListHeader();
                    for (int i = 0; i < n; i++) {
                        chunks.add(readColumnChunk(t, footerStart));
                    }
                    break;
                case 3:
                    rows = t.readI64();
                    break;
                default:
                    t.skip(ft);
            }
        }
        t.endStruct();
        return new RowGroup(rows, chunks);
    }

    private static Chunk readColumnChunk(ThriftCompact t, int footerStart) throws ParquetFormatException {
        t.beginStruct();
        Chunk c = null;
        for (int ft = t.nextField(); ft != ThriftCompact.STOP; ft = t.nextField()) {
            switch (t.fieldId()) {
                case 1:
                    throw new ParquetFormatException("column chunks in other files (file_path) are not supported");
                case 3:
                    expect(ft, ThriftCompact.STRUCT, "meta_data");
                    c = readColumnMeta(t);
                    break;
                default:
                    t.skip(ft);
            }
        }
        t.endStruct();
        if (c == null) {
            throw new ParquetFormatException("a column chunk without meta_data");
        }
        long start = c.start();
        if (start < MAGIC.length
                || c.compressedSize() < 0
                || c.compressedSize() > footerStart - start
                || c.numValues() < 0) {
            throw new ParquetFormatException("column chunk " + c.path() + " at " + start + " (" + c.compressedSize()
                    + " bytes) lies outside the data part of the file (4.." + footerStart + ")");
        }
        return c;
    }

    private static Chunk readColumnMeta(ThriftCompact t) throws ParquetFormatException {
        t.beginStruct();
        int type = -1;
        int codec = 0;
        long values = -1;
        long data = -1;
        long dict = -1;
        long compressed = -1;
        long uncompressed = -1;
        StringBuilder path = new StringBuilder();
        for (int ft = t.nextField(); ft != ThriftCompact.STOP; ft = t.nextField()) {
            switch (t.fieldId()) {
                case 1 -> type = t.readI32();
                case 3 -> {
                    expect(ft, ThriftCompact.LIST, "path_in_schema");
                    int n = t.readListHeader();
                    for (int i = 0; i < n; i++) {
                        path.append(i > 0 ? "." : "").append(t.readString());
                    }
                }
                case 4 -> codec = t.readI32();
                case 5 -> values = t.readI64();
                case 6 -> uncompressed = t.readI64();
                case 7 -> compressed = t.readI64();
                case 9 -> data = t.readI64();
                case 11 -> dict = t.readI64();
                default -> t.skip(ft);
            }
        }
        t.endStruct();
        return new Chunk(path.toString(), type, codec, values, data, dict, compressed, uncompressed);
    }

    private static void expect(int type, int wanted, String field) throws ParquetFormatException {
        if (type != wanted) {
            throw new ParquetFormatException("footer field " + field + " has Thrift type " + type);
        }
    }
}
