package io.nczarr.cli.bench;

import io.nczarr.testkit.s3.CountingProxy;
import io.nczarr.testkit.s3.LocalS3Server;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The Parquet reference benchmark (bench/parquet-bench.sh, issue 23): the kerchunk benchmark's ~100 MB netCDF-4
 * file and its references as fsspec Parquet folders (record_size 10) in the loopback S3 server, behind a relay
 * adding a fixed latency per request and counting requests; the whole variable {@code temp} and one time step
 * read (a) by us through the Parquet references ({@code #mode=kerchunk,s3}), (b) by fsspec's ReferenceFileSystem
 * + xarray/zarr-python in Python. Each run opens afresh. Prints a Markdown table.
 *
 * <p>Usage: {@code ParquetBench DIR PYTHON SCRIPT [latencyMs=20] [runs=3]} (DIR holds big.nc, big.parq/ with
 * relative targets and big-s3.parq/ with s3:// targets).
 */
public final class ParquetBench {
    private ParquetBench() {}

    private record Run(String what, long requests, long bytes, double seconds, double sum) {}

    public static void main(String[] args) throws Exception {
        Path dir = Paths.get(args[0]);
        String python = args[1];
        String script = args[2];
        long latency = args.length > 3 ? Long.parseLong(args[3]) : 20;
        int runs = args.length > 4 ? Integer.parseInt(args[4]) : 3;
        try (LocalS3Server server = LocalS3Server.start("AKIDBENCH", "benchsecret0000000000000000000000000000");
                CountingProxy proxy = CountingProxy.start(server.anonymousEndpoint())) {
            server.upload(dir, "bench", "parquet");
            proxy.latency(Duration.ofMillis(latency));
            String url = proxy.endpoint() + "/bench/parquet/big.parq#mode=kerchunk,s3&aws.profile=none";
            List<Run> results = new ArrayList<>();
            for (int r = 0; r < runs; r++) {
                for (boolean step : new boolean[] {false, true}) {
                    String what = step ? "one time step (1 MB)" : "whole variable (100 MB)";
                    results.add(java("(a) nczarr-java, Parquet references: " + what, url, step, proxy));
                    results.add(
                            python(python, script, step, "(b) fsspec ReferenceFileSystem + xarray: " + what, proxy));
                }
            }
            System.out.printf(
                    Locale.ROOT, "latency %d ms per request, %d runs each (best time shown)%n%n", latency, runs);
            System.out.println("| reader | requests | MB transferred | seconds | sum(temp) |");
            System.out.println("|---|---:|---:|---:|---:|");
            Set<String> whats = new LinkedHashSet<>();
            results.forEach(x -> whats.add(x.what()));
            for (String what : whats) {
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

    private static Run java(String what, String url, boolean step, CountingProxy proxy) throws Exception {
        proxy.reset();
        long t0 = System.nanoTime();
        double sum = OursReads.floatSum(url, "temp", step ? "50,:,:" : null);
        double s = (System.nanoTime() - t0) / 1e9;
        CountingProxy.Counts c = proxy.counts();
        return new Run(what, c.total(), c.responseBytes(), s, sum);
    }

    private static Run python(String python, String script, boolean step, String what, CountingProxy proxy)
            throws IOException, InterruptedException {
        proxy.reset();
        Process p = new ProcessBuilder(
                        python,
                        script,
                        proxy.endpoint().toString(),
                        "s3://bench/parquet/big-s3.parq",
                        step ? "step" : "all")
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
                what,
                c.total(),
                c.responseBytes(),
                Double.parseDouble(parts[parts.length - 2]),
                Double.parseDouble(parts[parts.length - 1]));
    }
}
