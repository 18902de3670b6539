package io.nczarr.model;

import com.fasterxml.jackson.databind.JsonNode;
import io.nczarr.dtype.CompoundType;
import io.nczarr.dtype.NumpyDtype;
import java.util.ArrayList;
import java.util.List;

/**
 * A Zarr v2 structured {@code dtype} (NumPy's {@code dtype.descr}, as zarr-python writes it):
 * {@code [["a", "<i4"], ["b", "<f8", [2]], ["c", [["x", "|u1"]]], ["", "|V3"]]} → a {@link
 * CompoundType}. Fields are packed in order; a nameless {@code |Vn} field is padding. Leaf fields
 * may be bool, integers, float32/64, complex (a nested {@code real}/{@code imag} record),
 * datetime64/timedelta64 (int64 counts, no units) and byte strings {@code |Sn} (char, n more
 * characters along a last axis); anything else has no netCDF rule.
 */
public final class StructuredDtype {
    private StructuredDtype() {}

    /** Most values in one sub-array field. */
    static final int MAX_SUBARRAY = 1 << 20;

    /**
     * @throws IllegalArgumentException saying what has no rule or is malformed
     */
    public static CompoundType parse(JsonNode descr) {
        int[] budget = {CompoundType.MAX_MEMBERS};
        return parse(descr, 0, budget);
    }

    private static CompoundType parse(JsonNode descr, int depth, int[] budget) {
        if (depth > CompoundType.MAX_DEPTH) {
            throw new IllegalArgumentException("structured dtype nested more than " + CompoundType.MAX_DEPTH + " deep");
        }
        if (!descr.isArray() || descr.isEmpty()) {
            throw new IllegalArgumentException("structured dtype " + excerpt(descr) + " is not a list of fields");
        }
        List<CompoundType.Member> members = new ArrayList<>();
        long offset = 0;
        for (JsonNode f : descr) {
            if (--budget[0] < 0) {
                throw new IllegalArgumentException(
                        "structured dtype has more than " + CompoundType.MAX_MEMBERS + " fields");
            }
            if (!f.isArray() || f.size() < 2 || f.size() > 3 || !f.get(0).isTextual()) {
                throw new IllegalArgumentException(
                        "field " + excerpt(f) + " is not [name, dtype] or [name, dtype," + " shape]");
            }
            String name = f.get(0).textValue();
            int[] shape = shape(f.size() == 3 ? f.get(2) : null, name);
            JsonNode t = f.get(1);
            CompoundType.Member m;
            if (t.isArray()) {
                m = new CompoundType.Member(name, null, parse(t, depth + 1, budget), shape, (int) offset);
            } else if (t.isTextual()) {
                NumpyDtype dt = NumpyDtype.parseOrNull(t.textValue());
                if (dt == null) {
                    throw new IllegalArgumentException("field '" + name + "': cannot parse dtype " + excerpt(t));
                }
                if (name.isEmpty() && dt.kind() == 'V') {
                    offset += (long) dt.itemsize() * count(shape); // padding
                    continue;
                }
                m = leaf(name, dt, shape, (int) offset);
            } else {
                throw new IllegalArgumentException(
                        "field '" + name + "': dtype " + excerpt(t) + " is not a string or" + " a list");
            }
            if (name.isEmpty()) {
                throw new IllegalArgumentException("a field without a name");
            }
            for (CompoundType.Member other : members) {
                if (other.name().equals(name)) {
                    throw new IllegalArgumentException("field '" + name + "' appears twice");
                }
            }
            members.add(m);
            offset += (long) m.elementSize() * m.count();
            if (offset > Integer.MAX_VALUE / 2) {
                throw new IllegalArgumentException("structured dtype of more than 2^30 bytes");
            }
        }
        if (members.isEmpty()) {
            throw new IllegalArgumentException("structured dtype with padding only");
        }
        return new CompoundType((int) offset, members);
    }

    private static CompoundType.Member leaf(String name, NumpyDtype dt, int[] shape, int offset) {
        if (CompoundType.isComplex(dt)) {
            return new CompoundType.Member(name, null, CompoundType.complex(dt), shape, offset);
        }
        boolean ok = dt.kind() == 'b'
                || dt.kind() == 'i'
                || dt.kind() == 'u'
                || dt.kind() == 'M'
                || dt.kind() == 'm'
                || dt.kind() == 'f' && dt.itemsize() != 2;
        if (ok) {
            return new CompoundType.Member(name, dt, null, shape, offset);
        }
        if (dt.kind() == 'S' && dt.itemsize() > 0) {
            // a byte string is chars along one more axis, as netCDF-Java's HDF5 reader shows them
            int[] s = shape;
            if (dt.itemsize() > 1) {
                s = java.util.Arrays.copyOf(shape, shape.length + 1);
                s[shape.length] = dt.itemsize();
            }
            if (count(s) > MAX_SUBARRAY) {
                throw new IllegalArgumentException("field '" + name + "' has more than " + MAX_SUBARRAY + " values");
            }
            return new CompoundType.Member(name, NumpyDtype.parseOrNull("|S1"), null, s, offset);
        }
        throw new IllegalArgumentException(
                "field '" + name + "' of dtype '" + dt.text() + "' has no netCDF mapping" + " inside a structure");
    }

    private static int[] shape(JsonNode s, String name) {
        if (s == null || s.isNull()) {
            return new int[0];
        }
        if (!s.isArray()) {
            throw new IllegalArgumentException("field '" + name + "': shape " + excerpt(s) + " is not a list");
        }
        int[] out = new int[s.size()];
        long n = 1;
        for (int i = 0; i < out.length; i++) {
            JsonNode d = s.get(i);
            if (!d.isIntegralNumber() || !d.canConvertToInt() || d.intValue() <= 0) {
                throw new IllegalArgumentException(
                        "field '" + name + "': shape " + excerpt(s) + " is not a list of positive lengths");
            }
            out[i] = d.intValue();
            n *= out[i];
            if (n > MAX_SUBARRAY) {
                throw new IllegalArgumentException("field '" + name + "' has more than " + MAX_SUBARRAY + " values");
            }
        }
        return out;
    }

    private static long count(int[] shape) {
        long n = 1;
        for (int s : shape) {
            n *= s;
        }
        return n;
    }

    private static String excerpt(JsonNode n) {
        String s = n.toString();
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }
}
