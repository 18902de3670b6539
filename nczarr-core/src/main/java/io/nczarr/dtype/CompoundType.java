package io.nczarr.dtype;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A fixed-size record type: NumPy's structured dtypes ({@code [["a","<i4"],["b","<f8",[2]]]}) and
 * complex numbers ({@code <c8} = two {@code <f4}: {@code real}, {@code imag}). Each element of an
 * array of this type is {@link #itemsize()} packed bytes; each member sits at its byte offset.
 *
 * @param itemsize bytes per record
 * @param members the fields in declaration order
 */
public record CompoundType(int itemsize, List<Member> members) {

    /** Deepest nesting of records inside records accepted (NumPy allows any; real data has 1-2). */
    public static final int MAX_DEPTH = 16;

    /** Most members of one record (and in all its nested records together). */
    public static final int MAX_MEMBERS = 4096;

    public CompoundType {
        members = Collections.unmodifiableList(new ArrayList<>(members));
    }

    /**
     * One field.
     *
     * @param name the field name
     * @param type the primitive type of a leaf field (bool, integer, float, datetime, {@code |S1}),
     *     or {@code null} for a nested record
     * @param nested the nested record type, or {@code null} for a leaf
     * @param shape sub-array shape ({@code []} for one value)
     * @param offset byte offset of the field in the record
     */
    public record Member(String name, NumpyDtype type, CompoundType nested, int[] shape, int offset) {

        public Member {
            shape = shape.clone();
        }

        /** Values (or nested records) in one record: the product of {@link #shape()}. */
        public int count() {
            int n = 1;
            for (int s : shape) {
                n *= s;
            }
            return n;
        }

        /** Bytes of one value (or one nested record). */
        public int elementSize() {
            return nested != null ? nested.itemsize() : type.itemsize();
        }

        @Override
        public int[] shape() {
            return shape.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Member m
                    && m.name.equals(name)
                    && java.util.Objects.equals(m.type, type)
                    && java.util.Objects.equals(m.nested, nested)
                    && java.util.Arrays.equals(m.shape, shape)
                    && m.offset == offset;
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(name, type, nested, java.util.Arrays.hashCode(shape), offset);
        }

        @Override
        public String toString() {
            return name + ":" + (nested != null ? nested : type.text()) + java.util.Arrays.toString(shape) + "@"
                    + offset;
        }
    }

    /** Whether {@code dt} is a complex type ({@code <c8}, {@code >c16}). */
    public static boolean isComplex(NumpyDtype dt) {
        return dt.kind() == 'c';
    }

    /** A complex dtype as its two members {@code real} and {@code imag}, floats of half its size in its byte order. */
    public static CompoundType complex(NumpyDtype dt) {
        int half = dt.itemsize() / 2;
        NumpyDtype part = NumpyDtype.parseOrNull((dt.bigEndian() ? ">" : "<") + "f" + half);
        return new CompoundType(
                dt.itemsize(),
                List.of(
                        new Member("real", part, null, new int[0], 0),
                        new Member("imag", part, null, new int[0], half)));
    }

    /** Leaf members in record order, nested ones flattened (for byte-order work). */
    public int leafCount() {
        int n = 0;
        for (Member m : members) {
            n += m.nested != null ? m.count() * m.nested.leafCount() : m.count();
        }
        return n;
    }

    @Override
    public String toString() {
        return members.toString();
    }
}
