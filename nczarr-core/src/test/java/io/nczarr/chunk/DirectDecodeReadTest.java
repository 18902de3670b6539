package io.nczarr.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.Zstd;
import io.nczarr.codec.CodecRegistry;
import io.nczarr.codec.NativeCodecs;
import io.nczarr.error.ChunkException;
import io.nczarr.meta.MetadataReader;
import io.nczarr.model.VarModel;
import io.nczarr.store.DirectoryStore;
import io.nczarr.store.Store;
import io.nczarr.url.DatasetUrl;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import net.jpountz.lz4.LZ4Factory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole chunks that land as one contiguous run of the result are decoded straight into it (blosc); the values
 * are the same as element-by-element from the stored chunks for whole, partial and edge reads, for each
 * compressor (blosc with byte shuffle, bit shuffle or none, zlib, zstd, lz4, none), element type and byte
 * order; edge chunks, partial chunks and missing chunks (fill) go the old way; a chunk of the wrong size still
 * fails with the chunk error. {@link ChunkDecoder#DIRECT_DECODES} tells which way a chunk went.
 */
class DirectDecodeReadTest {

    @TempDir
    Path dir;

    private static final ExecutorService POOL = Executors.newFixedThreadPool(2);

    @AfterAll
    static void stop() {
        POOL.shutdownNow();
    }

    private static final String[] DTYPES = {"<f4", ">f4", "<i2", ">u2", "<f8", ">i8", "|u1", ">i4"};
    private static final String[] COMPRESSORS = {"blosc", "blosc-noshuffle", "zlib", "zstd", "lz4", "none"};

    // shape (9, 12, 10), chunks (2, 12, 10): chunks 0-3 whole, chunk 4 the edge; chunk 2 missing
    private static final int[] SHAPE = {9, 12, 10};
    private static final int[] CHUNK = {2, 12, 10};
    private static final int CHUNK_ELEMS = 2 * 12 * 10;
    private static final int MISSING = 2;
    private static final long FILL = 7;

    private static int size(String dtype) {
        return Integer.parseInt(dtype.substring(2));
    }

    private static ByteOrder order(String dtype) {
        return dtype.charAt(0) == '>' ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    }

    /** Writes the variable; the expected values of the whole array, as the bytes of its elements (in {@code order}). */
    private byte[] write(Path root, String dtype, String compressor, Random r) throws IOException {
        int item = size(dtype);
        boolean isFloat = dtype.charAt(1) == 'f';
        Files.createDirectories(root);
        Files.writeString(root.resolve(".zgroup"), "{\"zarr_format\":2}");
        Path v = Files.createDirectories(root.resolve("v"));
        String comp = switch (compressor) {
            case "blosc", "blosc-noshuffle" ->
                "{\"id\":\"blosc\",\"cname\":\"lz4\",\"clevel\":5,\"shuffle\":1,\"blocksize\":0}";
            case "zlib" -> "{\"id\":\"zlib\",\"level\":1}";
            case "zstd" -> "{\"id\":\"zstd\",\"level\":1}";
            case "lz4" -> "{\"id\":\"lz4\",\"acceleration\":1}";
            default -> "null";
        };
        Files.writeString(
                v.resolve(".zarray"),
                "{\"zarr_format\":2,\"shape\":[9,12,10],\"chunks\":[2,12,10],\"dtype\":\"" + dtype
                        + "\",\"fill_value\":" + FILL + ",\"order\":\"C\",\"compressor\":" + comp
                        + ",\"filters\":null}");
        int n = SHAPE[0] * SHAPE[1] * SHAPE[2];
        ByteBuffer all = ByteBuffer.allocate((n + CHUNK_ELEMS) * item).order(order(dtype));
        for (int i = 0; i < n + CHUNK_ELEMS; i++) {
            long x = i < n ? r.nextLong() >> (64 - 8 * item + 3) : FILL; // smallish, some negative
            putElement(all, i, item, isFloat, i < n ? x * 0.25 + i : FILL, x);
        }
        for (int c = 0; c < 5; c++) {
            if (c == MISSING) {
                // what the reader must give: the fill value
                for (int i = c * CHUNK_ELEMS; i < (c + 1) * CHUNK_ELEMS; i++) {
                    putElement(all, i, item, isFloat, FILL, FILL);
                }
                continue;
            }
            byte[] chunk = Arrays.copyOfRange(all.array(), c * CHUNK_ELEMS * item, (c + 1) * CHUNK_ELEMS * item);
            Files.write(v.resolve(c + ".0.0"), encode(compressor, chunk, item));
        }
        return Arrays.copyOf(all.array(), n * item);
    }

    private static void putElement(ByteBuffer b, int i, int item, boolean isFloat, double f, long x) {
        switch (item) {
            case 1 -> b.put(i, (byte) x);
            case 2 -> b.putShort(2 * i, (short) x);
            case 4 -> {
                if (isFloat) {
                    b.putFloat(4 * i, (float) f);
                } else {
                    b.putInt(4 * i, (int) x);
                }
            }
            default -> {
                if (isFloat) {
                    b.putDouble(8 * i, f);
                } else {
                    b.putLong(8 * i, x);
                }
            }
        }
    }

    static byte[] encode(String compressor, byte[] chunk, int item) throws IOException {
        return switch (compressor) {
            case "blosc" -> blosc(chunk, item, 128 * item, true);
            case "blosc-noshuffle" -> blosc(chunk, item, 96 * item, false);
            case "zlib" -> ChunkReaderErrorsTest.zlib(chunk);
            case "zstd" -> Zstd.compress(chunk);
            case "lz4" -> {
                byte[] c = LZ4Factory.fastestInstance().fastCompressor().compress(chunk);
                ByteBuffer b = ByteBuffer.allocate(4 + c.length).order(ByteOrder.LITTLE_ENDIAN);
                yield b.putInt(chunk.length).put(c).array();
            }
            default -> chunk;
        };
    }

    /** A Blosc 1 frame, lz4, blocks of {@code blocksize}, one stream per block, byte-shuffled or not. */
    static byte[] blosc(byte[] data, int ts, int blocksize, boolean shuffle) {
        int nblocks = (data.length + blocksize - 1) / blocksize;
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        int[] starts = new int[nblocks];
        int headerEnd = 16 + 4 * nblocks;
        for (int j = 0; j < nblocks; j++) {
            starts[j] = headerEnd + body.size();
            byte[] block = Arrays.copyOfRange(data, j * blocksize, Math.min(data.length, (j + 1) * blocksize));
            if (shuffle) {
                int count = block.length / ts;
                byte[] s = block.clone();
                for (int e = 0; e < count; e++) {
                    for (int i = 0; i < ts; i++) {
                        s[i * count + e] = block[e * ts + i];
                    }
                }
                block = s;
            }
            byte[] c = LZ4Factory.fastestInstance().fastCompressor().compress(block);
            if (c.length >= block.length) {
                c = block;
            }
            body.writeBytes(ByteBuffer.allocate(4)
                    .order(ByteOrder.LITTLE_ENDIAN)
                    .putInt(c.length)
                    .array());
            body.writeBytes(c);
        }
        int cbytes = headerEnd + body.size();
        ByteBuffer b = ByteBuffer.allocate(cbytes).order(ByteOrder.LITTLE_ENDIAN);
        int flags = (shuffle ? 0x01 : 0) | 0x10 | (1 << 5);
        b.put((byte) 2).put((byte) 1).put((byte) flags).put((byte) ts);
        b.putInt(data.length).putInt(blocksize).putInt(cbytes);
        for (int s : starts) {
            b.putInt(s);
        }
        return b.put(body.toByteArray()).array();
    }

    private static ChunkReader reader(Store s, ExecutorService pool) throws IOException {
        VarModel var = MetadataReader.read(s, DatasetUrl.Format.ZARR, true)
                .root()
                .variables()
                .get(0);
        return new ChunkReader(s, var, CodecRegistry.standard(NativeCodecs.none()), pool);
    }

    /** The expected section, element by element from the whole array's bytes, as a typed array. */
    private static Object expected(byte[] all, String dtype, Object like, long[] origin, int[] count, int[] stride) {
        int item = size(dtype);
        ByteBuffer b = ByteBuffer.wrap(all).order(order(dtype));
        List<Integer> idx = new ArrayList<>();
        for (int i = 0; i < count[0]; i++) {
            for (int j = 0; j < count[1]; j++) {
                for (int k = 0; k < count[2]; k++) {
                    long a = origin[0] + (long) i * stride[0];
                    long bb = origin[1] + (long) j * stride[1];
                    long c = origin[2] + (long) k * stride[2];
                    idx.add((int) ((a * SHAPE[1] + bb) * SHAPE[2] + c));
                }
            }
        }
        byte[] out = new byte[idx.size() * item];
        for (int i = 0; i < idx.size(); i++) {
            System.arraycopy(all, idx.get(i) * item, out, i * item, item);
        }
        Object typed = Array.newInstance(like.getClass().getComponentType(), idx.size());
        ByteBuffer o = ByteBuffer.wrap(out).order(b.order());
        if (typed instanceof byte[] t) {
            o.get(t);
        } else if (typed instanceof short[] t) {
            o.asShortBuffer().get(t);
        } else if (typed instanceof int[] t) {
            o.asIntBuffer().get(t);
        } else if (typed instanceof float[] t) {
            o.asFloatBuffer().get(t);
        } else if (typed instanceof long[] t) {
            o.asLongBuffer().get(t);
        } else {
            o.asDoubleBuffer().get((double[]) typed);
        }
        return typed;
    }

    private static void assertSame(Object expected, Object got, String what) {
        // raw bits: compare as bytes of the arrays' elements
        assertEquals(Array.getLength(expected), Array.getLength(got), what);
        for (int i = 0; i < Array.getLength(got); i++) {
            assertEquals(
                    String.valueOf(Array.get(expected, i)), String.valueOf(Array.get(got, i)), what + " [" + i + "]");
        }
    }

    @Test
    void valuesAreTheSameEveryWayAndWholeChunksGoStraightIn() throws IOException {
        Random r = new Random(26);
        long[][] origins = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 3, 0}, {0, 0, 0}, {8, 11, 9}};
        int[][] counts = {{9, 12, 10}, {7, 12, 10}, {4, 12, 10}, {9, 5, 10}, {5, 12, 10}, {1, 1, 1}};
        int[][] strides = {{1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {2, 1, 1}, {1, 1, 1}};
        int cases = 0;
        for (String dtype : DTYPES) {
            for (String compressor : COMPRESSORS) {
                Path root =
                        dir.resolve(dtype.replace('<', 'l').replace('>', 'b').replace('|', 'n') + "-" + compressor);
                byte[] all = write(root, dtype, compressor, r);
                try (Store s = new DirectoryStore(root)) {
                    for (ExecutorService pool : new ExecutorService[] {null, POOL}) {
                        ChunkReader reader = reader(s, pool);
                        for (int k = 0; k < origins.length; k++) {
                            String what = dtype + " " + compressor + " section " + k + " pool " + (pool != null);
                            long before = ChunkDecoder.DIRECT_DECODES.sum();
                            Object got = reader.read(origins[k], counts[k], strides[k]);
                            long direct = ChunkDecoder.DIRECT_DECODES.sum() - before;
                            assertSame(expected(all, dtype, got, origins[k], counts[k], strides[k]), got, what);
                            long want = compressor.startsWith("blosc")
                                    ? wholeStoredChunks(origins[k], counts[k], strides[k])
                                    : 0;
                            assertEquals(want, direct, what);
                            cases++;
                        }
                        assertSame(
                                expected(all, dtype, reader.readAll(), new long[3], SHAPE, new int[] {1, 1, 1}),
                                reader.readAll(),
                                dtype);
                    }
                }
            }
        }
        assertEquals(DTYPES.length * COMPRESSORS.length * 2 * origins.length, cases);
    }

    /** How many stored (not missing), non-edge chunks lie wholly in the section with unit strides. */
    private static long wholeStoredChunks(long[] origin, int[] count, int[] stride) {
        if (stride[0] != 1
                || stride[1] != 1
                || stride[2] != 1
                || origin[1] != 0
                || count[1] != 12
                || origin[2] != 0
                || count[2] != 10) {
            return 0;
        }
        long n = 0;
        for (int c = 0; c < 4; c++) {
            if (c != MISSING && origin[0] <= 2L * c && 2L * c + 2 <= origin[0] + count[0]) {
                n++;
            }
        }
        return n;
    }

    @Test
    void aChunkOfTheWrongSizeStillFailsWithTheChunkError() throws IOException {
        Path root = dir.resolve("wrong");
        write(root, "<f4", "blosc", new Random(3));
        // chunk 1 replaced by a frame of one element too few
        byte[] shortChunk = new byte[(CHUNK_ELEMS - 1) * 4];
        Files.write(root.resolve("v").resolve("1.0.0"), blosc(shortChunk, 4, 512, true));
        try (Store s = new DirectoryStore(root)) {
            ChunkReader reader = reader(s, null);
            ChunkException e = assertThrows(ChunkException.class, reader::readAll);
            assertTrue(e.getMessage().contains("chunk decodes to 956 bytes, 960 expected"), e.getMessage());
            assertTrue(e.getMessage().contains("1.0.0"), e.getMessage());
        }
    }
}
