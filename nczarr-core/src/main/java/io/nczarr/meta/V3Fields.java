package io.nczarr.meta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.codec.V3Fill;
import io.nczarr.error.CodecException;
import io.nczarr.error.MetadataException;
import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.model.ArrayMeta;
import io.nczarr.model.Attr;
import io.nczarr.model.ElementType;
import io.nczarr.model.NcType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;

/** The fields of a Zarr v3 array's {@code zarr.json} that need no hierarchy: shape, chunk grid, fill values. */
final class V3Fields {
    private final String dataset;

    V3Fields(String dataset) {
        this.dataset = dataset;
    }

    static Object charFill(JsonNode fv) {
        return fv != null && fv.isIntegralNumber() ? (Object) (byte) fv.intValue() : null;
    }

    int[] chunkShape(String nodeKey, ObjectNode node, long[] shape) throws IOException {
        JsonNode grid = node.get("chunk_grid");
        String gridName = grid == null ? "null" : grid.path("name").asText("");
        if (!gridName.equals("regular")) {
            throw new UnsupportedFeatureException(
                    dataset,
                    nodeKey,
                    null,
                    "chunk_grid " + gridName,
                    "chunk_grid: only 'regular' is supported, not '" + gridName + "'",
                    null);
        }
        long[] cs = longs(nodeKey, grid.path("configuration").get("chunk_shape"), "chunk_grid.chunk_shape");
        if (cs.length != shape.length) {
            throw new MetadataException(
                    dataset,
                    nodeKey,
                    "chunk_grid: shape has " + shape.length + " dimensions but chunk_shape has " + cs.length);
        }
        int[] chunks = new int[cs.length];
        long elements = 1;
        for (int d = 0; d < cs.length; d++) {
            if (cs[d] <= 0) {
                throw new MetadataException(dataset, nodeKey, "chunk_grid: chunk length " + cs[d] + " is not positive");
            }
            if (cs[d] > Integer.MAX_VALUE) {
                throw new UnsupportedFeatureException(
                        dataset,
                        nodeKey,
                        null,
                        "chunks of 2^31 elements or more along one dimension",
                        "chunk_grid: chunk length " + cs[d] + " in dimension " + d + " is more than one Java array"
                                + " holds (" + Integer.MAX_VALUE + ")",
                        null);
            }
            chunks[d] = (int) cs[d];
            elements *= cs[d];
            if (elements * 8 > ArrayMeta.MAX_CHUNK_BYTES) {
                throw new MetadataException(
                        dataset,
                        nodeKey,
                        "chunk_grid: one chunk of " + grid.path("configuration").get("chunk_shape") + " would exceed "
                                + ArrayMeta.MAX_CHUNK_BYTES + " bytes");
            }
        }
        return chunks;
    }

    long[] longs(String nodeKey, JsonNode n, String field) throws MetadataException {
        if (n == null || !n.isArray()) {
            throw new MetadataException(dataset, nodeKey, field + ": missing or not a list");
        }
        long[] out = new long[n.size()];
        long total = 1;
        for (int i = 0; i < out.length; i++) {
            JsonNode v = n.get(i);
            if (!v.isIntegralNumber() || !v.canConvertToLong() || v.longValue() < 0) {
                throw new MetadataException(dataset, nodeKey, field + ": " + v + " is not a non-negative integer");
            }
            out[i] = v.longValue();
            if (out[i] != 0 && total > Long.MAX_VALUE / out[i]) {
                throw new MetadataException(dataset, nodeKey, field + ": more than 2^63 elements");
            }
            total *= Math.max(1, out[i]);
        }
        return out;
    }

    /** What missing chunks read as: a boxed value of the variable's type, a string, or {@code null}. */
    Object fill(String nodeKey, JsonNode fv, V3DataTypes.Mapping types, ElementType et) throws MetadataException {
        if (types.time() != null
                && (fv == null
                        || fv.isNull()
                        || fv.isTextual() && fv.textValue().equals("NaT"))) {
            return TimeUnits.NAT;
        }
        if (fv == null || fv.isNull()) {
            return null;
        }
        NcType t = et.ncType();
        try {
            if (et.layout() == ElementType.Layout.VLEN_BYTES) {
                return null; // missing chunks read as empty byte strings
            }
            if (et.layout() == ElementType.Layout.RECORD) {
                return FillValues.record(fv, et.compound(), types.stored().str());
            }
            if (t == NcType.STRING) {
                return fv.isTextual() ? fv.textValue() : "";
            }
            if (t.isFloatingPoint()) {
                double d = V3Fill.floatValue(fv, types.stored());
                return t == NcType.FLOAT ? (Object) (float) d : (Object) d;
            }
            if (V3Fill.isHex(fv)) {
                long bits = V3Fill.hexBits(fv.textValue(), types.stored().itemsize());
                return JsonValues.scalar(t, JsonNodeFactory.instance.numberNode(bits));
            }
            return JsonValues.scalar(t, fv);
        } catch (CodecException | IllegalArgumentException e) {
            throw new MetadataException(
                    dataset,
                    nodeKey,
                    "fill_value " + fv + " is not a valid " + types.stored().str() + " value");
        }
    }

    /** The {@code _FillValue} attribute: xarray's base64 (little-endian float64/float32) or a plain value. */
    Attr fillAttribute(String nodeKey, JsonNode raw, NcType type) throws MetadataException {
        if (raw.isTextual() && type.isFloatingPoint() && JsonValues.specialFloat(raw.textValue()) == null) {
            byte[] b;
            try {
                b = Base64.getDecoder().decode(raw.textValue());
            } catch (IllegalArgumentException e) {
                throw new MetadataException(
                        dataset, nodeKey, "attribute '_FillValue': '" + raw.textValue() + "' is not base64");
            }
            ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
            double d;
            if (b.length == 8) {
                d = bb.getDouble();
            } else if (b.length == 4) {
                d = bb.getFloat();
            } else {
                throw new MetadataException(
                        dataset, nodeKey, "attribute '_FillValue': base64 of " + b.length + " bytes is no float");
            }
            return type == NcType.FLOAT
                    ? new Attr("_FillValue", type, new float[] {(float) d})
                    : new Attr("_FillValue", type, new double[] {d});
        }
        return VariableBuilder.fillAttribute(dataset, nodeKey, raw, type);
    }
}
