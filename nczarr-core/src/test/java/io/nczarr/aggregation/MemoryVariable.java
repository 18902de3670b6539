package io.nczarr.aggregation;

import io.nczarr.model.Attr;
import io.nczarr.model.NcType;
import io.nczarr.read.ArraySection;
import io.nczarr.read.CfEncoding;
import io.nczarr.read.ChunkGrid;
import io.nczarr.read.TypedArray;
import io.nczarr.read.VariableReader;
import java.util.ArrayList;
import java.util.List;

/** A variable held in memory (C order), for host-free tests of the aggregation reading. */
record MemoryVariable(
        String path, NcType type, long[] shape, List<String> dimensions, List<Attr> attributes, TypedArray values)
        implements VariableReader {

    static MemoryVariable of(String path, List<String> dims, List<Attr> attrs, TypedArray values) {
        int[] s = values.shape();
        long[] shape = new long[s.length];
        for (int d = 0; d < s.length; d++) {
            shape[d] = s[d];
        }
        return new MemoryVariable(path, values.type(), shape, dims, attrs, values);
    }

    @Override
    public String name() {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    @Override
    public CfEncoding encoding() {
        return CfEncoding.of(type, attributes);
    }

    @Override
    public ChunkGrid grid() {
        int[] c = new int[shape.length];
        long[] g = new long[shape.length];
        for (int d = 0; d < c.length; d++) {
            c[d] = (int) shape[d];
            g[d] = 1;
        }
        return new ChunkGrid(shape, c, g, null);
    }

    /** Strided 2-d (or 1-d) sections only: enough for these tests. */
    @Override
    public TypedArray read(ArraySection s) {
        TypedArray out = TypedArray.allocate(type, s.count());
        List<Integer> flat = new ArrayList<>();
        int rank = s.rank();
        int rows = rank == 2 ? s.count()[0] : 1;
        int cols = s.count()[rank - 1];
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                long i = rank == 2 ? s.origin()[0] + (long) r * s.stride()[0] : 0;
                long j = s.origin()[rank - 1] + (long) c * s.stride()[rank - 1];
                flat.add((int) (rank == 2 ? i * shape[1] + j : j));
            }
        }
        for (int k = 0; k < flat.size(); k++) {
            System.arraycopy(values.storage(), flat.get(k), out.storage(), k, 1);
        }
        return out;
    }
}
