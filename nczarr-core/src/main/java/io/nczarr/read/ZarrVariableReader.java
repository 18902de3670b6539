package io.nczarr.read;

import io.nczarr.chunk.ChunkReader;
import io.nczarr.chunk.ReadProgress;
import io.nczarr.model.Attr;
import io.nczarr.model.NcType;
import io.nczarr.model.VarModel;
import java.io.IOException;
import java.util.List;

/**
 * The typed reads of a Zarr / NCZarr variable, over its {@link ChunkReader}. Its encoding and grid are worked
 * out on first use (a binding makes one per variable at open).
 */
public final class ZarrVariableReader implements VariableReader {
    private final String path;
    private final ChunkReader chunks;
    private volatile CfEncoding encoding;
    private volatile ChunkGrid grid;

    /**
     * @param path the variable's full path
     * @param chunks the chunk reader of the variable (from {@code OpenDataset.chunkReader})
     */
    public ZarrVariableReader(String path, ChunkReader chunks) {
        this.path = path;
        this.chunks = chunks;
    }

    /** The variable's model (its element type, compound members, store key). */
    public VarModel variable() {
        return chunks.variable();
    }

    @Override
    public String path() {
        return path;
    }

    @Override
    public String name() {
        return chunks.variable().name();
    }

    @Override
    public NcType type() {
        return chunks.variable().type();
    }

    @Override
    public long[] shape() {
        return chunks.variable().shape().clone();
    }

    @Override
    public List<String> dimensions() {
        return chunks.variable().dimensions();
    }

    @Override
    public List<Attr> attributes() {
        return chunks.variable().attributes();
    }

    @Override
    public CfEncoding encoding() {
        CfEncoding e = encoding;
        if (e == null) {
            e = CfEncoding.of(chunks.variable());
            encoding = e;
        }
        return e;
    }

    @Override
    public ChunkGrid grid() {
        ChunkGrid g = grid;
        if (g == null) {
            g = ChunkGrid.of(chunks.variable());
            grid = g;
        }
        return g;
    }

    @Override
    public TypedArray read(ArraySection section) throws IOException {
        if (section.rank() != chunks.variable().shape().length) {
            throw new IllegalArgumentException("a section of rank " + section.rank() + " for variable " + path
                    + " of rank " + chunks.variable().shape().length);
        }
        Object data = chunks.read(section.origin(), section.count(), section.stride());
        return new TypedArray(type(), section.count(), data);
    }

    /** Reports chunk completion of later reads to {@code p} ({@code null} = nobody). */
    public void setProgress(ReadProgress p) {
        chunks.setProgress(p);
    }

    /** Fails now, naming the codec, when a chunk of this variable could not be decoded. */
    public void checkCodecs() throws IOException {
        chunks.checkCodecs();
    }

    @Override
    public String toString() {
        return "ZarrVariableReader[" + path + " " + type().cdlName() + "]";
    }
}
