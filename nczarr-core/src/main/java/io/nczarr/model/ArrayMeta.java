package io.nczarr.model;

import com.fasterxml.jackson.databind.JsonNode;
import io.nczarr.codec.CodecConfig;
import io.nczarr.dtype.CompoundType;
import io.nczarr.dtype.NumpyDtype;
import io.nczarr.error.MetadataException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The parsed content of a {@code .zarray} object (Zarr v2 array metadata).
 *
 * @param shape array shape ({@code []} for 0-d)
 * @param chunks chunk shape, same rank as {@code shape}
 * @param dtype the NumPy dtype
 * @param fillValue the raw JSON {@code fill_value} (may be {@code null} or a JSON null)
 * @param fortranOrder {@code order: "F"}
 * @param compressor the compressor, or {@code null}
 * @param filters filters in encode order (decode applies them in reverse)
 * @param separator chunk key separator, {@code "."} or {@code "/"}
 * @param v3 the Zarr v3 codec chain and key encoding, or {@code null} for a Zarr v2 array
 * @param compound the record type of a structured dtype ({@code dtype} is then {@code |V<itemsize>}),
 *     else {@code null}
 */
public record ArrayMeta(
        long[] shape,
        int[] chunks,
        NumpyDtype dtype,
        JsonNode fillValue,
        boolean fortranOrder,
        CodecConfig compressor,
        List<CodecConfig> filters,
        String separator,
        V3Layout v3,
        CompoundType compound) {

    /** An array of a plain (not structured) dtype. */
    public ArrayMeta(
            long[] shape,
            int[] chunks,
            NumpyDtype dtype,
            JsonNode fillValue,
            boolean fortranOrder,
            CodecConfig compressor,
            List<CodecConfig> filters,
            String separator,
            V3Layout v3) {
        this(shape, chunks, dtype, fillValue, fortranOrder, compressor, filters, separator, v3, null);
    }

    /** A Zarr v2 array. */
    public ArrayMeta(
            long[] shape,
            int[] chunks,
            NumpyDtype dtype,
            JsonNode fillValue,
            boolean fortranOrder,
            CodecConfig compressor,
            List<CodecConfig> filters,
            String separator) {
        this(shape, chunks, dtype, fillValue, fortranOrder, compressor, filters, separator, null, null);
    }

    /**
     * The chunk boundaries of a Zarr v3 {@code rectilinear} chunk grid ({@link #chunks()} is then the longest
     * chunk per dimension), or {@code null} for a regular grid.
     */
    public ChunkEdges edges() {
        return v3 == null ? null : v3.edges();
    }

    /** This array cut by a regular grid of {@code chunkShape}: one chunk of a rectilinear grid as its codecs see it. */
    public ArrayMeta withChunks(int[] chunkShape) {
        V3Layout layout = v3 == null
                ? null
                : new V3Layout(v3.dataType(), v3.storedDtype(), v3.codecs(), v3.defaultKeys(), v3.separator());
        return new ArrayMeta(
                shape,
                chunkShape.clone(),
                dtype,
                fillValue,
                fortranOrder,
                compressor,
                filters,
                separator,
                layout,
                compound);
    }

    /** Whether this is a Zarr v3 array. */
    public boolean isV3() {
        return v3 != null;
    }

    /**
     * This array with its filters as netcdf-c applies them: netcdf-c 4.10 writes {@code shuffle} with
     * {@code "elementsize": 0} (HDF5's filter reads 0 as the dtype's item size), where numcodecs
     * would shuffle nothing. The NCZarr reader calls this; a pure Zarr store keeps numcodecs' rule.
     */
    public ArrayMeta withNetcdfCFilters() {
        List<CodecConfig> out = new ArrayList<>(filters.size());
        boolean changed = false;
        for (CodecConfig f : filters) {
            JsonNode es = f.params().get("elementsize");
            boolean zero = es != null
                    && ((es.isIntegralNumber() && es.longValue() == 0)
                            || (es.isTextual() && es.textValue().trim().equals("0")));
            if (f.id().equals("shuffle")
                    && zero
                    && dtype.itemsize() > 0
                    && f.params().isObject()) {
                com.fasterxml.jackson.databind.node.ObjectNode p =
                        ((com.fasterxml.jackson.databind.node.ObjectNode) f.params()).deepCopy();
                p.put("elementsize", dtype.itemsize());
                out.add(new CodecConfig(f.id(), p, f.arrayDtype()));
                changed = true;
            } else {
                out.add(f);
            }
        }
        if (!changed) {
            return this;
        }
        return new ArrayMeta(
                shape,
                chunks,
                dtype,
                fillValue,
                fortranOrder,
                compressor,
                Collections.unmodifiableList(out),
                separator,
                v3,
                compound);
    }

    /** Largest decoded chunk accepted: a chunk is held in memory whole while it is copied out. */
    public static final long MAX_CHUNK_BYTES = 1L << 30;

    /** Number of elements in one chunk. */
    public long chunkElements() {
        long n = 1;
        for (int c : chunks) {
            n *= c;
        }
        return n;
    }

    /** Parses and validates {@code .zarray}. */
    public static ArrayMeta parse(String dataset, String key, JsonNode json) throws io.nczarr.error.NcZarrException {
        if (json == null || !json.isObject()) {
            throw new MetadataException(dataset, key, "not a JSON object");
        }
        JsonNode format = json.get("zarr_format");
        if (format != null && !(format.isNumber() && format.asInt() == 2)) {
            throw new MetadataException(dataset, key, "zarr_format " + format + " is not supported (only 2)");
        }
        long[] shape = longs(dataset, key, json, "shape");
        long total = 1;
        for (long s : shape) {
            if (s < 0) {
                throw new MetadataException(dataset, key, "shape: negative dimension length " + s);
            }
            if (s != 0 && total > Long.MAX_VALUE / s) {
                throw new MetadataException(
                        dataset, key, "shape: " + json.get("shape") + " has more than 2^63 elements");
            }
            total *= s;
        }
        long[] chunkLongs = longs(dataset, key, json, "chunks");
        if (chunkLongs.length != shape.length) {
            throw new MetadataException(
                    dataset,
                    key,
                    "chunks: shape has " + shape.length + " dimensions but chunks has " + chunkLongs.length);
        }
        int[] chunks = new int[chunkLongs.length];
        for (int i = 0; i < chunks.length; i++) {
            if (chunkLongs[i] <= 0) {
                throw new MetadataException(dataset, key, "chunks: chunk length " + chunkLongs[i] + " is not positive");
            }
            if (chunkLongs[i] > Integer.MAX_VALUE) {
                throw new io.nczarr.error.UnsupportedFeatureException(
                        dataset,
                        key,
                        null,
                        "chunks of 2^31 elements or more along one dimension",
                        "chunks: chunk length " + chunkLongs[i] + " in dimension " + i + " is more than one Java array"
                                + " holds (" + Integer.MAX_VALUE + ")",
                        null);
            }
            chunks[i] = (int) chunkLongs[i];
        }
        JsonNode dt = json.get("dtype");
        CompoundType compound = null;
        NumpyDtype dtype;
        if (dt != null && dt.isArray()) {
            try {
                compound = StructuredDtype.parse(dt);
            } catch (IllegalArgumentException e) {
                throw new MetadataException(dataset, key, "dtype: " + e.getMessage());
            }
            dtype = NumpyDtype.parseOrNull("|V" + compound.itemsize());
        } else if (dt == null || !dt.isTextual()) {
            throw new MetadataException(dataset, key, "dtype: missing or not a string");
        } else {
            dtype = NumpyDtype.parseOrNull(dt.textValue());
        }
        if (dtype == null) {
            throw new MetadataException(dataset, key, "dtype: cannot parse '" + dt.textValue() + "'");
        }
        long chunkBytes = 1;
        for (int c : chunks) {
            chunkBytes *= c;
            if (chunkBytes > MAX_CHUNK_BYTES) {
                break;
            }
        }
        chunkBytes *= Math.max(1, dtype.length());
        if (chunkBytes > MAX_CHUNK_BYTES) {
            throw new MetadataException(
                    dataset,
                    key,
                    "chunks: one chunk of " + json.get("chunks") + " would exceed " + MAX_CHUNK_BYTES + " bytes");
        }
        JsonNode orderNode = json.get("order");
        String order = orderNode == null || orderNode.isNull() ? "C" : orderNode.asText();
        if (!order.equals("C") && !order.equals("F")) {
            throw new MetadataException(dataset, key, "order: '" + order + "' is neither C nor F");
        }
        JsonNode sepNode = json.get("dimension_separator");
        String sep = sepNode == null || sepNode.isNull() ? "." : sepNode.asText();
        if (!sep.equals(".") && !sep.equals("/")) {
            throw new MetadataException(dataset, key, "dimension_separator: '" + sep + "' is neither '.' nor '/'");
        }
        CodecConfig compressor = null;
        JsonNode comp = json.get("compressor");
        if (comp != null && !comp.isNull()) {
            compressor = codec(dataset, key, "compressor", comp, dtype);
        }
        List<CodecConfig> filters = new ArrayList<>();
        JsonNode fl = json.get("filters");
        if (fl != null && !fl.isNull()) {
            if (!fl.isArray()) {
                throw new MetadataException(dataset, key, "filters: not a list");
            }
            for (JsonNode f : fl) {
                filters.add(codec(dataset, key, "filters", f, dtype));
            }
        }
        return new ArrayMeta(
                shape,
                chunks,
                dtype,
                json.get("fill_value"),
                order.equals("F"),
                compressor,
                Collections.unmodifiableList(filters),
                sep,
                null,
                compound);
    }

    private static CodecConfig codec(String dataset, String key, String field, JsonNode node, NumpyDtype dtype)
            throws MetadataException {
        if (!node.isObject() || node.get("id") == null || !node.get("id").isTextual()) {
            throw new MetadataException(dataset, key, field + ": codec entry without an \"id\": " + node);
        }
        return new CodecConfig(node.get("id").textValue(), node, dtype.text());
    }

    private static long[] longs(String dataset, String key, JsonNode json, String field) throws MetadataException {
        JsonNode n = json.get(field);
        if (n == null || !n.isArray()) {
            throw new MetadataException(dataset, key, field + ": missing or not a list");
        }
        long[] out = new long[n.size()];
        for (int i = 0; i < out.length; i++) {
            JsonNode v = n.get(i);
            if (!v.isIntegralNumber() || !v.canConvertToLong()) {
                throw new MetadataException(dataset, key, field + ": " + v + " is not an integer");
            }
            out[i] = v.longValue();
        }
        return out;
    }
}
