package io.nczarr.cli.bench;

import io.nczarr.testkit.s3.CountingProxy;
import io.nczarr.testkit.s3.LocalS3Server;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The kerchunk benchmark (bench/kerchunk-bench.sh, issue 13): one ~100 MB netCDF-4 file and its kerchunk
 * references in the loopback S3 server, behind a relay adding a fixed latency per request and counting
 * requests; the whole variable {@code temp} read (a) through the references ({@code #mode=kerchunk,s3}),
 * (b) with {@code #mode=bytes,s3}, (c) by xarray + kerchunk + fsspec/s3fs in Python. Prints a Markdown table.
 *
 * <p>Usage: {@code KerchunkBench DIR PYTHON SCRIPT [latencyMs=20] [runs=3]} (DIR holds big.nc and big.json).
 */
public final class KerchunkBench {
    private KerchunkBench() {}

    private record Run(String what, long requests, long bytes, double seconds, double sum) {}

    public static void main(String[] args) throws Exception {
        Path dir = Paths.get(args[0]);
        String python = args[1];
        String script = args[2];
        long latency = args.length > 3 ? Long.parseLong(args[3]) : 20;
        int runs = args.length > 4 ? Integer.parseInt(args[4]) : 3;
        try (LocalS3Server server = LocalS3Server.start("AKIDBENCH", "benchsecret0000000000000000000000000000");
                CountingProxy proxy = CountingProxy.start(server.anonymousEndpoint())) {
            server.upload(dir, "bench", "kerchunk");
            proxy.latency(Duration.ofMillis(latency));
            String base = proxy.endpoint() + "/bench/kerchunk/";
            List<Run> results = new ArrayList<>();
            for (int r = 0; r < runs; r++) {
                results.add(java(
                        "(a) kerchunk references, #mode=kerchunk,s3",
                        base + "big.json#mode=kerchunk,s3&aws.profile=none",
                        proxy));
                results.add(java("(b) #mode=bytes,s3", base + "big.nc#mode=bytes,s3&aws.profile=none", proxy));
                results.add(python(python, script, proxy));
            }
            System.out.printf(
                    Locale.ROOT, "latency %d ms per request, %d runs each (best time shown)%n%n", latency, runs);
            System.out.println("| reader | requests | MB transferred | seconds | sum(temp) |");
            System.out.println("|---|---:|---:|---:|---:|");
            for (String what : new String[] {
                results.get(0).what(), results.get(1).what(), results.get(2).what()
            }) {
                Run best = results.stream()
                        .filter(x -> x.what().equals(what))
                        .min((x, y) -> Double.compare(x.seconds(), y.seconds()))
                        .orElseThrow();
                System.out.printf(
                        Locale.ROOT,
                        "| %s | %d | %.1f | %.2f | %.6g |%n",
                        what,
                        best.requests(),
                        best.bytes() / 1e6,
                        best.seconds(),
                        best.sum());
            }
        }
        System.exit(0);
    }

    private static Run java(String what, String url, CountingProxy proxy) throws IOException {
        proxy.reset();
        long t0 = System.nanoTime();
        double sum = OursReads.floatSum(url, "temp", null);
        double s = (System.nanoTime() - t0) / 1e9;
        CountingProxy.Counts c = proxy.counts();
        return new Run(what, c.total(), c.responseBytes(), s, sum);
    }

    private static Run python(String python, String script, CountingProxy proxy)
            throws IOException, InterruptedException {
        proxy.reset();
        Process p = new ProcessBuilder(python, script, proxy.endpoint().toString(), "bench/kerchunk/big.json")
                .redirectErrorStream(false)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException("python failed: " + err);
        }
        String[] parts = out.split("\\s+");
        CountingProxy.Counts c = proxy.counts();
        return new Run(
                "(c) xarray + kerchunk + fsspec (Python)",
                c.total(),
                c.responseBytes(),
                Double.parseDouble(parts[parts.length - 2]),
                Double.parseDouble(parts[parts.length - 1]));
    }
}
