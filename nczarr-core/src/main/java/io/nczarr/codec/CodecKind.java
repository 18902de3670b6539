package io.nczarr.codec;

/**
 * What a codec turns into what when encoding, as Zarr v3 classifies codecs. A chain is
 * {@code ARRAY_TO_ARRAY* ARRAY_TO_BYTES BYTES_TO_BYTES*} in encode order and is decoded backwards.
 */
public enum CodecKind {
    /** An array into another array, possibly of another dtype or length (delta, astype, packbits...). */
    ARRAY_TO_ARRAY("array->array"),
    /** An array into bytes: the chain's one serializer (vlen-utf8, vlen-bytes, v2's raw layout). */
    ARRAY_TO_BYTES("array->bytes"),
    /** Bytes into bytes (compressors, checksums, shuffle). */
    BYTES_TO_BYTES("bytes->bytes");

    private final String label;

    CodecKind(String label) {
        this.label = label;
    }

    /** The kind of {@code codec}, from the stage interface it implements. */
    public static CodecKind of(Codec codec) {
        if (codec instanceof ArrayArrayCodec) {
            return ARRAY_TO_ARRAY;
        }
        return codec instanceof ArrayBytesCodec ? ARRAY_TO_BYTES : BYTES_TO_BYTES;
    }

    @Override
    public String toString() {
        return label;
    }
}
