package io.nczarr.chunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.nczarr.codec.CodecRegistry;
import io.nczarr.codec.NativeCodecs;
import io.nczarr.error.CodecException;
import io.nczarr.meta.MetadataReader;
import io.nczarr.model.VarModel;
import io.nczarr.store.DirectoryStore;
import io.nczarr.store.Store;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Stored zlib chunks are read into one reused buffer per thread: a chunk shorter than the one before
 * it must be decoded from its own bytes only, in the Java and the native decoder. Expected values are
 * what the JDK's Deflater was given.
 */
class ChunkInputBufferTest {

    @TempDir
    Path dir;

    static List<CodecRegistry> registries() {
        return List.of(CodecRegistry.standard(), CodecRegistry.standard(NativeCodecs.none()));
    }

    /** Chunks of 1024 int32: random (stores large), zeros (tiny), random, then a missing one (fill -1). */
    private int[] write(Random r) throws IOException {
        Files.writeString(dir.resolve(".zgroup"), "{\"zarr_format\":2}");
        Path v = Files.createDirectories(dir.resolve("v"));
        Files.writeString(
                v.resolve(".zarray"),
                "{\"zarr_format\":2,\"shape\":[4096],\"chunks\":[1024],\"dtype\":\"<i4\",\"fill_value\":-1,"
                        + "\"order\":\"C\",\"compressor\":{\"id\":\"zlib\",\"level\":1},\"filters\":null}");
        int[] all = new int[4096];
        for (int i = 0; i < 1024; i++) {
            all[i] = r.nextInt();
            all[2048 + i] = r.nextInt();
        }
        Arrays.fill(all, 3072, 4096, -1);
        for (int c = 0; c < 3; c++) {
            int[] part = Arrays.copyOfRange(all, c * 1024, c * 1024 + 1024);
            ByteBuffer b = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);
            b.asIntBuffer().put(part);
            Files.write(v.resolve(Integer.toString(c)), ChunkReaderErrorsTest.zlib(b.array()));
        }
        return all;
    }

    private ChunkReader reader(Store s, CodecRegistry codecs) throws IOException {
        VarModel var = MetadataReader.read(s, DatasetUrl.Format.ZARR, true)
                .root()
                .variables()
                .get(0);
        return new ChunkReader(s, var, codecs, null);
    }

    @ParameterizedTest
    @MethodSource("registries")
    void aShortChunkAfterALongOneReadsItsOwnBytes(CodecRegistry codecs) throws IOException {
        int[] expected = write(new Random(16));
        try (Store s = new DirectoryStore(dir)) {
            ChunkReader r = reader(s, codecs);
            for (int k = 0; k < 3; k++) {
                assertArrayEquals(expected, (int[]) r.readAll(), "read " + k);
            }
            // the tiny chunk alone, right after a long one was read in this thread
            assertArrayEquals(Arrays.copyOfRange(expected, 1024, 1034), (int[])
                    r.read(new long[] {1024}, new int[] {10}, new int[] {1}));
        }
    }

    @ParameterizedTest
    @MethodSource("registries")
    void aTruncatedChunkFailsThoughTheBufferHoldsMore(CodecRegistry codecs) throws IOException {
        write(new Random(17));
        Path zeros = dir.resolve("v/1");
        byte[] whole = Files.readAllBytes(zeros);
        Files.write(zeros, Arrays.copyOf(whole, whole.length / 2));
        try (Store s = new DirectoryStore(dir)) {
            ChunkReader r = reader(s, codecs);
            r.read(new long[] {0}, new int[] {1024}, new int[] {1}); // fills the buffer with a long chunk
            CodecException e = assertThrows(
                    CodecException.class, () -> r.read(new long[] {1024}, new int[] {1024}, new int[] {1}));
            assertEquals("v/1", e.key());
        }
    }
}
