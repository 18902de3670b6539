package io.nczarr.model;

import com.fasterxml.jackson.databind.JsonNode;
import io.nczarr.dtype.NumpyDtype;

/**
 * What a Zarr v3 array adds to {@link ArrayMeta}: its codec chain as written and how chunk keys are
 * spelled. The {@link ArrayMeta#dtype()} of a v3 array is the dtype chunks decode to (little endian;
 * {@code float16} widened to {@code <f4}); {@code storedDtype} is what the chain sees.
 *
 * @param dataType the v3 {@code data_type} name ({@code "float16"}, {@code "string"})
 * @param storedDtype the element type the codec chain encodes ({@code <f2} for float16)
 * @param codecs the {@code codecs} list, encode order
 * @param defaultKeys {@code chunk_key_encoding} {@code default} ({@code c/0/1}); false for {@code v2} ({@code 0.1})
 * @param separator the key separator, {@code "/"} or {@code "."}
 * @param edges the chunk boundaries of a {@code rectilinear} chunk grid ({@link ArrayMeta#chunks()} then holds the
 *     longest chunk per dimension), or {@code null} for a {@code regular} grid
 */
public record V3Layout(
        String dataType,
        NumpyDtype storedDtype,
        JsonNode codecs,
        boolean defaultKeys,
        String separator,
        ChunkEdges edges) {

    /** A layout on a {@code regular} chunk grid. */
    public V3Layout(String dataType, NumpyDtype storedDtype, JsonNode codecs, boolean defaultKeys, String separator) {
        this(dataType, storedDtype, codecs, defaultKeys, separator, null);
    }

    /** The store key of the chunk at {@code idx} of the array stored under {@code arrayKey}. */
    public String chunkKey(String arrayKey, long[] idx, int rank) {
        StringBuilder sb = new StringBuilder(arrayKey);
        if (!arrayKey.isEmpty()) {
            sb.append('/');
        }
        if (rank == 0) {
            return sb.append(defaultKeys ? "c" : "0").toString();
        }
        if (defaultKeys) {
            sb.append('c').append(separator);
        }
        for (int d = 0; d < idx.length; d++) {
            if (d > 0) {
                sb.append(separator);
            }
            sb.append(idx[d]);
        }
        return sb.toString();
    }
}
