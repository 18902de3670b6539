package io.nczarr.chunk;

import com.fasterxml.jackson.databind.JsonNode;
import io.nczarr.codec.CodecPipeline;
import io.nczarr.codec.CodecRegistry;
import io.nczarr.codec.V2Pipeline;
import io.nczarr.codec.V3Codecs;
import io.nczarr.error.NcZarrException;
import io.nczarr.model.ArrayMeta;
import io.nczarr.model.ElementType;
import io.nczarr.model.VarModel;
import io.nczarr.store.StoreKeys;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/** The chunk reader's view of a Zarr v3 array: its codec pipeline and the bounds it decodes under. */
final class V3Chunks {
    private V3Chunks() {}

    /** What a v3 pipeline is built from: equal keys build equal (immutable, thread-safe) pipelines. */
    private record Key(JsonNode codecs, List<Integer> chunks, String stored, String decoded, JsonNode fill, int cap) {}

    /**
     * The chunk (or whole-shard) pipeline of a v3 variable; a configuration error (a sharding_indexed or codec
     * configuration) names the dataset, the array's {@code zarr.json} and the variable. Pipelines are immutable
     * and thread-safe, so one is built per distinct configuration and kept by the registry whose codecs it holds
     * ({@link CodecRegistry#cachedPipeline}), shared by every open with those options: a file opened per read
     * builds none (a sharded array's build took 5 % of a one-row read). A failed build is not kept.
     */
    static CodecPipeline pipeline(
            String dataset,
            VarModel var,
            CodecRegistry registry,
            V2Pipeline.CodecSource codecs,
            int chunkElements,
            long vlenBound)
            throws IOException {
        ArrayMeta a = var.array();
        int cap = cap(var, chunkElements, vlenBound);
        JsonNode fill = fill(var);
        Key key = new Key(
                a.v3().codecs(),
                Arrays.stream(a.chunks()).boxed().toList(),
                a.v3().storedDtype().toString(),
                a.dtype().toString(),
                fill,
                cap);
        CodecPipeline p = registry.cachedPipeline(key);
        if (p != null) {
            return p;
        }
        try {
            p = V3Codecs.pipeline(a.v3().codecs(), a.chunks(), a.v3().storedDtype(), a.dtype(), fill, codecs, cap);
        } catch (NcZarrException e) {
            throw e.withContext(dataset, StoreKeys.join(var.key(), "zarr.json"), var.name());
        }
        registry.keepPipeline(key, p);
        return p;
    }

    /**
     * The {@code fill_value} the codecs see (empty inner chunks of shards): for records and raw bytes the bytes the
     * metadata reader made of it (a struct's object or base64 fill, a list of byte values), else as written.
     */
    private static JsonNode fill(VarModel var) {
        ElementType.Layout l = var.element().layout();
        if ((l == ElementType.Layout.RECORD || l == ElementType.Layout.FIXED_OPAQUE)
                && var.fill() instanceof byte[] b) {
            return com.fasterxml.jackson.databind.node.BinaryNode.valueOf(b);
        }
        return var.array().fillValue();
    }

    /**
     * The inner chunk shape when the array's chain is one {@code sharding_indexed} codec with no
     * widening in front (so inner chunks can be read on their own); else {@code null}.
     */
    static int[] innerShape(VarModel var) {
        ArrayMeta a = var.array();
        if (!a.isV3() || a.shape().length == 0 || !a.v3().storedDtype().equals(a.dtype()) || a.edges() != null) {
            // a rectilinear outer grid: shards of several shapes, each read whole (its own codec chain)
            return null;
        }
        JsonNode codecs = a.v3().codecs();
        if (codecs == null
                || !codecs.isArray()
                || codecs.size() != 1
                || !"sharding_indexed".equals(codecs.get(0).path("name").asText())) {
            return null;
        }
        JsonNode cs = codecs.get(0).path("configuration").path("chunk_shape");
        int[] shard = a.chunks();
        if (!cs.isArray() || cs.size() != shard.length) {
            return null; // the pipeline reports it
        }
        int[] inner = new int[shard.length];
        for (int d = 0; d < inner.length; d++) {
            JsonNode v = cs.get(d);
            inner[d] = v.isIntegralNumber() && v.canConvertToInt() ? v.intValue() : 0;
            if (inner[d] <= 0 || shard[d] % inner[d] != 0) {
                return null;
            }
        }
        return inner;
    }

    /**
     * Bound of stages whose output size is not known from the metadata (a compressor feeding
     * another, a whole shard before its index is read): the decoded chunk plus room for the
     * widest index and some incompressible overhead; for strings, the vlen bound.
     */
    static int cap(VarModel var, int chunkElements, long vlenBound) {
        if (var.element().layout() == ElementType.Layout.VLEN_UTF8
                || var.element().layout() == ElementType.Layout.VLEN_BYTES) {
            return (int) Math.min(Integer.MAX_VALUE - 16L, vlenBound);
        }
        long bytes = (long) chunkElements * Math.max(8, var.element().itemSize());
        long cap = bytes + bytes / 8 + 16L * chunkElements + (1 << 16);
        return (int) Math.min(Integer.MAX_VALUE - 16L, cap);
    }
}
