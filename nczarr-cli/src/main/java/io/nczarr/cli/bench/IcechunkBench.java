package io.nczarr.cli.bench;

import io.nczarr.cdm.NcZarrFiles;
import io.nczarr.testkit.s3.CountingProxy;
import io.nczarr.testkit.s3.LocalS3Server;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import ucar.nc2.NetcdfFile;

/**
 * The Icechunk benchmark (bench/icechunk-bench.sh, issue 23): a virtual Icechunk repository over a netCDF-4 file
 * (bench/icechunk_bench.py's 48 x 360 x 720 float32 {@code sst}, 1 MB chunks, zlib 1), the whole variable and
 * one time step read (a) by us and (b) by icechunk-python + zarr-python 3, from the local directory and from the
 * loopback S3 server behind a relay adding a fixed latency per request and counting requests (the repository
 * {@code virtual-s3.icechunk} of bench/icechunk_s3_repo.py, its container {@code s3://bench/ic/}). Each read
 * opens afresh; best time of the runs. Also prints the requests of our open + first chunk, in order. Prints
 * Markdown, with the load average and this JVM's CPU time.
 *
 * <p>Usage: {@code IcechunkBench LOCAL_DIR S3_DIR PYTHON LOCAL_SCRIPT S3_SCRIPT [latencyMs=20] [runs=3]}.
 */
public final class IcechunkBench {
    private IcechunkBench() {}

    private record Run(String what, long requests, long bytes, double seconds, double sum) {}

    public static void main(String[] args) throws Exception {
        Path local = Paths.get(args[0]);
        Path s3dir = Paths.get(args[1]);
        String python = args[2];
        String localScript = args[3];
        String s3Script = args[4];
        long latency = args.length > 5 ? Long.parseLong(args[5]) : 20;
        int runs = args.length > 6 ? Integer.parseInt(args[6]) : 3;
        String localUrl = local.resolve("virtual.icechunk").toUri() + "#mode=zarr,icechunk&icechunk.container.src="
                + local.toUri();
        List<Run> results = new ArrayList<>();
        try (LocalS3Server server = LocalS3Server.start("AKIDBENCH", "benchsecret0000000000000000000000000000");
                CountingProxy proxy = CountingProxy.start(server.anonymousEndpoint())) {
            server.createBucket("bench");
            server.put("bench", "ic/src.nc", Files.readAllBytes(s3dir.resolve("src.nc")));
            server.upload(s3dir.resolve("virtual-s3.icechunk"), "bench", "ic/virtual-s3.icechunk");
            proxy.latency(Duration.ofMillis(latency));
            String ep = proxy.endpoint().toString().replaceAll("/$", "");
            String s3Url = ep + "/bench/ic/virtual-s3.icechunk#mode=zarr,icechunk,s3&aws.profile=none"
                    + "&icechunk.container.src=" + ep + "/bench/ic/";
            firstRead(s3Url, proxy);
            for (int r = 0; r < runs; r++) {
                for (boolean step : new boolean[] {false, true}) {
                    String what = step ? "one time step (1 chunk, 4.0 MB decoded)" : "whole variable (48 chunks)";
                    results.add(java("local: (a) nczarr-java, " + what, localUrl, step, null));
                    results.add(python(
                            "local: (b) icechunk-python + zarr-python, " + what,
                            List.of(python, localScript, local.toString(), step ? "step" : "all"),
                            null));
                    results.add(java("S3 " + latency + " ms: (a) nczarr-java, " + what, s3Url, step, proxy));
                    results.add(python(
                            "S3 " + latency + " ms: (b) icechunk-python + zarr-python, " + what,
                            List.of(
                                    python,
                                    s3Script,
                                    ep,
                                    "bench",
                                    "ic/virtual-s3.icechunk",
                                    "s3://bench/ic/",
                                    step ? "step" : "all"),
                            proxy));
                }
            }
        }
        System.out.printf(Locale.ROOT, "%d runs each (best time shown)%n%n", runs);
        System.out.println("| reader | requests | MB transferred | seconds | sum(sst) |");
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
                    "| %s | %s | %s | %.3f | %.6g |%n",
                    what,
                    best.requests() < 0 ? "-" : Long.toString(best.requests()),
                    best.bytes() < 0 ? "-" : String.format(Locale.ROOT, "%.1f", best.bytes() / 1e6),
                    best.seconds(),
                    best.sum());
        }
        System.out.printf(
                Locale.ROOT,
                "%nload average (1 min) at the end: %.2f; this JVM's CPU time: %.1f s%n",
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                                .getProcessCpuTime()
                        / 1e9);
        System.exit(0);
    }

    /** Our open + one time step on S3, the requests listed in order. */
    private static void firstRead(String url, CountingProxy proxy) throws Exception {
        proxy.reset();
        try (NetcdfFile nc = NcZarrFiles.open(url)) {
            nc.findVariable("sst").read("7,:,:");
        }
        System.out.println("open + first read (one time step) on S3, requests in order:");
        for (CountingProxy.Request r : proxy.requests()) {
            System.out.println("  " + r);
        }
        proxy.reset();
        try (NetcdfFile nc = NcZarrFiles.open(url)) {
            nc.findVariable("sst").read();
        }
        java.util.Map<String, Integer> byObject = new java.util.TreeMap<>();
        proxy.requests().forEach(r -> byObject.merge(r.method() + " " + r.path(), 1, Integer::sum));
        System.out.println("open + whole variable on S3, requests per object: " + byObject);
        System.out.println();
    }

    private static Run java(String what, String url, boolean step, CountingProxy proxy) throws Exception {
        if (proxy != null) {
            proxy.reset();
        }
        long t0 = System.nanoTime();
        double sum = OursReads.floatSum(url, "sst", step ? "7,:,:" : null);
        double s = (System.nanoTime() - t0) / 1e9;
        if (proxy == null) {
            return new Run(what, -1, -1, s, sum);
        }
        CountingProxy.Counts c = proxy.counts();
        return new Run(what, c.total(), c.responseBytes(), s, sum);
    }

    private static Run python(String what, List<String> command, CountingProxy proxy)
            throws IOException, InterruptedException {
        if (proxy != null) {
            proxy.reset();
        }
        Process p = new ProcessBuilder(command).redirectErrorStream(false).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException("python failed: " + err);
        }
        String[] parts = out.split("\\s+");
        double seconds = Double.parseDouble(parts[parts.length - 2]);
        double sum = Double.parseDouble(parts[parts.length - 1]);
        if (proxy == null) {
            return new Run(what, -1, -1, seconds, sum);
        }
        CountingProxy.Counts c = proxy.counts();
        return new Run(what, c.total(), c.responseBytes(), seconds, sum);
    }
}
