package io.nczarr.store.parquet;

import io.nczarr.store.parquet.ParquetFooter.Chunk;
import io.nczarr.store.parquet.ParquetFooter.Column;

/**
 * Decodes one column chunk of a flat table (no repetition) into {@code long}s (INT32/INT64) or byte arrays
 * (BYTE_ARRAY), nulls where the definition level is 0: pages DATA_PAGE (v1) and DATA_PAGE_V2, one optional
 * DICTIONARY_PAGE; value encodings PLAIN and PLAIN_DICTIONARY/RLE_DICTIONARY; definition levels RLE. Each
 * page's header and body are bounded by the column chunk, and each page's decoded size by {@code maxPage}.
 */
final class ColumnDecoder {
    private static final int DATA_PAGE = 0;
    private static final int DICTIONARY_PAGE = 2;
    private static final int DATA_PAGE_V2 = 3;

    private static final int PLAIN = 0;
    private static final int PLAIN_DICTIONARY = 2;
    private static final int RLE = 3;
    private static final int RLE_DICTIONARY = 8;

    private final byte[] file;
    private final Column column;
    private final Chunk chunk;
    private final long maxPage;

    /** Results: one of these is set, {@code rows} long. */
    long[] longs;

    byte[][] bytes;
    boolean[] nulls;

    private long[] dictLongs;
    private byte[][] dictBytes;
    private int dictSize = -1;
    private int filled;

    private ColumnDecoder(byte[] file, Column column, Chunk chunk, long maxPage) {
        this.file = file;
        this.column = column;
        this.chunk = chunk;
        this.maxPage = maxPage;
    }

    /** The {@code rows} values of {@code chunk}, written from {@code at} into {@code into}'s arrays. */
    static void decode(byte[] file, Column column, Chunk chunk, int rows, long maxPage, ColumnDecoder into, int at)
            throws ParquetFormatException {
        ColumnDecoder d = new ColumnDecoder(file, column, chunk, maxPage);
        d.longs = into.longs;
        d.bytes = into.bytes;
        d.nulls = into.nulls;
        d.filled = at;
        d.run(at + rows);
    }

    /** Empty result arrays for {@code rows} values of {@code column}. */
    static ColumnDecoder results(Column column, int rows) throws ParquetFormatException {
        ColumnDecoder r = new ColumnDecoder(null, column, null, 0);
        switch (column.type()) {
            case ParquetFooter.INT32:
            case ParquetFooter.INT64:
                r.longs = new long[rows];
                break;
            case ParquetFooter.BYTE_ARRAY:
                r.bytes = new byte[rows][];
                break;
            default:
                throw new ParquetFormatException("column " + column.name() + " has physical type " + column.type()
                        + ", not INT32/INT64/BYTE_ARRAY");
        }
        r.nulls = new boolean[rows];
        return r;
    }

    private void run(int until) throws ParquetFormatException {
        if (chunk.type() != column.type()) {
            throw new ParquetFormatException("column chunk " + chunk.path() + " has type " + chunk.type()
                    + ", the schema says " + column.type());
        }
        if (!PageCodecs.supported(chunk.codec())) {
            throw new ParquetFormatException("column " + column.name() + ": unsupported codec "
                    + PageCodecs.name(chunk.codec()) + " (UNCOMPRESSED, SNAPPY, GZIP and ZSTD are read)");
        }
        long pos = chunk.start();
        long end = pos + chunk.compressedSize();
        while (filled < until) {
            if (pos >= end) {
                throw new ParquetFormatException(
                        "column " + column.name() + " ends after " + filled + " of " + until + " values");
            }
            ThriftCompact t = new ThriftCompact(file, (int) pos, (int) end);
            PageHeader h = PageHeader.read(t);
            int body = t.position();
            if (h.compressedSize() < 0 || h.compressedSize() > end - body || h.uncompressedSize() < 0) {
                throw new ParquetFormatException("page of column " + column.name() + " at " + pos + " declares "
                        + h.compressedSize() + " bytes, " + (end - body) + " left in the column chunk");
            }
            if (h.uncompressedSize() > maxPage) {
                throw new ParquetFormatException("page of column " + column.name() + " declares " + h.uncompressedSize()
                        + " decoded bytes, more than the " + maxPage + " allowed");
            }
            switch (h.type()) {
                case DICTIONARY_PAGE:
                    dictionary(h, body);
                    break;
                case DATA_PAGE:
                case DATA_PAGE_V2:
                    dataPage(h, body, until);
                    break;
                default:
                    break; // index pages: nothing to read
            }
            pos = (long) body + h.compressedSize();
        }
    }

    private void dictionary(PageHeader h, int body) throws ParquetFormatException {
        if (dictSize >= 0) {
            throw new ParquetFormatException("column " + column.name() + " has two dictionary pages");
        }
        if (h.encoding() != PLAIN && h.encoding() != PLAIN_DICTIONARY) {
            throw new ParquetFormatException("dictionary page encoding " + h.encoding() + " is not supported");
        }
        byte[] b = PageCodecs.decode(chunk.codec(), file, body, h.compressedSize(), h.uncompressedSize());
        int n = h.numValues();
        int least = column.type() == ParquetFooter.BYTE_ARRAY ? 4 : width();
        if (n < 0 || (long) n * least > b.length) {
            throw new ParquetFormatException("dictionary of " + n + " values in " + b.length + " bytes");
        }
        ColumnDecoder d = results(column, n);
        plain(b, 0, b.length, n, d.longs, d.bytes);
        dictLongs = d.longs;
        dictBytes = d.bytes;
        dictSize = n;
    }

    private void dataPage(PageHeader h, int body, int until) throws ParquetFormatException {
        int n = h.numValues();
        if (n < 0 || n > until - filled) {
            throw new ParquetFormatException("data page of column " + column.name() + " holds " + n + " values, "
                    + (until - filled) + " expected");
        }
        byte[] page;
        int p;
        int[] defs = null;
        if (h.type() == DATA_PAGE) {
            page = PageCodecs.decode(chunk.codec(), file, body, h.compressedSize(), h.uncompressedSize());
            p = 0;
            if (column.optional()) {
                if (h.definitionEncoding() != RLE) {
                    throw new ParquetFormatException(
                            "definition level encoding " + h.definitionEncoding() + " is not supported (RLE is)");
                }
                if (page.length < 4) {
                    throw new ParquetFormatException("data page too short for its definition levels");
                }
                long len =
                        (page[0] & 0xffL) | (page[1] & 0xffL) << 8 | (page[2] & 0xffL) << 16 | (page[3] & 0xffL) << 24;
                if (len > page.length - 4) {
                    throw new ParquetFormatException(
                            "definition levels of " + len + " bytes in a page of " + page.length);
                }
                defs = new int[n];
                RleHybrid.decode(page, 4, 4 + (int) len, 1, defs, n);
                p = 4 + (int) len;
            }
        } else {
            int rl = h.repetitionLength();
            int dl = h.definitionLength();
            if (rl != 0 || dl < 0 || dl > h.compressedSize() || dl > h.uncompressedSize()) {
                throw new ParquetFormatException("data page v2 level lengths " + rl + "/" + dl + " do not fit");
            }
            if (column.optional()) {
                defs = new int[n];
                RleHybrid.decode(file, body, body + dl, 1, defs, n);
            }
            int valuesAt = body + dl;
            int clen = h.compressedSize() - dl;
            int ulen = h.uncompressedSize() - dl;
            page = h.compressed()
                    ? PageCodecs.decode(chunk.codec(), file, valuesAt, clen, ulen)
                    : PageCodecs.decode(PageCodecs.UNCOMPRESSED, file, valuesAt, clen, ulen);
            p = 0;
        }
        int present = n;
        if (defs != null) {
            present = 0;
            for (int i = 0; i < n; i++) {
                if (defs[i] > 1) {
                    throw new ParquetFormatException("definition level " + defs[i] + " above 1");
                }
                present += defs[i];
            }
        }
        long[] vl = longs == null ? null : new long[present];
        byte[][] vb = bytes == null ? null : new byte[present][];
        switch (h.encoding()) {
            case PLAIN:
                plain(page, p, page.length, present, vl, vb);
                break;
            case PLAIN_DICTIONARY:
            case RLE_DICTIONARY:
                indices(page, p, present, vl, vb);
                break;
            default:
                throw new ParquetFormatException("column " + column.name() + ": value encoding " + h.encoding()
                        + " is not supported (PLAIN, PLAIN_DICTIONARY and RLE_DICTIONARY are)");
        }
        int k = 0;
        for (int i = 0; i < n; i++) {
            boolean isNull = defs != null && defs[i] == 0;
            nulls[filled] = isNull;
            if (!isNull) {
                if (longs != null) {
                    longs[filled] = vl[k];
                } else {
                    bytes[filled] = vb[k];
                }
                k++;
            }
            filled++;
        }
    }

    private void indices(byte[] page, int p, int count, long[] vl, byte[][] vb) throws ParquetFormatException {
        if (dictSize < 0) {
            throw new ParquetFormatException("column " + column.name() + " uses a dictionary it does not have");
        }
        if (count == 0) {
            return;
        }
        if (p >= page.length) {
            throw new ParquetFormatException("dictionary-encoded page without its bit width");
        }
        int[] idx = new int[count];
        RleHybrid.decode(page, p + 1, page.length, page[p] & 0xff, idx, count);
        for (int i = 0; i < count; i++) {
            int j = idx[i];
            if (j < 0 || j >= dictSize) {
                throw new ParquetFormatException("dictionary index " + j + " outside the dictionary of " + dictSize);
            }
            if (vl != null) {
                vl[i] = dictLongs[j];
            } else {
                vb[i] = dictBytes[j];
            }
        }
    }

    /** {@code count} PLAIN values from {@code b[from, end)}. */
    private void plain(byte[] b, int from, int end, int count, long[] vl, byte[][] vb) throws ParquetFormatException {
        int pos = from;
        int w = width();
        for (int i = 0; i < count; i++) {
            if (column.type() == ParquetFooter.BYTE_ARRAY) {
                if (end - pos < 4) {
                    throw new ParquetFormatException("truncated PLAIN byte array in column " + column.name());
                }
                long len = le(b, pos, 4);
                pos += 4;
                if (len > end - pos) {
                    throw new ParquetFormatException("PLAIN byte array of " + len + " bytes with " + (end - pos)
                            + " left in column " + column.name());
                }
                vb[i] = java.util.Arrays.copyOfRange(b, pos, pos + (int) len);
                pos += (int) len;
            } else {
                if (end - pos < w) {
                    throw new ParquetFormatException("truncated PLAIN values in column " + column.name());
                }
                long v = le(b, pos, w);
                vl[i] = w == 4 ? (int) v : v;
                pos += w;
            }
        }
    }

    /** Bytes per PLAIN value of fixed width; 0 for byte arrays. */
    private int width() {
        return column.type() == ParquetFooter.INT64 ? 8 : column.type() == ParquetFooter.INT32 ? 4 : 0;
    }

    private static long le(byte[] b, int at, int n) {
        long v = 0;
        for (int i = 0; i < n; i++) {
            v |= (b[at + i] & 0xffL) << (8 * i);
        }
        return v;
    }
}
