package io.nczarr.read;

import io.nczarr.model.Attr;
import io.nczarr.model.NcType;
import java.io.IOException;
import java.util.List;

/**
 * Typed reads of one variable: a section in, a {@link TypedArray} out, with the variable's CF value metadata
 * ({@link #encoding()}) and chunk grid ({@link #grid()}) alongside. Thread-safe: reads may run concurrently.
 * What every binding reads through; a Zarr/NCZarr variable is a {@link ZarrVariableReader}.
 */
public interface VariableReader {
    /** The full path ({@code "/obs/t2m"}). */
    String path();

    /** The name within its group. */
    String name();

    NcType type();

    /** The shape ({@code []} for a scalar); a copy. */
    long[] shape();

    /** The full paths of its dimensions ({@code "/time"}), outermost first. */
    List<String> dimensions();

    List<Attr> attributes();

    /** Fill, missing values, packing and valid range from the attributes. */
    CfEncoding encoding();

    /** How the variable is cut into independently read chunks. */
    ChunkGrid grid();

    /**
     * Reads a section: its values in C order with the section's counts as shape.
     *
     * @throws IllegalArgumentException when the section does not fit the shape
     * @throws io.nczarr.error.NcZarrException when a chunk cannot be fetched or decoded, naming the dataset, the
     *     key and the variable, or when the result would pass the read limit
     */
    TypedArray read(ArraySection section) throws IOException;

    /** Reads the whole variable. */
    default TypedArray readAll() throws IOException {
        return read(ArraySection.all(shape()));
    }

    /** Reads the chunk at a grid index of {@link #grid()}, clipped to the shape (one fetch and decode). */
    default TypedArray readChunk(long[] chunkIndex) throws IOException {
        return read(grid().chunkSection(chunkIndex));
    }
}
