package io.nczarr.aggregation;

import io.nczarr.error.LimitExceededException;
import io.nczarr.model.Attr;
import io.nczarr.model.NcType;
import io.nczarr.read.ArraySection;
import io.nczarr.read.CfEncoding;
import io.nczarr.read.ChunkGrid;
import io.nczarr.read.TypedArray;
import io.nczarr.read.VariableReader;
import io.nczarr.store.MemoryLimits;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * An aggregation variable presented as an ordinary one: its aggregated shape, its attributes without the
 * bookkeeping, and reads that plan the fragments a section touches ({@link FragmentGrid#plan}), read each piece
 * from its fragment (in parallel on the pool, through the cache of open fragment files) in canonical form ({@link
 * CanonicalValues}) and assemble them.
 */
public final class AggregatedVariable implements VariableReader {
    private final String path;
    private final Aggregation aggregation;
    private final NcType type;
    private final List<Attr> attributes;
    private final List<String> dimensions;
    private final CanonicalValues canonical;
    private final FragmentReads reads;

    /**
     * @param path the aggregation variable's full path
     * @param aggregation its aggregation ({@link AggregationParser#parse})
     * @param type its type
     * @param attributes its attributes as presented (bookkeeping left out)
     * @param conversions the units conversions of the host
     */
    public AggregatedVariable(
            String path,
            Aggregation aggregation,
            NcType type,
            List<Attr> attributes,
            UnitConversions conversions,
            FragmentReads reads) {
        this.path = path;
        this.aggregation = aggregation;
        this.type = type;
        this.attributes = List.copyOf(attributes);
        String group = AggregationParser.parent(path);
        List<String> dims = new ArrayList<>();
        for (String d : aggregation.dimensions()) {
            dims.add(group.equals("/") ? "/" + d : group + "/" + d);
        }
        this.dimensions = List.copyOf(dims);
        this.canonical = new CanonicalValues(type, attributes, conversions);
        this.reads = reads;
    }

    public Aggregation aggregation() {
        return aggregation;
    }

    /** The fragment grid: where each fragment lies in the aggregated index space. */
    public FragmentGrid fragmentGrid() {
        return aggregation.grid();
    }

    @Override
    public String path() {
        return path;
    }

    @Override
    public String name() {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    @Override
    public NcType type() {
        return type;
    }

    @Override
    public long[] shape() {
        return aggregation.grid().shape();
    }

    /** The aggregated dimensions, as if in the aggregation variable's group. */
    @Override
    public List<String> dimensions() {
        return dimensions;
    }

    @Override
    public List<Attr> attributes() {
        return attributes;
    }

    @Override
    public CfEncoding encoding() {
        return CfEncoding.of(type, attributes);
    }

    /** One chunk of the whole shape: fragments are not a regular grid ({@link #fragmentGrid()} has them). */
    @Override
    public ChunkGrid grid() {
        long[] shape = shape();
        int[] chunk = new int[shape.length];
        long[] grid = new long[shape.length];
        for (int d = 0; d < shape.length; d++) {
            chunk[d] = (int) Math.max(1, Math.min(Integer.MAX_VALUE, shape[d]));
            grid[d] = shape[d] == 0 ? 0 : 1;
        }
        return new ChunkGrid(shape, chunk, grid, null);
    }

    @Override
    public TypedArray read(ArraySection section) throws IOException {
        long[] shape = shape();
        int rank = section.rank();
        if (rank != shape.length) {
            throw new IllegalArgumentException(
                    "a section of rank " + rank + " for variable " + path + " of rank " + shape.length);
        }
        long[] origin = section.origin();
        long[] count = new long[rank];
        long[] stride = new long[rank];
        for (int d = 0; d < rank; d++) {
            count[d] = section.count()[d];
            stride[d] = section.stride()[d];
            long last = origin[d] + Math.max(0, count[d] - 1) * stride[d];
            if (origin[d] < 0 || count[d] < 0 || stride[d] < 1 || (count[d] > 0 && last >= shape[d])) {
                throw new IllegalArgumentException(aggregation.dataset() + ": variable '" + AggregationParser.nm(path)
                        + "': section " + section + " is outside the shape " + java.util.Arrays.toString(shape));
            }
        }
        checkBudget(section, origin, count, stride);
        TypedArray result = TypedArray.allocate(type, section.count());
        List<FragmentGrid.Piece> pieces = aggregation.grid().plan(origin, count, stride);
        if (pieces.size() == 1 || reads.pool() == null) {
            for (FragmentGrid.Piece p : pieces) {
                readPiece(p, result);
            }
            return result;
        }
        List<Future<Void>> futures = new ArrayList<>();
        for (FragmentGrid.Piece p : pieces) {
            futures.add(reads.pool().submit(() -> {
                readPiece(p, result);
                return null;
            }));
        }
        try {
            for (Future<Void> f : futures) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            futures.forEach(f -> f.cancel(true));
            throw new InterruptedIOException("interrupted while reading " + AggregationParser.nm(path));
        } catch (ExecutionException e) {
            futures.forEach(f -> f.cancel(true));
            Throwable c = e.getCause();
            if (c instanceof IOException io) {
                throw io;
            }
            if (c instanceof RuntimeException r) {
                throw r;
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(c);
        }
        return result;
    }

    /** The result and the plan (one piece per fragment touched): a read of a million fragments is refused first. */
    private void checkBudget(ArraySection s, long[] origin, long[] count, long[] stride) throws LimitExceededException {
        long bytes = s.size() * Math.max(1, type.size());
        long pieceCount = aggregation.grid().pieceCount(origin, count, stride);
        bytes = pieceCount > (Long.MAX_VALUE / 2 - bytes) / FragmentGrid.PLAN_BYTES_PER_PIECE
                ? Long.MAX_VALUE
                : bytes + pieceCount * FragmentGrid.PLAN_BYTES_PER_PIECE;
        MemoryLimits limits = reads.limits();
        if (bytes > limits.maxReadBytes()) {
            throw new LimitExceededException(
                    aggregation.dataset(),
                    null,
                    AggregationParser.nm(path),
                    "the section " + s + " (" + pieceCount + " fragment pieces)",
                    bytes,
                    MemoryLimits.MAX_READ_BYTES,
                    limits.maxReadBytes(),
                    null);
        }
    }

    private void readPiece(FragmentGrid.Piece p, TypedArray result) throws IOException {
        Fragment f = aggregation.fragment(p.position());
        int rank = p.count().length;
        int[] shape = new int[rank];
        for (int d = 0; d < rank; d++) {
            shape[d] = (int) p.count()[d];
        }
        TypedArray values;
        if (!f.hasFile()) {
            values = TypedArray.allocate(type, shape);
            Object u = f.uniqueValue();
            for (int i = 0; i < values.size(); i++) {
                if (u instanceof Number n) {
                    values.setDouble(i, n.doubleValue());
                } else if (values.storage() instanceof String[] ss) {
                    ss[i] = u == null ? null : u.toString();
                }
            }
        } else {
            values = FragmentPieces.read(this, f, p, shape, reads, canonical);
        }
        copy(values, shape, result, p.target());
    }

    /** Copies a block of {@code shape} into {@code result} at {@code target}, row by row. */
    static void copy(TypedArray block, int[] shape, TypedArray result, long[] target) {
        int[] rs = result.shape();
        int rank = shape.length;
        Object src = block.storage();
        Object dst = result.storage();
        if (rank == 0) {
            System.arraycopy(src, 0, dst, 0, 1);
            return;
        }
        int row = shape[rank - 1];
        int rows = row == 0 ? 0 : block.size() / row;
        int[] at = new int[rank - 1];
        for (int r = 0; r < rows; r++) {
            long off = 0;
            for (int d = 0; d < rank; d++) {
                long i = target[d] + (d < rank - 1 ? at[d] : 0);
                off = off * rs[d] + i;
            }
            System.arraycopy(src, r * row, dst, (int) off, row);
            for (int d = rank - 2; d >= 0; d--) {
                if (++at[d] < shape[d]) {
                    break;
                }
                at[d] = 0;
            }
        }
    }

    @Override
    public String toString() {
        return "AggregatedVariable[" + path + " " + type.cdlName() + " " + aggregation.convention() + "]";
    }
}
