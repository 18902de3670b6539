package io.nczarr.chunk;

import io.nczarr.codec.CodecPipeline;
import io.nczarr.codec.V2Pipeline;
import io.nczarr.codec.V3Codecs;
import io.nczarr.model.ArrayMeta;
import io.nczarr.model.ElementType;
import io.nczarr.model.VarModel;
import java.io.IOException;

/** The chunk reader's view of a Zarr v3 array: its codec pipeline and the bounds it decodes under. */
final class V3Chunks {
    private V3Chunks() {}

    /** The chunk (or whole-shard) pipeline of a v3 variable. */
    static CodecPipeline pipeline(VarModel var, V2Pipeline.CodecSource codecs, int chunkElements) throws IOException {
        ArrayMeta a = var.array();
        return V3Codecs.pipeline(
                a.v3().codecs(),
                a.chunks(),
                a.v3().storedDtype(),
                a.dtype(),
                a.fillValue(),
                codecs,
                cap(var, chunkElements));
    }

    /**
     * Bound of stages whose output size is not known from the metadata (a compressor feeding
     * another, a whole shard before its index is read): the decoded chunk plus room for the
     * widest index and some incompressible overhead; for strings, the vlen bound.
     */
    static int cap(VarModel var, int chunkElements) {
        if (var.element().layout() == ElementType.Layout.VLEN_UTF8) {
            return ChunkReader.MAX_VLEN_CHUNK_BYTES;
        }
        long bytes = (long) chunkElements * Math.max(8, var.element().itemSize());
        long cap = bytes + bytes / 8 + 16L * chunkElements + (1 << 16);
        return (int) Math.min(Integer.MAX_VALUE - 16L, cap);
    }
}
