package io.nczarr.chunk;

import io.nczarr.model.VarModel;

/** What the chunk reader reads a variable by: its inner chunks when sharded (public view of {@link V3Chunks}). */
public final class ChunkShapes {
    private ChunkShapes() {}

    /**
     * The inner chunk shape of a variable whose chain is one {@code sharding_indexed} codec whose inner chunks
     * can be read on their own (what {@link ChunkReader} plans on); {@code null} otherwise.
     */
    public static int[] innerShape(VarModel var) {
        return V3Chunks.innerShape(var);
    }
}
