package io.nczarr.codec;

import io.nczarr.dtype.NumpyDtype;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Builds the {@link CodecPipeline} of a Zarr v2 array: encode order is the {@code filters} then
 * the {@code compressor}, so decoding runs the compressor first, then the filters in reverse.
 *
 * <p>Zarr v2 does not type its codecs: an array chunk is its bytes, so any filter may follow any
 * other. The array codecs before the first bytes codec stay array codecs; the raw layout
 * ({@link RawBytesCodec}) serializes unless a vlen codec does; an array codec placed after a bytes
 * codec is run on the bytes ({@link ArrayCodecOnBytes}). The stages that run are exactly the v2
 * chain, in the same order, with the same bounds as ever: the chunk size for the last step and,
 * since a v2 chain declares no intermediate widths, the chunk size in the widest numeric type
 * (8 bytes per element) for the steps before it.
 */
public final class V2Pipeline {
    private V2Pipeline() {}

    private static final NumpyDtype FLOAT32 = NumpyDtype.parseOrNull("<f4");

    /** Creates the codec of one {@code .zarray} entry (the caller adds its own error context). */
    @FunctionalInterface
    public interface CodecSource {
        Codec create(CodecConfig config) throws IOException;
    }

    /**
     * @param compressor the {@code compressor} entry, or {@code null}
     * @param filters the {@code filters} entries in encode order
     * @param codecs creates each entry's codec, in decode order
     * @param chunkElements elements per chunk
     * @param chunkBytes decoded bytes per chunk (0 when elements have no fixed size)
     * @param callerParsesVlenUtf8 leave {@code vlen-utf8} and {@code vlen-bytes} out: the caller parses (and checks) the
     *     items itself, so running it would only validate every chunk twice
     * @param maxInnerBytes bound of the steps before the last (a memory limit: their sizes are not declared)
     * @param dtype the array's dtype, or {@code null}: a half-precision array ({@code <f2}, {@code >f2}) gets
     *     a last decode step that widens it, exactly, to little-endian float32 (netCDF has no float16)
     */
    public static CodecPipeline build(
            CodecConfig compressor,
            List<CodecConfig> filters,
            CodecSource codecs,
            long chunkElements,
            long chunkBytes,
            boolean callerParsesVlenUtf8,
            long maxInnerBytes,
            NumpyDtype dtype)
            throws IOException {
        // created in decode order, as the chunk reader always did, so the first bad entry reported is the same
        List<Codec> decodeOrder = new ArrayList<>();
        if (compressor != null) {
            decodeOrder.add(codecs.create(compressor));
        }
        for (int i = filters.size() - 1; i >= 0; i--) {
            CodecConfig f = filters.get(i);
            if (callerParsesVlenUtf8 && (f.id().equals("vlen-utf8") || f.id().equals("vlen-bytes"))) {
                continue;
            }
            decodeOrder.add(codecs.create(f));
        }
        List<Codec> encodeOrder = new ArrayList<>(decodeOrder);
        Collections.reverse(encodeOrder);
        if (dtype != null && dtype.kind() == 'f' && dtype.itemsize() == 2) {
            encodeOrder.add(0, new AsTypeCodec("float16", new Elements(dtype), new Elements(FLOAT32)));
        }
        return assemble(encodeOrder, (int) Math.max(1, Math.min(maxInnerBytes, innerLimit(chunkElements, chunkBytes))));
    }

    /** The v2 bound of steps before the last: the chunk in 8-byte elements, or the chunk size if larger. */
    static int innerLimit(long chunkElements, long chunkBytes) {
        return (int) Math.min(Integer.MAX_VALUE - 16L, Math.max(chunkBytes, 8L * chunkElements));
    }

    /** Types a v2 chain given in encode order without reordering or dropping anything. */
    static CodecPipeline assemble(List<Codec> encodeOrder, int innerLimit) {
        List<ArrayArrayCodec> arrays = new ArrayList<>();
        ArrayBytesCodec serializer = null;
        List<BytesBytesCodec> bytes = new ArrayList<>();
        for (Codec c : encodeOrder) {
            if (serializer == null) {
                if (c instanceof ArrayArrayCodec aa) {
                    arrays.add(aa);
                    continue;
                }
                if (c instanceof ArrayBytesCodec ab) {
                    serializer = ab;
                    continue;
                }
                serializer = RawBytesCodec.INSTANCE;
            }
            bytes.add(c instanceof BytesBytesCodec bb ? bb : new ArrayCodecOnBytes(c));
        }
        return CodecPipeline.withInnerLimit(
                arrays, serializer == null ? RawBytesCodec.INSTANCE : serializer, bytes, innerLimit);
    }
}
