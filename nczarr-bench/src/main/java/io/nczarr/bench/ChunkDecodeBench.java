package io.nczarr.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nczarr.codec.Codec;
import io.nczarr.codec.CodecConfig;
import io.nczarr.codec.CodecRegistry;
import io.nczarr.codec.NativeCodecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Decode time of one stored chunk through the array's compressor, into a reused buffer as the chunk
 * reader does ({@code Codec.decodeInto}): the chunks of bench/make_compare.py's cubes (one chunk =
 * one day, 721 x 1440 float32 = 4.15 MB decoded), zlib level 1 and blosc lz4 + shuffle, with the
 * native decoders (libdeflate and c-blosc, when the system has them) and with Java only. Run by
 * bench/jmh.sh; {@code -p store=blosc_zstd_bitshuffle,...} picks the re-encoded blosc cubes that
 * bench/make_blosc_variants.py writes beside them.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class ChunkDecodeBench {
    /** The folder bench/make_compare.py wrote (bench/compare.sh makes it). */
    @Param("bench-data/compare-quick")
    public String data;

    @Param({"cube_zlib", "cube_blosc"})
    public String store;

    /** {@code true}: native decoders where found (NativeCodecs.load()); {@code false}: Java only. */
    @Param({"true", "false"})
    public boolean natives;

    private final List<byte[]> chunks = new ArrayList<>();
    private Codec codec;
    private byte[] out;
    private int length;
    private int next;

    @Setup
    public void setup() throws IOException {
        Path array = Path.of(data, store + ".zarr", "temperature");
        JsonNode zarray = new ObjectMapper().readTree(array.resolve(".zarray").toFile());
        JsonNode compressor = zarray.get("compressor");
        String dtype = zarray.get("dtype").asText();
        CodecRegistry registry = CodecRegistry.standard(natives ? NativeCodecs.load() : NativeCodecs.none());
        codec = registry.create(new CodecConfig(compressor.get("id").asText(), compressor, dtype));
        long n = Integer.parseInt(dtype.substring(2));
        for (JsonNode c : zarray.get("chunks")) {
            n *= c.asLong();
        }
        length = Math.toIntExact(n);
        out = new byte[length];
        try (Stream<Path> files = Files.list(array)) {
            for (Path p : files.filter(f -> !f.getFileName().toString().startsWith("."))
                    .sorted()
                    .toList()) {
                chunks.add(Files.readAllBytes(p));
            }
        }
        if (chunks.isEmpty()) {
            throw new IOException("no chunks in " + array + ": run bench/compare.sh (or make_compare.py) first");
        }
    }

    /** One chunk decoded (the chunks in turn). */
    @Benchmark
    public byte[] decodeChunk() throws IOException {
        byte[] c = chunks.get(next);
        next = next + 1 == chunks.size() ? 0 : next + 1;
        return codec.decodeInto(c, out, length);
    }
}
