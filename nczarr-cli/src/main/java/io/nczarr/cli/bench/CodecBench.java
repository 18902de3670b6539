package io.nczarr.cli.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nczarr.codec.Codec;
import io.nczarr.codec.CodecConfig;
import io.nczarr.codec.CodecRegistry;
import io.nczarr.dtype.InvalidDtypeException;
import io.nczarr.dtype.NumpyDtype;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Decode throughput of one Zarr v2 array: {@code CodecBench ARRAY_DIR [ROUNDS]} decodes every
 * chunk file of the array ROUNDS times (default 5, after one warm-up round) through its
 * compressor and filters and prints, per codec step, MB/s of decoded output (1 MB = 10^6 bytes).
 * For zlib chunks it also prints the bare JDK Inflater rate on the same chunks, for comparison.
 */
public final class CodecBench {
    private CodecBench() {}

    public static void main(String[] args) throws IOException, DataFormatException, InvalidDtypeException {
        if (args.length < 1) {
            System.err.println("usage: CodecBench ZARR_ARRAY_DIR [ROUNDS]");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        JsonNode zarray = new ObjectMapper().readTree(dir.resolve(".zarray").toFile());
        String dtype = zarray.get("dtype").asText();
        CodecRegistry registry = CodecRegistry.standard();
        List<JsonNode> specs = new ArrayList<>();
        JsonNode comp = zarray.get("compressor");
        if (comp != null && !comp.isNull()) {
            specs.add(comp);
        }
        JsonNode filters = zarray.get("filters");
        if (filters != null && !filters.isNull()) {
            for (int i = filters.size() - 1; i >= 0; i--) {
                specs.add(filters.get(i));
            }
        }
        List<Codec> steps = new ArrayList<>();
        for (JsonNode s : specs) {
            steps.add(registry.create(new CodecConfig(s.get("id").asText(), s, dtype)));
        }
        long elems = 1;
        for (JsonNode n : zarray.get("chunks")) {
            elems *= n.asLong();
        }
        NumpyDtype dt = NumpyDtype.parse(dtype);
        int limit =
                (int) Math.min(Integer.MAX_VALUE - 16, elems * Math.max(8, dt.itemsize() == 0 ? 64 : dt.itemsize()));

        List<byte[]> chunks = new ArrayList<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) files.filter(Files::isRegularFile)
                    .filter(p -> !p.getFileName().toString().startsWith("."))::iterator) {
                chunks.add(Files.readAllBytes(p));
            }
        }
        long stored = chunks.stream().mapToLong(b -> b.length).sum();
        System.out.printf(
                Locale.ROOT,
                "%s: %d chunks, %.1f MB stored, dtype %s, %d rounds%n",
                dir,
                chunks.size(),
                stored / 1e6,
                dtype,
                rounds);
        if (steps.isEmpty()) {
            System.out.println("no compressor and no filters: nothing to decode");
            return;
        }
        long finalBytes = elems * Math.max(1, dt.itemsize());
        byte[] reuse = new byte[(int) Math.min(finalBytes, Integer.MAX_VALUE - 16)];
        long[] nanos = new long[steps.size()];
        long[] outBytes = new long[steps.size()];
        for (int r = -1; r < rounds; r++) {
            for (byte[] c : chunks) {
                byte[] data = c;
                for (int s = 0; s < steps.size(); s++) {
                    long t0 = System.nanoTime();
                    boolean last = s == steps.size() - 1;
                    // the last step decodes into a reused buffer, as the chunk reader does
                    byte[] out = last && finalBytes <= limit
                            ? steps.get(s).decodeInto(data, reuse, (int) finalBytes)
                            : steps.get(s).decode(data, limit);
                    long t1 = System.nanoTime();
                    int n = out == reuse ? (int) finalBytes : out.length;
                    data = out;
                    if (r >= 0) {
                        nanos[s] += t1 - t0;
                        outBytes[s] += n;
                    }
                }
            }
        }
        long total = 0;
        for (int s = 0; s < steps.size(); s++) {
            total += nanos[s];
            System.out.printf(
                    Locale.ROOT,
                    "  %-18s %10.1f MB/s  (%s)%n",
                    specs.get(s).get("id").asText(),
                    outBytes[s] / 1e6 / (nanos[s] / 1e9),
                    specs.get(s));
        }
        if (steps.size() > 1) {
            System.out.printf(
                    Locale.ROOT, "  %-18s %10.1f MB/s%n", "pipeline", outBytes[steps.size() - 1] / 1e6 / (total / 1e9));
        }
        if (!specs.isEmpty() && specs.get(0).get("id").asText().equals("zlib")) {
            byte[] buf = new byte[limit];
            long t = 0;
            long bytes = 0;
            for (int r = -1; r < rounds; r++) {
                for (byte[] c : chunks) {
                    long t0 = System.nanoTime();
                    Inflater inf = new Inflater();
                    inf.setInput(c);
                    int n = 0;
                    while (!inf.finished() && n < buf.length) {
                        int k = inf.inflate(buf, n, buf.length - n);
                        if (k == 0 && (inf.needsInput() || inf.needsDictionary())) {
                            break;
                        }
                        n += k;
                    }
                    inf.end();
                    long t1 = System.nanoTime();
                    if (r >= 0) {
                        t += t1 - t0;
                        bytes += n;
                    }
                }
            }
            System.out.printf(
                    Locale.ROOT,
                    "  %-18s %10.1f MB/s  (bare java.util.zip.Inflater, preallocated output)%n",
                    "jdk-inflater",
                    bytes / 1e6 / (t / 1e9));
            int threads = Runtime.getRuntime().availableProcessors();
            double wall = parallelInflate(chunks, limit, threads, rounds);
            System.out.printf(
                    Locale.ROOT,
                    "  %-18s %10.1f MB/s  (bare Inflater on %d threads: the parallel bound)%n",
                    "jdk-inflater-par",
                    (double) bytes / rounds / 1e6 / wall,
                    threads);
        }
    }

    /** Wall seconds per round to inflate all chunks on {@code threads} threads (best of rounds). */
    private static double parallelInflate(List<byte[]> chunks, int limit, int threads, int rounds) {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        ThreadLocal<byte[]> bufs = ThreadLocal.withInitial(() -> new byte[limit]);
        double best = Double.MAX_VALUE;
        try {
            for (int r = -1; r < rounds; r++) {
                long t0 = System.nanoTime();
                List<java.util.concurrent.Future<?>> fs = new ArrayList<>();
                for (byte[] c : chunks) {
                    fs.add(pool.submit(() -> {
                        byte[] buf = bufs.get();
                        Inflater inf = new Inflater();
                        inf.setInput(c);
                        int n = 0;
                        try {
                            while (!inf.finished() && n < buf.length) {
                                int k = inf.inflate(buf, n, buf.length - n);
                                if (k == 0 && (inf.needsInput() || inf.needsDictionary())) {
                                    break;
                                }
                                n += k;
                            }
                        } catch (DataFormatException e) {
                            throw new IllegalStateException(e);
                        } finally {
                            inf.end();
                        }
                    }));
                }
                for (java.util.concurrent.Future<?> f : fs) {
                    f.get();
                }
                double secs = (System.nanoTime() - t0) / 1e9;
                if (r >= 0) {
                    best = Math.min(best, secs);
                }
            }
        } catch (InterruptedException | java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e);
        } finally {
            pool.shutdown();
        }
        return best;
    }
}
