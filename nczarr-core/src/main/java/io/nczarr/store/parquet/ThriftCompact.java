package io.nczarr.store.parquet;

import java.nio.charset.StandardCharsets;

/**
 * A reader of Thrift's compact protocol over {@code [pos, end)} of one byte array: the encoding of Parquet's
 * footer ({@code FileMetaData}) and page headers. Every length is checked against what is left, nesting is
 * bounded, and any violation is a {@link ParquetFormatException}, never an index exception.
 *
 * <p>Structs are read field by field: {@link #nextField()} returns the field's type (0 = the struct's end) and
 * sets {@link #fieldId()}; the caller reads the value with the matching method or {@link #skip(int)}s it.
 */
final class ThriftCompact {
    static final int STOP = 0;
    static final int TRUE = 1;
    static final int FALSE = 2;
    static final int BYTE = 3;
    static final int I16 = 4;
    static final int I32 = 5;
    static final int I64 = 6;
    static final int DOUBLE = 7;
    static final int BINARY = 8;
    static final int LIST = 9;
    static final int SET = 10;
    static final int MAP = 11;
    static final int STRUCT = 12;

    /** Deeper nesting than any Parquet structure needs is a malformed document. */
    private static final int MAX_DEPTH = 32;

    private final byte[] buf;
    private final int end;
    private int pos;
    private int lastFieldId;
    private int fieldId;
    private final int[] fieldStack = new int[MAX_DEPTH];
    private int depth;

    ThriftCompact(byte[] buf, int from, int end) {
        this.buf = buf;
        this.pos = from;
        this.end = end;
    }

    int position() {
        return pos;
    }

    int fieldId() {
        return fieldId;
    }

    /** Enters a struct value (the field's own fields follow). */
    void beginStruct() throws ParquetFormatException {
        if (depth == MAX_DEPTH) {
            throw new ParquetFormatException("Thrift structures nested deeper than " + MAX_DEPTH);
        }
        fieldStack[depth++] = lastFieldId;
        lastFieldId = 0;
    }

    /** Leaves a struct after {@link #nextField()} returned {@link #STOP}. */
    void endStruct() {
        lastFieldId = fieldStack[--depth];
    }

    /** The next field's type, {@link #STOP} at the end of the struct. */
    int nextField() throws ParquetFormatException {
        int b = readByte() & 0xff;
        int type = b & 0x0f;
        if (type == STOP) {
            return STOP;
        }
        int delta = b >>> 4;
        fieldId = delta != 0 ? lastFieldId + delta : (short) zigzag32(varint());
        lastFieldId = fieldId;
        if (type > STRUCT) {
            throw new ParquetFormatException("unknown Thrift type " + type + " at byte " + (pos - 1));
        }
        return type;
    }

    /** A boolean field's value: its type says it. */
    static boolean bool(int type) {
        return type == TRUE;
    }

    int readI32() throws ParquetFormatException {
        long v = zigzag64(varint());
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new ParquetFormatException("32-bit Thrift integer out of range: " + v);
        }
        return (int) v;
    }

    long readI64() throws ParquetFormatException {
        return zigzag64(varint());
    }

    byte[] readBinary() throws ParquetFormatException {
        int n = length("binary");
        byte[] b = new byte[n];
        System.arraycopy(buf, pos, b, 0, n);
        pos += n;
        return b;
    }

    String readString() throws ParquetFormatException {
        int n = length("string");
        String s = new String(buf, pos, n, StandardCharsets.UTF_8);
        pos += n;
        return s;
    }

    /**
     * A list (or set) header: returns the element count and puts the element type in {@link #fieldId()}'s place
     * ({@link #elementType()}). The count is checked against the bytes left (each element takes one at least).
     */
    int readListHeader() throws ParquetFormatException {
        int b = readByte() & 0xff;
        elementType = b & 0x0f;
        long n = b >>> 4;
        if (n == 15) {
            n = varint();
        }
        if (n < 0 || n > end - pos) {
            throw new ParquetFormatException("Thrift list of " + n + " elements in " + (end - pos) + " bytes");
        }
        return (int) n;
    }

    private int elementType;

    int elementType() {
        return elementType;
    }

    /** Skips one value of {@code type}. */
    void skip(int type) throws ParquetFormatException {
        switch (type) {
            case TRUE:
            case FALSE:
                return; // a field's value is in its type
            case BYTE:
                readByte();
                return;
            case I16:
            case I32:
            case I64:
                varint();
                return;
            case DOUBLE:
                need(8, "double");
                pos += 8;
                return;
            case BINARY: {
                int n = length("binary"); // before pos is read: length() moves it
                pos += n;
                return;
            }
            case LIST:
            case SET: {
                int n = readListHeader();
                int t = elementType;
                for (int i = 0; i < n; i++) {
                    if (t == TRUE || t == FALSE) {
                        readByte(); // a list's booleans take one byte each
                    } else {
                        skip(t);
                    }
                }
                return;
            }
            case MAP: {
                long n = varint();
                if (n == 0) {
                    return;
                }
                if (n < 0 || n > end - pos) {
                    throw new ParquetFormatException("Thrift map of " + n + " entries in " + (end - pos) + " bytes");
                }
                int kv = readByte() & 0xff;
                for (long i = 0; i < n; i++) {
                    skipElement(kv >>> 4);
                    skipElement(kv & 0x0f);
                }
                return;
            }
            case STRUCT:
                beginStruct();
                for (int t = nextField(); t != STOP; t = nextField()) {
                    skip(t);
                }
                endStruct();
                return;
            default:
                throw new ParquetFormatException("unknown Thrift type " + type);
        }
    }

    private void skipElement(int t) throws ParquetFormatException {
        if (t == TRUE || t == FALSE) {
            readByte();
        } else {
            skip(t);
        }
    }

    private int length(String what) throws ParquetFormatException {
        long n = varint();
        if (n < 0 || n > end - pos) {
            throw new ParquetFormatException("Thrift " + what + " of " + n + " bytes with " + (end - pos) + " left");
        }
        return (int) n;
    }

    private byte readByte() throws ParquetFormatException {
        need(1, "byte");
        return buf[pos++];
    }

    private void need(int n, String what) throws ParquetFormatException {
        if (end - pos < n) {
            throw new ParquetFormatException("truncated Thrift data: " + what + " at byte " + pos);
        }
    }

    /** An unsigned LEB128 varint of at most 10 bytes. */
    private long varint() throws ParquetFormatException {
        long v = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            byte b = readByte();
            v |= (long) (b & 0x7f) << shift;
            if (b >= 0) {
                return v;
            }
        }
        throw new ParquetFormatException("Thrift varint longer than 10 bytes at byte " + pos);
    }

    private static int zigzag32(long v) {
        int n = (int) v;
        return (n >>> 1) ^ -(n & 1);
    }

    private static long zigzag64(long v) {
        return (v >>> 1) ^ -(v & 1);
    }
}
