package io.nczarr.store.parquet;

import io.nczarr.error.NcZarrException;
import io.nczarr.error.StoreException;
import io.nczarr.store.ByteLimit;
import io.nczarr.store.parquet.ParquetFooter.Chunk;
import io.nczarr.store.parquet.ParquetFooter.Column;
import io.nczarr.store.parquet.ParquetFooter.RowGroup;
import java.nio.charset.StandardCharsets;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * One record file of fsspec's Parquet references ({@code <var>/refs.<k>.parq}, written by kerchunk through
 * fastparquet or pyarrow), decoded whole: per row a {@code path} (string, may be dictionary-encoded, null =
 * no target), {@code offset} and {@code size} (int64) and {@code raw} (inline bytes, null when the row points
 * into a target). A column the file does not have reads as null (path, raw) or 0 (offset, size), as fsspec
 * reads it.
 *
 * <p>A reader of our own for this fixed four-column schema (see {@code docs/user-guide.md}, "Parquet
 * references"): Parquet's footer and page headers in Thrift compact, pages v1 and v2, PLAIN and dictionary
 * encodings, RLE definition levels, codecs UNCOMPRESSED, SNAPPY, GZIP, ZSTD. Every offset and length is checked
 * against the file and every allocation against the given {@link ByteLimit}; anything wrong is a {@link
 * StoreException} naming the dataset and the file, never an exception from inside the decoder.
 */
public final class ReferenceRecords {
    private final String[] paths;
    private final long[] offsets;
    private final long[] sizes;
    private final byte[][] raws;
    private final long bytes;

    private ReferenceRecords(String[] paths, long[] offsets, long[] sizes, byte[][] raws, long bytes) {
        this.paths = paths;
        this.offsets = offsets;
        this.sizes = sizes;
        this.raws = raws;
        this.bytes = bytes;
    }

    /**
     * Decodes {@code file}, the bytes of record file {@code key} of the references at {@code dataset}.
     *
     * @param limit bounds the decoded columns (rows times their sizes) and each decoded page
     * @throws StoreException for a malformed or unsupported file
     * @throws io.nczarr.error.LimitExceededException when the decoded records would exceed {@code limit}
     */
    public static ReferenceRecords read(byte[] file, String dataset, String key, ByteLimit limit)
            throws NcZarrException {
        try {
            return decode(file, dataset, key, limit);
        } catch (ParquetFormatException e) {
            throw new StoreException(dataset, key, "malformed Parquet reference file: " + e.getMessage(), false, null);
        } catch (RuntimeException e) {
            // a defect of this decoder on hostile input: still an error naming the file, not a crash
            throw new StoreException(dataset, key, "malformed Parquet reference file: " + e, false, e);
        }
    }

    private static ReferenceRecords decode(byte[] file, String dataset, String key, ByteLimit limit)
            throws ParquetFormatException, NcZarrException {
        ParquetFooter f = ParquetFooter.parse(file);
        // each row costs at least its slots in four arrays; each page and all pages together at most the limit
        limit.checkArray(dataset, key, null, "Parquet references (" + f.numRows + " rows)", f.numRows * 32);
        long decoded = 0;
        for (RowGroup g : f.rowGroups) {
            for (Chunk c : g.chunks()) {
                decoded += Math.max(0, c.uncompressedSize());
            }
        }
        limit.check(dataset, key, null, "Parquet references (decoded columns)", decoded);
        int rows = (int) f.numRows;
        ColumnDecoder path = column(f, "path", ParquetFooter.BYTE_ARRAY, rows, file, limit);
        ColumnDecoder offset = column(f, "offset", ParquetFooter.INT64, rows, file, limit);
        ColumnDecoder size = column(f, "size", ParquetFooter.INT64, rows, file, limit);
        ColumnDecoder raw = column(f, "raw", ParquetFooter.BYTE_ARRAY, rows, file, limit);
        String[] paths = new String[rows];
        if (path != null) {
            Map<byte[], String> shared = new IdentityHashMap<>(); // dictionary entries: one String each
            for (int i = 0; i < rows; i++) {
                if (!path.nulls[i]) {
                    byte[] b = path.bytes[i];
                    paths[i] = shared.computeIfAbsent(b, x -> new String(x, StandardCharsets.UTF_8));
                }
            }
        }
        byte[][] raws = new byte[rows][];
        long bytes = 32L * rows + decoded;
        if (raw != null) {
            for (int i = 0; i < rows; i++) {
                raws[i] = raw.nulls[i] ? null : raw.bytes[i];
            }
        }
        return new ReferenceRecords(paths, numbers(offset, rows), numbers(size, rows), raws, bytes);
    }

    private static long[] numbers(ColumnDecoder c, int rows) {
        if (c == null) {
            return new long[rows];
        }
        long[] v = c.longs;
        for (int i = 0; i < rows; i++) {
            if (c.nulls[i]) {
                v[i] = 0;
            }
        }
        return v;
    }

    /** The column {@code name} over all row groups, or {@code null} when the file has none. */
    private static ColumnDecoder column(ParquetFooter f, String name, int type, int rows, byte[] file, ByteLimit limit)
            throws ParquetFormatException {
        int index = -1;
        for (int i = 0; i < f.columns.size(); i++) {
            if (f.columns.get(i).name().equals(name)) {
                index = i;
            }
        }
        if (index < 0) {
            return null;
        }
        Column col = f.columns.get(index);
        boolean number = type == ParquetFooter.INT64;
        boolean fits =
                number ? col.type() == ParquetFooter.INT64 || col.type() == ParquetFooter.INT32 : col.type() == type;
        // pyarrow writes a column with no value at all (pandas object column of None) as INT32 of logical type
        // Null: read it with its own type, then it must hold nulls only
        if (!fits && (!col.optional() || col.type() != ParquetFooter.INT32)) {
            throw new ParquetFormatException("column " + name + " has physical type " + col.type());
        }
        ColumnDecoder out = ColumnDecoder.results(col, rows);
        int at = 0;
        for (RowGroup g : f.rowGroups) {
            if (g.chunks().size() != f.columns.size()) {
                throw new ParquetFormatException(
                        "a row group has " + g.chunks().size() + " column chunks for " + f.columns.size() + " columns");
            }
            ColumnDecoder.decode(file, col, g.chunks().get(index), (int) g.numRows(), limit.bytes(), out, at);
            at += (int) g.numRows();
        }
        if (!fits) {
            for (boolean isNull : out.nulls) {
                if (!isNull) {
                    throw new ParquetFormatException("column " + name + " has physical type " + col.type());
                }
            }
            return null;
        }
        return out;
    }

    /** The number of rows (references). */
    public int rows() {
        return paths.length;
    }

    /** The target of row {@code i}, {@code null} when there is none. */
    public String path(int i) {
        return paths[i];
    }

    public long offset(int i) {
        return offsets[i];
    }

    public long size(int i) {
        return sizes[i];
    }

    /** The inline bytes of row {@code i}, {@code null} when there are none. The caller must not change them. */
    public byte[] raw(int i) {
        return raws[i];
    }

    /** About how much memory these records hold (for a cache's budget). */
    public long estimatedBytes() {
        return bytes;
    }
}
