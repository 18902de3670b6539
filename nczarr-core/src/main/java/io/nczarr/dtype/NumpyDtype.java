package io.nczarr.dtype;

import java.nio.ByteOrder;

/**
 * A NumPy type string as Zarr v2 metadata and numcodecs parameters write it: an optional byte
 * order ({@code <}, {@code >}, {@code |} not applicable, {@code =} native), a kind letter and a
 * size, e.g. {@code "<f8"}, {@code "|u1"}, {@code ">i2"}, {@code "|b1"}, {@code "|S10"},
 * {@code "<U4"}, {@code "|V20"}, {@code "|O"}, {@code "<M8[ns]"}. This is the one parser of such
 * strings in the project; the model (element types) and the codecs (filters) both use it.
 *
 * <p>Sizes are checked per kind as NumPy does (integers 1/2/4/8, floats 2/4/8, complex 8/16,
 * bool 1, datetimes 8); a missing size takes numcodecs' default for the kind. The byte order is
 * normalised: one-byte and byte-string kinds are {@code |}, native and unspecified orders of
 * wider kinds are {@code <} (little-endian, as on every platform Zarr data comes from).
 * Equality ignores the spelling: {@code "|u1"} equals {@code "<u1"}.
 */
public final class NumpyDtype {

    /** Largest size of a flexible kind (S, U, V): no real dtype is wider, and filters allocate per element. */
    static final int MAX_FLEXIBLE_SIZE = 1 << 24;

    private static final String KINDS = "biufcSUVOMm";

    private final String text;
    private final char byteOrder;
    private final char kind;
    private final int itemsize;

    private NumpyDtype(String text, char byteOrder, char kind, int itemsize) {
        this.text = text;
        this.byteOrder = byteOrder;
        this.kind = kind;
        this.itemsize = itemsize;
    }

    /** Parses a type string; anything else is an {@link InvalidDtypeException} saying what is wrong. */
    public static NumpyDtype parse(String text) throws InvalidDtypeException {
        if (text == null) {
            throw new InvalidDtypeException("missing dtype");
        }
        String t = text.trim();
        if (t.isEmpty()) {
            throw new InvalidDtypeException("empty dtype");
        }
        char order = '=';
        char c0 = t.charAt(0);
        if (c0 == '<' || c0 == '>' || c0 == '|' || c0 == '=') {
            order = c0;
            t = t.substring(1);
        }
        if (t.isEmpty()) {
            throw new InvalidDtypeException("bad dtype '" + text + "'");
        }
        char kind = t.charAt(0);
        if (KINDS.indexOf(kind) < 0) {
            throw new InvalidDtypeException("unsupported dtype '" + text + "'");
        }
        if (kind == 'O') {
            // object arrays: elements are references, their encoding is a codec's business
            return new NumpyDtype(text, '|', 'O', 0);
        }
        String num = t.substring(1);
        if ((kind == 'M' || kind == 'm') && num.contains("[")) {
            num = num.substring(0, num.indexOf('[')); // the time unit does not change the layout
        }
        int n = num.isEmpty() ? defaultSize(kind) : parseSize(text, num);
        if (n == 0 && kind != 'S' && kind != 'U' && kind != 'V') {
            throw new InvalidDtypeException("bad dtype size in '" + text + "'");
        }
        checkSize(text, kind, n);
        int itemsize = kind == 'U' ? 4 * n : n;
        return new NumpyDtype(text, normalOrder(order, kind, itemsize), kind, itemsize);
    }

    /** Parses a type string, {@code null} when it is not valid (for callers that report it their own way). */
    public static NumpyDtype parseOrNull(String text) {
        try {
            return parse(text);
        } catch (InvalidDtypeException e) {
            return null;
        }
    }

    private static int defaultSize(char kind) {
        switch (kind) {
            case 'b':
                return 1;
            case 'i':
            case 'u':
            case 'f':
            case 'M':
            case 'm':
                return 8;
            case 'c':
                return 16;
            default:
                return 0; // S, U, V: flexible, zero-sized until given a length
        }
    }

    private static int parseSize(String text, String num) throws InvalidDtypeException {
        int n;
        try {
            n = Integer.parseInt(num);
        } catch (NumberFormatException e) {
            throw new InvalidDtypeException("bad dtype '" + text + "'");
        }
        if (n < 0 || n > MAX_FLEXIBLE_SIZE) {
            throw new InvalidDtypeException("bad dtype size in '" + text + "'");
        }
        return n;
    }

    private static void checkSize(String text, char kind, int n) throws InvalidDtypeException {
        switch (kind) {
            case 'b':
                if (n != 1) {
                    throw new InvalidDtypeException("bad bool dtype '" + text + "'");
                }
                break;
            case 'i':
            case 'u':
                if (n != 1 && n != 2 && n != 4 && n != 8) {
                    throw new InvalidDtypeException("bad integer dtype '" + text + "'");
                }
                break;
            case 'f':
                if (n != 2 && n != 4 && n != 8) {
                    throw new InvalidDtypeException("unsupported float dtype '" + text + "'");
                }
                break;
            case 'c':
                if (n != 8 && n != 16) {
                    throw new InvalidDtypeException("unsupported complex dtype '" + text + "'");
                }
                break;
            case 'M':
            case 'm':
                if (n != 8) {
                    throw new InvalidDtypeException("bad datetime dtype '" + text + "'");
                }
                break;
            default:
                break; // S, U, V: any length, 0 included
        }
    }

    private static char normalOrder(char order, char kind, int itemsize) {
        if (itemsize == 1 || kind == 'S' || kind == 'V' || kind == 'b') {
            return '|';
        }
        return order == '>' ? '>' : '<';
    }

    /** The string as written (what messages and {@link #toString()} show). */
    public String text() {
        return text;
    }

    /** The normalised order character: {@code '<'}, {@code '>'} or {@code '|'}. */
    public char byteOrder() {
        return byteOrder;
    }

    /** The byte order of multi-byte values ({@code |} reads as little-endian). */
    public ByteOrder order() {
        return byteOrder == '>' ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    }

    public boolean bigEndian() {
        return byteOrder == '>';
    }

    /** NumPy's kind letter: b, i, u, f, c, S, U, V, O, M or m. */
    public char kind() {
        return kind;
    }

    /** Bytes per element; {@code 0} for {@code |O} (variable length) and zero-length S/U/V. */
    public int itemsize() {
        return itemsize;
    }

    /** The size as the type string counts it: characters for {@code U}, bytes for every other kind. */
    public int length() {
        return kind == 'U' ? itemsize / 4 : itemsize;
    }

    /** bool, signed, unsigned, float or datetime: the kinds numeric casts handle. */
    public boolean isNumeric() {
        return kind == 'b' || kind == 'i' || kind == 'u' || kind == 'f' || kind == 'M' || kind == 'm';
    }

    /** signed, unsigned or datetime (datetimes are int64 counts). */
    public boolean isInteger() {
        return kind == 'i' || kind == 'u' || kind == 'M' || kind == 'm';
    }

    public boolean isFloat() {
        return kind == 'f';
    }

    /** The normalised spelling, e.g. {@code "<i4"} for {@code "=i4"} and {@code "|u1"} for {@code "<u1"}. */
    public String str() {
        if (kind == 'O') {
            return "|O";
        }
        return "" + byteOrder + kind + length();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NumpyDtype d && d.byteOrder == byteOrder && d.kind == kind && d.itemsize == itemsize;
    }

    @Override
    public int hashCode() {
        return (byteOrder * 31 + kind) * 31 + itemsize;
    }

    @Override
    public String toString() {
        return text;
    }
}
