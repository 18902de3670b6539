package io.nczarr.cli;

import java.io.IOException;
import ucar.ma2.Array;
import ucar.ma2.InvalidRangeException;
import ucar.nc2.Variable;

/** Reading a variable for {@code dump}: whole, or in slabs along its first dimension when it is large. */
final class Slabs {
    private Slabs() {}

    /** Elements read at once before a variable is read in slabs along its first dimension. */
    private static final long SLAB_ELEMENTS = 1L << 22;

    /** The product of the first {@code dims} extents (1 for none). */
    static long rows(int[] shape, int dims) {
        long n = 1;
        for (int i = 0; i < dims; i++) {
            n *= shape[i];
        }
        return n;
    }

    interface SlabConsumer {
        void accept(Array a) throws IOException;
    }

    /** Reads the variable whole, or in slabs along its first dimension when it is large. */
    static void forEach(Variable v, int[] shape, SlabConsumer consumer) throws IOException {
        long size = v.getSize();
        if (shape.length == 0 || size <= SLAB_ELEMENTS || shape[0] <= 1) {
            consumer.accept(v.read());
            return;
        }
        long perRow = size / shape[0];
        int step = (int) Math.max(1, SLAB_ELEMENTS / Math.max(1, perRow));
        for (int start = 0; start < shape[0]; start += step) {
            int[] origin = new int[shape.length];
            int[] count = shape.clone();
            origin[0] = start;
            count[0] = Math.min(step, shape[0] - start);
            try {
                consumer.accept(v.read(origin, count));
            } catch (InvalidRangeException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
