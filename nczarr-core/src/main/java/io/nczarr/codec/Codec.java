package io.nczarr.codec;

import io.nczarr.error.CodecException;
import java.io.IOException;

/**
 * One codec of a chunk's codec chain, decode direction only. Typed the way Zarr v3 types codecs,
 * by what it turns into what when encoding: {@link ArrayArrayCodec} (an array into another
 * array: delta, astype...), {@link ArrayBytesCodec} (an array into bytes: vlen-utf8...) or
 * {@link BytesBytesCodec} (bytes into bytes: compressors, checksums, shuffle); a
 * {@link CodecPipeline} puts them in order. Here an array travels as its elements' bytes in the
 * array dtype's layout, so every stage decodes {@code byte[]} to {@code byte[]}.
 *
 * <p>Instances are created per variable by a {@link CodecFactory} and must be thread-safe: chunks
 * of one variable are decoded concurrently.
 */
public sealed interface Codec permits ArrayArrayCodec, ArrayBytesCodec, BytesBytesCodec {

    /**
     * Decodes one chunk's bytes.
     *
     * @param encoded the bytes as stored (or as produced by the previous decode step)
     * @param maxDecodedBytes hard upper bound of the result: a codec must stop and throw a
     *     {@link CodecException} instead of producing more (decompression bombs), and must never
     *     allocate more than this because of sizes declared inside {@code encoded}
     * @return the decoded bytes
     */
    byte[] decode(byte[] encoded, int maxDecodedBytes) throws IOException;

    /**
     * Decodes a chunk whose decoded size should be exactly {@code len} bytes, into a buffer the
     * caller reuses from chunk to chunk (saving the allocation and first touch of a fresh array
     * per chunk). Returns {@code out} when the result is exactly {@code len} bytes, now in
     * {@code out[0..len)}; otherwise a new array with whatever the data decodes to (the caller
     * reports a wrong size). The default decodes into a new array, which callers accept as well.
     *
     * @param out a buffer of at least {@code len} bytes; its contents past {@code len} are unspecified
     */
    default byte[] decodeInto(byte[] encoded, byte[] out, int len) throws IOException {
        return decode(encoded, len);
    }

    /**
     * {@link #decodeInto(byte[], byte[], int)} of the first {@code encodedLength} bytes of {@code
     * encoded}, a buffer the caller reuses for stored chunks. The default copies them out first; a codec
     * that reads the part in place says so with {@link #readsInPlace()}.
     */
    default byte[] decodeInto(byte[] encoded, int encodedLength, byte[] out, int len) throws IOException {
        return decodeInto(
                encodedLength == encoded.length ? encoded : java.util.Arrays.copyOf(encoded, encodedLength), out, len);
    }

    /**
     * Decodes the first {@code encodedLength} bytes of {@code encoded} straight into a run of the read's result
     * ({@link ElementSink}), sparing a decoded chunk and its copy. {@code false} (the default) when the codec has
     * no such path or the data does not decode to exactly the sink's bytes, decided before anything is
     * written: the caller then decodes the usual way, which gives the answer or the error. A failure part way
     * throws what the usual way throws (the read fails; the result is not handed out).
     */
    default boolean decodeInto(byte[] encoded, int encodedLength, ElementSink sink) throws IOException {
        return false;
    }

    /**
     * Decodes the first {@code encodedLength} bytes of {@code encoded}, a chunk of {@code len} bytes,
     * into memory of the codec's own that the calling thread reuses (a native decoder's output buffer),
     * sparing the copy into a Java array: a view of the decoded bytes, valid until this thread decodes
     * with the codec again; its {@code remaining()} is what the data decoded to (the caller reports a
     * wrong size). {@code null} (the default) when the codec has no such memory: use {@link
     * #decodeInto(byte[], int, byte[], int)}.
     */
    default java.nio.ByteBuffer decodeToOwnBuffer(byte[] encoded, int encodedLength, int len) throws IOException {
        return null;
    }

    /**
     * {@link #decodeToOwnBuffer(byte[], int, int)} of the bytes from {@code stored}'s position to its
     * limit, a direct buffer, read in place. Only called when {@link #readsDirectInput()}; the default
     * has no such path and answers {@code null}.
     */
    default java.nio.ByteBuffer decodeToOwnBuffer(java.nio.ByteBuffer stored, int len) throws IOException {
        return null;
    }

    /** Whether {@link #decodeToOwnBuffer(java.nio.ByteBuffer, int)} decodes a direct buffer in place. */
    default boolean readsDirectInput() {
        return false;
    }

    /** Whether {@link #decodeInto(byte[], int, byte[], int)} reads its input in place, without a copy. */
    default boolean readsInPlace() {
        return false;
    }
}
