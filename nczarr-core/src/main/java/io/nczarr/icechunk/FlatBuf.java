package io.nczarr.icechunk;

import io.nczarr.error.MetadataException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One decompressed FlatBuffers payload of an Icechunk object, read in place with every offset checked: a
 * table, vector, string or struct that does not lie inside the buffer, or a table whose vtable does not, is a
 * {@link MetadataException} naming the repository, the object and what was being read — never an exception
 * of the runtime. Positions are {@code int}s into the buffer; a table is the position of its start. Immutable
 * and thread-safe.
 */
final class FlatBuf {
    private final byte[] b;
    private final String repository;
    private final String object;

    FlatBuf(byte[] bytes, String repository, String object) {
        this.b = bytes;
        this.repository = repository;
        this.object = object;
    }

    int size() {
        return b.length;
    }

    String object() {
        return object;
    }

    MetadataException bad(String what) {
        return new MetadataException(repository, object, "corrupt Icechunk object: " + what);
    }

    private void check(long pos, long len, String what) throws MetadataException {
        if (pos < 0 || len < 0 || pos + len > b.length) {
            throw bad(what + " at byte " + pos + (len > 1 ? " (" + len + " bytes)" : "") + " lies outside the "
                    + b.length + "-byte payload");
        }
    }

    int u8(int pos, String what) throws MetadataException {
        check(pos, 1, what);
        return b[pos] & 0xff;
    }

    int u16(int pos, String what) throws MetadataException {
        check(pos, 2, what);
        return (b[pos] & 0xff) | (b[pos + 1] & 0xff) << 8;
    }

    int i32(int pos, String what) throws MetadataException {
        check(pos, 4, what);
        return (b[pos] & 0xff) | (b[pos + 1] & 0xff) << 8 | (b[pos + 2] & 0xff) << 16 | (b[pos + 3] & 0xff) << 24;
    }

    long u32(int pos, String what) throws MetadataException {
        return i32(pos, what) & 0xffffffffL;
    }

    long u64(int pos, String what) throws MetadataException {
        check(pos, 8, what);
        return (u32(pos, what)) | (u32(pos + 4, what) << 32);
    }

    /** The root table. */
    int root() throws MetadataException {
        return target(0, "the root table");
    }

    /** The position a uoffset at {@code pos} points to. */
    private int target(int pos, String what) throws MetadataException {
        long t = pos + u32(pos, what);
        check(t, 4, what);
        return (int) t;
    }

    /** The position of field {@code index} of the table at {@code table}, or 0 when it is absent. */
    int field(int table, int index, String what) throws MetadataException {
        long vt = (long) table - i32(table, what + " (table)");
        check(vt, 4, what + " (vtable)");
        int vtLen = u16((int) vt, what + " (vtable)");
        int objLen = u16((int) vt + 2, what + " (vtable)");
        check(vt, vtLen, what + " (vtable)");
        check(table, objLen, what + " (table)");
        int slot = 4 + 2 * index;
        if (slot + 2 > vtLen) {
            return 0;
        }
        int off = u16((int) vt + slot, what + " (vtable)");
        if (off == 0) {
            return 0;
        }
        if (off >= objLen) {
            throw bad(what + ": field offset " + off + " past its table's " + objLen + " bytes");
        }
        return table + off;
    }

    /** Field {@code index} as a referenced table, vector or string position; 0 when absent. */
    int ref(int table, int index, String what) throws MetadataException {
        int f = field(table, index, what);
        return f == 0 ? 0 : target(f, what);
    }

    /** A required referenced field: absent is corrupt. */
    int required(int table, int index, String what) throws MetadataException {
        int r = ref(table, index, what);
        if (r == 0) {
            throw bad("required " + what + " is missing");
        }
        return r;
    }

    long u64Field(int table, int index, long dflt, String what) throws MetadataException {
        int f = field(table, index, what);
        return f == 0 ? dflt : u64(f, what);
    }

    long u32Field(int table, int index, long dflt, String what) throws MetadataException {
        int f = field(table, index, what);
        return f == 0 ? dflt : u32(f, what);
    }

    int i32Field(int table, int index, int dflt, String what) throws MetadataException {
        int f = field(table, index, what);
        return f == 0 ? dflt : i32(f, what);
    }

    int u8Field(int table, int index, int dflt, String what) throws MetadataException {
        int f = field(table, index, what);
        return f == 0 ? dflt : u8(f, what);
    }

    /** The length of the vector at {@code vec}, its elements of {@code elementSize} bytes checked to fit. */
    int length(int vec, int elementSize, String what) throws MetadataException {
        long n = u32(vec, what + " (vector length)");
        check(vec + 4L, n * elementSize, what + " (" + n + " elements)");
        return (int) n;
    }

    /** The table element {@code i} of a vector of tables. */
    int tableAt(int vec, int i, String what) throws MetadataException {
        return target(vec + 4 + 4 * i, what);
    }

    /** The bytes of a {@code [uint8]} vector or a string. */
    byte[] bytes(int vec, String what) throws MetadataException {
        int n = length(vec, 1, what);
        return Arrays.copyOfRange(b, vec + 4, vec + 4 + n);
    }

    /** A string (UTF-8, checked). */
    String string(int vec, String what) throws MetadataException {
        int n = length(vec, 1, what);
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(b, vec + 4, n))
                    .toString();
        } catch (CharacterCodingException e) {
            throw bad(what + " is not UTF-8");
        }
    }

    /** {@code n} bytes of an inline struct at {@code pos}. */
    byte[] struct(int pos, int n, String what) throws MetadataException {
        check(pos, n, what);
        return Arrays.copyOfRange(b, pos, pos + n);
    }

    /** Compares the {@code n} bytes at {@code pos} with {@code key}, unsigned, as Icechunk sorts ids. */
    int compare(int pos, byte[] key, String what) throws MetadataException {
        check(pos, key.length, what);
        return Arrays.compareUnsigned(b, pos, pos + key.length, key, 0, key.length);
    }
}
