package io.nczarr.cli.bench;

import io.nczarr.cdm.NcZarrFiles;
import io.nczarr.testkit.s3.CountingProxy;
import io.nczarr.testkit.s3.LocalS3Server;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import ucar.ma2.Array;
import ucar.ma2.InvalidRangeException;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/**
 * S3 store benchmark (bench/s3-bench.sh runs it): serves datasets from the loopback S3 server
 * through {@link CountingProxy} with a fixed latency per request, opens each by an
 * {@code http://...#mode=...,s3} URL and reads one variable whole at several concurrency levels,
 * counting requests and bytes on the server side and timing open and read.
 *
 * <pre>
 * usage: S3Benchmark [--latency MS] [--levels 1,16] [--var NAME] [--sha256 HEX] DATASET[#modes]...
 * </pre>
 * A dataset is a local folder; {@code #modes} defaults to {@code nczarr} for {@code *.file} and
 * {@code zarr} otherwise. With {@code --sha256} each read is checked against the digest of the
 * values as big-endian doubles in C order (the conformance manifest's {@code data.sha256}).
 */
public final class S3Benchmark {
    private S3Benchmark() {}

    record Row(
            String dataset,
            int concurrency,
            double openSeconds,
            CountingProxy.Counts open,
            double readSeconds,
            CountingProxy.Counts read,
            String sha256) {}

    public static void main(String[] args) throws Exception {
        long latencyMs = 20;
        List<Integer> levels = List.of(1, 16);
        String var = "field";
        String sha = null;
        List<String> datasets = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--latency" -> latencyMs = Long.parseLong(args[++i]);
                case "--levels" ->
                    levels = java.util.Arrays.stream(args[++i].split(","))
                            .map(Integer::valueOf)
                            .toList();
                case "--var" -> var = args[++i];
                case "--sha256" -> sha = args[++i];
                default -> datasets.add(args[i]);
            }
        }
        if (datasets.isEmpty()) {
            System.err.println(
                    "usage: S3Benchmark [--latency MS] [--levels 1,16] [--var NAME] [--sha256 HEX] DATASET[#modes]...");
            System.exit(2);
        }
        Path aws = BenchProfile.install("AKIABENCH", "bench-secret-0123456789");

        List<Row> rows = new ArrayList<>();
        try (LocalS3Server server = LocalS3Server.start("AKIABENCH", "bench-secret-0123456789");
                CountingProxy proxy = CountingProxy.start(server.endpoint())) {
            for (String d : datasets) {
                int hash = d.indexOf('#');
                Path dir = Paths.get(hash < 0 ? d : d.substring(0, hash));
                String name = String.valueOf(dir.getFileName());
                String modes = hash >= 0 ? d.substring(hash + 1) : (name.endsWith(".file") ? "nczarr" : "zarr");
                long t0 = System.nanoTime();
                int n = server.upload(dir, "bench", name).size();
                System.err.printf(
                        Locale.ROOT, "uploaded %s: %d objects in %.1f s%n", name, n, (System.nanoTime() - t0) / 1e9);
                // warm-up (JIT, first client), not measured: open and read one row of chunks
                try (NetcdfFile nc = NcZarrFiles.open(
                        proxy.endpoint() + "/bench/" + name + "#mode=" + modes + ",s3&aws.profile=bench")) {
                    Variable v = nc.findVariable(var);
                    if (v != null) {
                        int[] shape = v.getShape();
                        int[] count = shape.clone();
                        if (count.length > 0) {
                            count[0] = Math.min(count[0], 10);
                        }
                        v.read(new int[shape.length], count);
                    }
                }
                proxy.latency(Duration.ofMillis(latencyMs));
                for (int level : levels) {
                    String url = proxy.endpoint() + "/bench/" + name + "#mode=" + modes
                            + ",s3&aws.profile=bench&nczarr.s3.concurrency=" + level;
                    Row r = run(proxy, name + " (" + modes + ")", level, url, var);
                    rows.add(r);
                    System.err.printf(
                            Locale.ROOT,
                            "  concurrency %3d: open %.3f s, read %.2f s%n",
                            level,
                            r.openSeconds(),
                            r.readSeconds());
                    if (sha != null && !sha.equalsIgnoreCase(r.sha256())) {
                        throw new IllegalStateException("wrong values: sha256 " + r.sha256() + ", expected " + sha);
                    }
                }
                proxy.latency(Duration.ZERO);
            }
        } finally {
            BenchProfile.remove(aws);
        }
        print(rows, latencyMs, var, sha != null);
        System.exit(0);
    }

    private static Row run(CountingProxy proxy, String dataset, int level, String url, String var)
            throws IOException, InvalidRangeException, NoSuchAlgorithmException {
        proxy.reset();
        long t0 = System.nanoTime();
        try (NetcdfFile nc = NcZarrFiles.open(url)) {
            long t1 = System.nanoTime();
            CountingProxy.Counts open = proxy.counts();
            proxy.reset();
            Variable v = nc.findVariable(var);
            if (v == null) {
                throw new IOException("no variable " + var + " in " + url);
            }
            Array a = v.read();
            long t2 = System.nanoTime();
            CountingProxy.Counts read = proxy.counts();
            return new Row(dataset, level, (t1 - t0) / 1e9, open, (t2 - t1) / 1e9, read, sha256(a));
        }
    }

    /** The manifest digest: the values as big-endian doubles, C order. */
    static String sha256(Array a) throws NoSuchAlgorithmException {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        ByteBuffer b = ByteBuffer.allocate(8 * 4096);
        long n = a.getSize();
        for (long i = 0; i < n; i++) {
            double d = a.getDouble((int) i);
            b.putDouble(Double.isNaN(d) ? Double.longBitsToDouble(0x7FF8000000000000L) : d);
            if (!b.hasRemaining()) {
                md.update(b.array(), 0, b.position());
                b.clear();
            }
        }
        md.update(b.array(), 0, b.position());
        return HexFormat.of().formatHex(md.digest());
    }

    private static void print(List<Row> rows, long latencyMs, String var, boolean checked) {
        System.out.printf(
                Locale.ROOT,
                "latency per request: %d ms; variable %s read whole; values %s%n%n",
                latencyMs,
                var,
                checked ? "checked against the expected sha256" : "not checked");
        System.out.println(
                "| dataset | in flight | open: requests (GET/LIST/HEAD) | open: s | read: requests (GET/LIST/HEAD) | read: MiB | read: s | speed-up |");
        System.out.println("|---|---:|---|---:|---|---:|---:|---:|");
        for (Row r : rows) {
            double base = rows.stream()
                    .filter(x -> x.dataset().equals(r.dataset()) && x.concurrency() == 1)
                    .mapToDouble(Row::readSeconds)
                    .findFirst()
                    .orElse(Double.NaN);
            System.out.printf(
                    Locale.ROOT,
                    "| %s | %d | %d (%d/%d/%d) | %.3f | %d (%d/%d/%d) | %.1f | %.2f | %s |%n",
                    r.dataset(),
                    r.concurrency(),
                    r.open().total(),
                    r.open().get(),
                    r.open().list(),
                    r.open().head(),
                    r.openSeconds(),
                    r.read().total(),
                    r.read().get(),
                    r.read().list(),
                    r.read().head(),
                    r.read().responseBytes() / 1048576.0,
                    r.readSeconds(),
                    Double.isNaN(base) ? "" : String.format(Locale.ROOT, "%.1fx", base / r.readSeconds()));
        }
    }
}
