package io.nczarr.codec;

import io.nczarr.error.CodecException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A chunk's codec chain in Zarr v3 order: array-to-array codecs, exactly one array-to-bytes
 * codec, bytes-to-bytes codecs (encode order), decoded backwards. Built once per variable,
 * immutable and thread-safe like its codecs. Zarr v2 chains come from {@link V2Pipeline}.
 *
 * <p>Each stage that runs gets a hard bound on its output: the chunk size for the last stage,
 * and for the stages before it the size of what the next stage takes, worked out from the
 * stages' types when the pipeline is built.
 */
public final class CodecPipeline {

    private final List<ArrayArrayCodec> arrayArray;
    private final ArrayBytesCodec arrayBytes;
    private final List<BytesBytesCodec> bytesBytes;
    /** The stages that run, in decode order (identity serializers left out: see {@link #runs}). */
    private final Codec[] steps;
    /** Per step: bound of its output when a later step follows. */
    private final int[] innerLimits;

    private CodecPipeline(
            List<ArrayArrayCodec> arrayArray,
            ArrayBytesCodec arrayBytes,
            List<BytesBytesCodec> bytesBytes,
            int[] innerLimits) {
        this.arrayArray = List.copyOf(arrayArray);
        this.arrayBytes = arrayBytes;
        this.bytesBytes = List.copyOf(bytesBytes);
        List<Codec> run = new ArrayList<>(bytesBytes);
        if (runs(arrayBytes)) {
            run.add(0, arrayBytes);
        }
        Collections.reverse(run); // bytes codecs were added in encode order
        List<Codec> arrays = new ArrayList<>(arrayArray);
        Collections.reverse(arrays);
        run.addAll(arrays);
        this.steps = run.toArray(new Codec[0]);
        if (innerLimits.length != steps.length) {
            throw new IllegalArgumentException(innerLimits.length + " limits for " + steps.length + " steps");
        }
        this.innerLimits = innerLimits.clone();
    }

    /**
     * Assembles a typed chain given in encode order, checking the order, for chunks that decode
     * to {@code chunk}. Where a stage's size cannot be known (a compressor's output fed to another
     * compressor, variable-length elements) its output is bounded by {@code cap}.
     */
    public static CodecPipeline of(List<? extends Codec> encodeOrder, ChunkSpec chunk, int cap) throws CodecException {
        Stages s = Stages.split(encodeOrder);
        // the array each array codec decodes to, then the one the serializer sees
        List<ChunkSpec> specs = new ArrayList<>();
        specs.add(chunk);
        for (ArrayArrayCodec c : s.arrayArray) {
            specs.add(c.encodedSpec(specs.get(specs.size() - 1)));
        }
        ChunkSpec serialized = specs.get(specs.size() - 1);
        // decode order: bytes codecs outermost first, then the serializer, then the array codecs
        List<Long> outputs = new ArrayList<>();
        long size = s.arrayBytes.encodedBytes(serialized);
        List<Long> bytesOutputs = new ArrayList<>();
        for (BytesBytesCodec c : s.bytesBytes) {
            bytesOutputs.add(size); // what this codec's decode gives back
            size = size == ChunkSpec.UNKNOWN ? size : c.maxEncodedBytes(size);
        }
        Collections.reverse(bytesOutputs);
        outputs.addAll(bytesOutputs);
        if (runs(s.arrayBytes)) {
            outputs.add(serialized.bytes());
        }
        for (int i = s.arrayArray.size() - 1; i >= 0; i--) {
            outputs.add(specs.get(i).bytes());
        }
        int[] limits = new int[outputs.size()];
        for (int i = 0; i < limits.length; i++) {
            long n = outputs.get(i);
            limits[i] = n == ChunkSpec.UNKNOWN || n > cap ? cap : (int) n;
        }
        return new CodecPipeline(s.arrayArray, s.arrayBytes, s.bytesBytes, limits);
    }

    /**
     * Whether a serializer does anything when decoding: not the raw one, nor {@code bytes} in the native (little)
     * byte order, which would only pass its input on. Left out, the compressor in front of it is the last stage
     * and decodes into the caller's buffer (a v3 {@code [bytes, zstd]} inner chunk: no array per chunk).
     */
    private static boolean runs(ArrayBytesCodec c) {
        return !(c instanceof RawBytesCodec) && !(c instanceof EndianCodec e && e.passesThrough());
    }

    /** A chain whose stages before the last are all bounded by {@code innerLimit} (Zarr v2: no widths known). */
    static CodecPipeline withInnerLimit(
            List<ArrayArrayCodec> arrayArray,
            ArrayBytesCodec arrayBytes,
            List<BytesBytesCodec> bytesBytes,
            int innerLimit) {
        int n = arrayArray.size() + bytesBytes.size() + (runs(arrayBytes) ? 1 : 0);
        int[] limits = new int[n];
        java.util.Arrays.fill(limits, innerLimit);
        return new CodecPipeline(arrayArray, arrayBytes, bytesBytes, limits);
    }

    /** The array-to-array codecs, encode order. */
    public List<ArrayArrayCodec> arrayArrayCodecs() {
        return arrayArray;
    }

    /** The serializer ({@link RawBytesCodec#INSTANCE} when the chain has none of its own). */
    public ArrayBytesCodec arrayBytesCodec() {
        return arrayBytes;
    }

    /** The bytes-to-bytes codecs, encode order. */
    public List<BytesBytesCodec> bytesBytesCodecs() {
        return bytesBytes;
    }

    /** The stages that run, in decode order. */
    public List<Codec> decodeSteps() {
        return List.of(steps);
    }

    /** True when decoding is the identity (stored bytes are the array). */
    public boolean isEmpty() {
        return steps.length == 0;
    }

    /**
     * Decodes a chunk whose decoded size is not known in advance (variable-length elements):
     * every stage's output is bounded by {@code maxBytes}.
     */
    public byte[] decode(byte[] stored, int maxBytes) throws IOException {
        byte[] data = stored;
        for (Codec step : steps) {
            data = step.decode(data, maxBytes);
        }
        return data;
    }

    /**
     * Decodes a chunk that should decode to exactly {@code len} bytes, with {@link Codec#decodeInto}
     * semantics: the last stage decodes into {@code out} when that is given (at least {@code len}
     * bytes) and the result is {@code out} when it holds exactly {@code len} bytes; otherwise a
     * new array with whatever the chunk decodes to (the caller reports a wrong size). Stages
     * before the last are bounded by the pipeline's inner limits. No stage copies for the pipeline.
     */
    public byte[] decodeInto(byte[] stored, byte[] out, int len) throws IOException {
        byte[] data = stored;
        int last = steps.length - 1;
        for (int i = 0; i < last; i++) {
            data = steps[i].decode(data, innerLimits[i]);
        }
        if (last < 0) {
            return data;
        }
        return out != null ? steps[last].decodeInto(data, out, len) : steps[last].decode(data, len);
    }

    /**
     * Whether {@link #decodeInto(byte[], int, byte[], int)} decodes the stored bytes where they are: one
     * stage that reads in place. Only then is reading chunks into a reused buffer free of a copy.
     */
    public boolean decodesInPlace() {
        return steps.length == 1 && steps[0].readsInPlace();
    }

    /** {@link Codec#decodeToOwnBuffer} of a one-stage chain; {@code null} for longer chains or a codec without own memory. */
    public java.nio.ByteBuffer decodeToOwnBuffer(byte[] stored, int storedLength, int len) throws IOException {
        return steps.length == 1 ? steps[0].decodeToOwnBuffer(stored, storedLength, len) : null;
    }

    /** Whether the chain is one codec that decodes a direct buffer of stored bytes in place. */
    public boolean decodesDirectInput() {
        return steps.length == 1 && steps[0].readsDirectInput();
    }

    /** {@link Codec#decodeToOwnBuffer(java.nio.ByteBuffer, int)} of a chain that {@link #decodesDirectInput()}. */
    public java.nio.ByteBuffer decodeToOwnBuffer(java.nio.ByteBuffer stored, int len) throws IOException {
        return decodesDirectInput() ? steps[0].decodeToOwnBuffer(stored, len) : null;
    }

    /** {@link #decodeInto(byte[], byte[], int)} of the first {@code storedLength} bytes of {@code stored}. */
    public byte[] decodeInto(byte[] stored, int storedLength, byte[] out, int len) throws IOException {
        if (steps.length == 1 && out != null) {
            return steps[0].decodeInto(stored, storedLength, out, len);
        }
        return decodeInto(
                storedLength == stored.length ? stored : java.util.Arrays.copyOf(stored, storedLength), out, len);
    }

    /**
     * {@link Codec#decodeInto(byte[], int, ElementSink)} of a one-stage chain: the stored bytes decoded straight
     * into a run of the result; {@code false} (nothing written) for longer chains and codecs without that path.
     */
    public boolean decodeInto(byte[] stored, int storedLength, ElementSink sink) throws IOException {
        return steps.length == 1 && steps[0].decodeInto(stored, storedLength, sink);
    }

    /**
     * {@link #decodeInto(byte[], byte[], int)} of {@code stored[offset, offset + length)}: an inner chunk inside
     * the bytes of its shard. A chain of one zstd stage reads it in place; others get a copy.
     */
    public byte[] decodeInto(byte[] stored, int offset, int length, byte[] out, int len) throws IOException {
        if (steps.length == 1 && out != null && steps[0] instanceof ZstdCodec z) {
            return z.decodeInto(stored, offset, length, out, len);
        }
        byte[] part = offset == 0 && length == stored.length
                ? stored
                : java.util.Arrays.copyOfRange(stored, offset, offset + length);
        return decodeInto(part, out, len);
    }

    /** A chain given in encode order, split by kind and checked against the Zarr v3 order. */
    private static final class Stages {
        final List<ArrayArrayCodec> arrayArray = new ArrayList<>();
        ArrayBytesCodec arrayBytes;
        final List<BytesBytesCodec> bytesBytes = new ArrayList<>();

        static Stages split(List<? extends Codec> encodeOrder) throws CodecException {
            Stages s = new Stages();
            for (int i = 0; i < encodeOrder.size(); i++) {
                Codec c = encodeOrder.get(i);
                if (c instanceof ArrayArrayCodec aa) {
                    if (s.arrayBytes != null) {
                        throw s.misplaced(i, encodeOrder.size(), c, "after the array->bytes codec");
                    }
                    s.arrayArray.add(aa);
                } else if (c instanceof ArrayBytesCodec ab) {
                    if (s.arrayBytes != null) {
                        throw s.misplaced(i, encodeOrder.size(), c, "but the chain already has one");
                    }
                    s.arrayBytes = ab;
                } else {
                    if (s.arrayBytes == null) {
                        throw s.misplaced(i, encodeOrder.size(), c, "before the array->bytes codec");
                    }
                    s.bytesBytes.add((BytesBytesCodec) c);
                }
            }
            if (s.arrayBytes == null) {
                throw new CodecException("codec chain has no array->bytes codec");
            }
            return s;
        }

        private CodecException misplaced(int i, int n, Codec c, String where) {
            return new CodecException("codec " + (i + 1) + " of " + n + " ("
                    + c.getClass().getSimpleName() + ") is " + CodecKind.of(c) + " " + where);
        }
    }
}
