package io.nczarr.cli.bench;

import io.nczarr.raf.ByteRangeConfig;
import io.nczarr.raf.ByteRangeFiles;
import io.nczarr.testkit.http.RangeHttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import ucar.ma2.Array;
import ucar.nc2.NetcdfFile;
import ucar.unidata.io.http.HTTPRandomAccessFile;

/**
 * The mode=bytes benchmark (bench/bytes.sh): a netCDF-4 file served by the loopback range server,
 * optionally with injected latency, opened and read through {@link ByteRangeFiles} with several
 * block sizes; GETs, bytes transferred (counted by the server) and wall time for (a) open + header,
 * (b) a small variable, (c) a large variable, (d) a chunked+deflated variable; next to downloading
 * the whole object and to cdm 4.5.5's own {@code HTTPRandomAccessFile}. Prints Markdown tables.
 *
 * <p>Usage: {@code ByteRangeBench FILE [blockSizes=64k,256k,512k,1m,4m] [latenciesMs=0,20] [cacheMiB=16]}
 */
public final class ByteRangeBench {
    private static final String SMALL = "small";
    private static final String LARGE = "temp";
    private static final String CHUNKED = "pressure";
    /** One time step of the chunked variable: 16 scattered compressed chunks. */
    private static final String SLICE = "25,:,:";

    private ByteRangeBench() {}

    private record Step(long gets, long bytes, long ms) {}

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println(
                    "usage: ByteRangeBench FILE [blockSizes=64k,256k,512k,1m,4m] [latenciesMs=0,20] [cacheMiB=16]");
            System.exit(2);
        }
        Path file = Paths.get(args[0]);
        String configs = args.length > 1 ? args[1] : "64k,256k,512k,1m,4m";
        List<Long> latencies = new ArrayList<>();
        for (String s : (args.length > 2 ? args[2] : "0,20").split(",")) {
            latencies.add(Long.parseLong(s.trim()));
        }
        long cacheBytes = (args.length > 3 ? Long.parseLong(args[3]) : 16) << 20;
        long size = Files.size(file);

        Array expectedLarge;
        try (NetcdfFile local = NetcdfFile.open(file.toString())) {
            expectedLarge = local.findVariable(LARGE).read();
        }

        System.out.printf(Locale.ROOT, "file: %s, %d bytes (%.1f MiB)%n%n", file.getFileName(), size, size / 1048576.0);
        try (RangeHttpServer server = RangeHttpServer.start()) {
            server.put("/bench.nc", file);
            // warm-up (JIT, connections, page cache): not reported
            download(server, size);
            row(server, "warm-up", ByteRangeConfig.defaults(), size, expectedLarge, false);
            for (long latency : latencies) {
                System.out.printf(Locale.ROOT, "### latency %d ms per request%n%n", latency);
                System.out.println("| reader | block | cache | (a) open+header GETs / bytes / % / ms "
                        + "| (b) small var GETs / bytes / ms | (e) " + CHUNKED + "[" + SLICE + "] GETs / bytes / ms "
                        + "| (c) " + LARGE + " GETs / MiB / ms | (d) " + CHUNKED + " GETs / MiB / ms |");
                System.out.println("|---|---|---|---|---|---|---|---|");
                server.reset();
                server.latencyMs(latency);
                Step whole = download(server, size);
                System.out.printf(
                        Locale.ROOT,
                        "| whole download (one GET) | - | - | %d / %s / 100%% / %d | - | - | - | - |%n",
                        whole.gets,
                        human(whole.bytes),
                        whole.ms);
                for (String spec : configs.split(",")) {
                    String[] f = spec.trim().split(":");
                    int bs = (int) parseSize(f[0]);
                    int blocks = f.length > 1 ? Integer.parseInt(f[1]) : (int) Math.max(4, cacheBytes / bs);
                    ByteRangeConfig cfg =
                            ByteRangeConfig.defaults().withBlockSize(bs).withCacheBlocks(blocks);
                    if (f.length > 2) {
                        cfg = cfg.withReadAheadBlocks(Integer.parseInt(f[2]));
                    }
                    row(server, "mode=bytes, read-ahead " + cfg.readAheadBlocks(), cfg, size, expectedLarge);
                }
                ByteRangeConfig noRa = ByteRangeConfig.defaults()
                        .withCacheBlocks((int) Math.max(4, cacheBytes / ByteRangeConfig.DEFAULT_BLOCK_SIZE))
                        .withReadAheadBlocks(0);
                row(server, "mode=bytes, no read-ahead", noRa, size, expectedLarge);
                cdmRow(server, size);
                System.out.println();
            }
        }
    }

    private static void row(RangeHttpServer server, String name, ByteRangeConfig cfg, long size, Array expected)
            throws IOException {
        row(server, name, cfg, size, expected, true);
    }

    private static void row(
            RangeHttpServer server, String name, ByteRangeConfig cfg, long size, Array expected, boolean print)
            throws IOException {
        long t0 = startStep(server);
        try (NetcdfFile nc = ByteRangeFiles.open(server.uri("/bench.nc"), "bench.nc#mode=bytes", cfg)) {
            Step open = step(server, t0);
            Steps reads = reads(server, nc);
            if (expected != null
                    && !java.util.Arrays.equals((float[]) expected.getStorage(), (float[]) reads.large.getStorage())) {
                throw new IllegalStateException(LARGE + " read through mode=bytes differs from the local file");
            }
            if (print) {
                printRow(
                        name + " | " + human(cfg.blockSize()) + " | " + cfg.cacheBlocks() + " blocks = "
                                + human(cfg.cacheBytes()),
                        open,
                        reads,
                        size);
            }
        }
    }

    /** cdm 4.5.5's own HTTP reader: one buffer of min(file length, 10 MB) per refill. */
    private static void cdmRow(RangeHttpServer server, long size) {
        long t0 = startStep(server);
        try (NetcdfFile nc =
                NetcdfFile.open(new HTTPRandomAccessFile(server.url("/bench.nc")), "bench.nc", null, null)) {
            Step open = step(server, t0);
            printRow("cdm 4.5.5 HTTPRandomAccessFile (HEAD + GETs) | 10 MB buffer | -", open, reads(server, nc), size);
        } catch (Exception | NoClassDefFoundError e) {
            System.out.println("| cdm 4.5.5 HTTPRandomAccessFile | failed: " + e + " | | | | | | |");
        }
    }

    /** The measured reads after an open: small variable, chunked slice, large variable, whole chunked variable. */
    private record Steps(Step small, Step slice, Step big, Step chunked, Array large) {}

    private static Steps reads(RangeHttpServer server, NetcdfFile nc) throws IOException {
        long t0 = startStep(server);
        nc.findVariable(SMALL).read();
        Step small = step(server, t0);
        t0 = startStep(server);
        try {
            nc.findVariable(CHUNKED).read(SLICE);
        } catch (ucar.ma2.InvalidRangeException e) {
            throw new IOException(e);
        }
        Step slice = step(server, t0);
        t0 = startStep(server);
        Array large = nc.findVariable(LARGE).read();
        Step big = step(server, t0);
        t0 = startStep(server);
        nc.findVariable(CHUNKED).read();
        Step chunked = step(server, t0);
        return new Steps(small, slice, big, chunked, large);
    }

    private static void printRow(String label, Step open, Steps r, long size) {
        System.out.printf(
                Locale.ROOT,
                "| %s | %d / %s / %.2f%% / %d | %d / %s / %d " + "| %d / %s / %d | %d / %.1f / %d | %d / %.1f / %d |%n",
                label,
                open.gets,
                human(open.bytes),
                100.0 * open.bytes / size,
                open.ms,
                r.small.gets,
                human(r.small.bytes),
                r.small.ms,
                r.slice.gets,
                human(r.slice.bytes),
                r.slice.ms,
                r.big.gets,
                r.big.bytes / 1048576.0,
                r.big.ms,
                r.chunked.gets,
                r.chunked.bytes / 1048576.0,
                r.chunked.ms);
    }

    /** Resets the server's counters and returns the start time of a step. */
    private static long startStep(RangeHttpServer server) {
        server.resetCounters();
        return System.nanoTime();
    }

    private static Step download(RangeHttpServer server, long size) throws Exception {
        server.resetCounters();
        HttpClient client =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        long t0 = System.nanoTime();
        HttpResponse<InputStream> r = client.send(
                HttpRequest.newBuilder(server.uri("/bench.nc")).build(), HttpResponse.BodyHandlers.ofInputStream());
        byte[] buf = new byte[1 << 20];
        long n = 0;
        try (InputStream in = r.body()) {
            for (int k; (k = in.read(buf)) > 0; ) {
                n += k;
            }
        }
        if (n != size) {
            throw new IOException("download got " + n + " of " + size);
        }
        return step(server, t0);
    }

    private static Step step(RangeHttpServer server, long t0) {
        return new Step(server.gets(), server.bytesSent(), (System.nanoTime() - t0) / 1_000_000);
    }

    private static String human(long bytes) {
        if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= 10 << 20) {
            return String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
        }
        if (bytes >= 1024 && bytes % 1024 == 0) {
            return (bytes >> 10) + " KiB";
        }
        if (bytes >= 10 * 1024) {
            return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
        }
        return bytes + " B";
    }

    private static long parseSize(String s) {
        String t = s.trim().toLowerCase(Locale.ROOT);
        long mult = t.endsWith("k") ? 1024 : t.endsWith("m") ? 1 << 20 : 1;
        if (mult != 1) {
            t = t.substring(0, t.length() - 1);
        }
        return Long.parseLong(t) * mult;
    }
}
