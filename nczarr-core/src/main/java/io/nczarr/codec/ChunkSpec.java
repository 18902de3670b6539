package io.nczarr.codec;

import io.nczarr.dtype.NumpyDtype;

/**
 * The array one stage of a chain sees: element count and dtype. Array-to-array codecs map the
 * decoded spec to their encoded one, so a chain knows every stage's width without guessing.
 *
 * @param elements number of elements in one chunk
 * @param dtype their dtype
 */
public record ChunkSpec(long elements, NumpyDtype dtype) {

    /** Size not known before decoding (object arrays, compressed streams). */
    public static final long UNKNOWN = -1;

    /** Bytes of the chunk in this dtype's layout, or {@link #UNKNOWN} for {@code |O} elements. */
    public long bytes() {
        return dtype.kind() == 'O' ? UNKNOWN : elements * dtype.itemsize();
    }

    /** The same element count in another dtype. */
    public ChunkSpec as(NumpyDtype other) {
        return new ChunkSpec(elements, other);
    }
}
