package io.nczarr.meta;

import com.fasterxml.jackson.databind.JsonNode;
import io.nczarr.dtype.NumpyDtype;
import io.nczarr.error.MetadataException;
import io.nczarr.model.ArrayMeta;
import io.nczarr.model.Attr;
import io.nczarr.model.ElementType;
import io.nczarr.model.NcType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** What NCZarr and pure Zarr variables have in common: dtype mapping, fill value, attributes. */
final class VariableBuilder {
    private VariableBuilder() {}

    static ElementType elementType(String dataset, String key, ArrayMeta array, boolean nczarr)
            throws MetadataException {
        ElementType et =
                array.compound() != null ? ElementType.record(array.compound()) : ElementType.of(array.dtype(), nczarr);
        if (et == null) {
            throw new MetadataException(dataset, key, "dtype: unsupported dtype '" + array.dtype() + "'");
        }
        if (et.layout() == ElementType.Layout.VLEN_UTF8) {
            boolean vlen = array.filters().stream().anyMatch(f -> f.id().equals("vlen-utf8"));
            if (!vlen && array.filters().stream().anyMatch(f -> f.id().equals("vlen-bytes"))) {
                return ElementType.vlenBytes();
            }
            if (!vlen) {
                throw new MetadataException(
                        dataset, key, "dtype: object dtype '|O' without a vlen-utf8 filter is not supported");
            }
        }
        return et;
    }

    /** The {@code .zarray} fill_value as a typed value ({@code null} = zeros). */
    static Object zarrayFill(String dataset, String key, ArrayMeta array, ElementType et) throws MetadataException {
        if (et.layout() == ElementType.Layout.VLEN_BYTES) {
            return null; // zarr-python writes 0 (an int object); a missing chunk reads as empty byte strings
        }
        char kind = array.dtype().kind();
        if (kind == 'M' || kind == 'm') {
            // no fill, or NumPy's "NaT": NaT (datetimes are int64 counts, NaT the smallest)
            JsonNode fv = array.fillValue();
            if (fv == null || fv.isNull() || fv.isTextual() && fv.textValue().equals("NaT")) {
                return TimeUnits.NAT;
            }
        }
        try {
            if (et.layout() == ElementType.Layout.RECORD) {
                return FillValues.record(
                        array.fillValue(), et.compound(), array.dtype().text());
            }
            return FillValues.parse(array.fillValue(), et, array.dtype());
        } catch (IllegalArgumentException e) {
            throw new MetadataException(dataset, key, e.getMessage());
        }
    }

    /**
     * A {@code _FillValue} attribute typed like the variable, or {@code null} when {@code raw} is absent.
     * A string on a numeric variable is VirtualiZarr's and xarray's encoding: base64 of the value's
     * little-endian bytes ({@link FillValues#base64Value}).
     */
    static Attr fillAttribute(String dataset, String key, JsonNode raw, NcType type) throws MetadataException {
        if (raw == null || raw.isNull()) {
            return null;
        }
        try {
            Object v = raw.isTextual()
                            && type.isNumeric()
                            && JsonValues.specialFloat(raw.textValue()) == null
                            && !isNumber(raw.textValue())
                    ? FillValues.base64Value(raw.textValue(), type)
                    : FillValues.attributeValue(raw, type);
            return new Attr("_FillValue", type, boxedToArray(v, type));
        } catch (IllegalArgumentException e) {
            throw new MetadataException(dataset, key, "attribute '_FillValue': " + e.getMessage());
        }
    }

    private static boolean isNumber(String s) {
        try {
            new java.math.BigDecimal(s.trim());
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** A boxed scalar as the one-element array form {@link Attr} uses. */
    static Object boxedToArray(Object v, NcType type) {
        switch (type) {
            case BYTE:
            case UBYTE:
                return new byte[] {(Byte) v};
            case SHORT:
            case USHORT:
                return new short[] {(Short) v};
            case INT:
            case UINT:
                return new int[] {(Integer) v};
            case INT64:
            case UINT64:
                return new long[] {(Long) v};
            case FLOAT:
                return new float[] {(Float) v};
            case DOUBLE:
                return new double[] {(Double) v};
            case CHAR:
                byte b = (Byte) v;
                return b == 0 ? "" : new String(new byte[] {b}, java.nio.charset.StandardCharsets.ISO_8859_1);
            default:
                return new String[] {String.valueOf(v)};
        }
    }

    /**
     * A datetime64 / timedelta64 variable's attributes with CF {@code units} (and, for datetimes,
     * {@code calendar = "proleptic_gregorian"}, NumPy's calendar) appended unless already there.
     */
    static List<Attr> withTimeUnits(NumpyDtype dtype, List<Attr> attrs) {
        return withTimeUnits(TimeUnits.of(dtype.text()), attrs);
    }

    /** As {@link #withTimeUnits(NumpyDtype, List)} for given units ({@code null}: none). */
    static List<Attr> withTimeUnits(TimeUnits.Units u, List<Attr> attrs) {
        if (u == null) {
            return attrs;
        }
        List<Attr> all = new ArrayList<>(attrs);
        if (attrs.stream().noneMatch(a -> a.name().equals("units"))) {
            all.add(new Attr("units", NcType.CHAR, u.cfUnits()));
        }
        if (u.datetime() && attrs.stream().noneMatch(a -> a.name().equals("calendar"))) {
            all.add(new Attr("calendar", NcType.CHAR, "proleptic_gregorian"));
        }
        return all;
    }

    /** The attribute list with {@code fill} first when present. */
    static List<Attr> withFill(Attr fill, List<Attr> attrs) {
        if (fill == null) {
            return attrs;
        }
        List<Attr> all = new ArrayList<>(attrs.size() + 1);
        all.addAll(attrs);
        all.add(fill);
        return all;
    }

    /**
     * Reads {@code "types"} of an NCZarr attribute-type object ({@code _nczarr_attr}, or NCZarr 1.0's
     * {@code .nczattrs}) into a map; {@code null} holds none.
     *
     * @param field how the holder is named in messages
     * @throws MetadataException when the holder or its types map is not an object, or a type not a string
     */
    static void putTypes(String dataset, String key, String field, JsonNode typesHolder, Map<String, String> into)
            throws MetadataException {
        if (typesHolder == null) {
            return;
        }
        if (!typesHolder.isObject()) {
            throw new MetadataException(dataset, key, field + ": not an object");
        }
        JsonNode types = typesHolder.get("types");
        if (types == null || types.isNull()) {
            return;
        }
        if (!types.isObject()) {
            throw new MetadataException(dataset, key, field + ".types: not an object");
        }
        var it = types.properties().iterator();
        while (it.hasNext()) {
            var e = it.next();
            if (!e.getValue().isTextual()) {
                throw new MetadataException(
                        dataset,
                        key,
                        field + ".types: the type of '" + e.getKey() + "' is not a string: " + e.getValue());
            }
            into.put(e.getKey(), e.getValue().textValue());
        }
    }
}
