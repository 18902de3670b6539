package io.nczarr.cli.bench;

import io.nczarr.cdm.NcZarrFiles;
import io.nczarr.testkit.s3.CountingProxy;
import io.nczarr.testkit.s3.LocalS3Server;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import ucar.ma2.Array;
import ucar.ma2.IndexIterator;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/**
 * The aggregation benchmark (bench/aggregation-bench.sh, issue 14): a CF-1.13 aggregation over
 * netCDF-4 fragments (bench/make_aggregation_bench.py) on the loopback S3 server behind a relay that
 * adds a fixed latency per request and counts requests; (a) open, (b) the whole variable, (c) one
 * fragment's worth of section, each with requests and time; and a single fragment opened and read
 * by {@code #mode=bytes} alone, for the requests-per-fragment bound. Optionally runs cfdm (the
 * Python reader) on the same files from local disk in the same run (see {@link #python}).
 *
 * <p>usage: AggregationBench DIR [--latency MS] [--python PYTHON]
 */
public final class AggregationBench {
    private AggregationBench() {}

    public static void main(String[] args) throws Exception {
        Path dir = null;
        long latencyMs = 20;
        String python = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--latency" -> latencyMs = Long.parseLong(args[++i]);
                case "--python" -> python = args[++i];
                default -> dir = Paths.get(args[i]);
            }
        }
        if (dir == null) {
            System.err.println("usage: AggregationBench DIR [--latency MS] [--python PYTHON]");
            System.exit(2);
        }
        double expected = Double.parseDouble(Files.readString(dir.resolve("expected.json"))
                .replaceAll(".*\"sum\":\\s*([-0-9.eE+]+).*", "$1")
                .trim());
        Path aws = BenchProfile.install("AKIABENCH", "bench-secret-0123456789");
        List<String> lines = new ArrayList<>();
        try (LocalS3Server server = LocalS3Server.start("AKIABENCH", "bench-secret-0123456789");
                CountingProxy proxy = CountingProxy.start(server.endpoint())) {
            int n = server.upload(dir, "bench", "agg").size();
            System.err.printf(Locale.ROOT, "uploaded %d objects%n", n);
            String url = proxy.endpoint() + "/bench/agg/agg.nc#mode=bytes,s3&aws.profile=bench";
            run(url, expected, proxy, null); // warm-up (JIT, clients), not reported
            proxy.latency(Duration.ofMillis(latencyMs));
            lines.add(String.format(Locale.ROOT, "latency per request: %d ms, %d objects%n", latencyMs, n));
            lines.add("| reader | (a) open: requests / s | (b) whole variable: requests / MiB / s | (c) one fragment's"
                    + " section: requests / s |");
            lines.add("|---|---|---|---|");
            lines.add(run(url, expected, proxy, "nczarr-java (CF-1.13, #mode=bytes on S3)"));
            // one fragment alone, by #mode=bytes: the per-fragment request bound
            proxy.reset();
            long t0 = System.nanoTime();
            try (NetcdfFile f =
                    NcZarrFiles.open(proxy.endpoint() + "/bench/agg/tas_000.nc#mode=bytes,s3&aws.profile=bench")) {
                f.findVariable("tas").read();
            }
            long oneGets = proxy.counts().get();
            lines.add(String.format(
                    Locale.ROOT,
                    "| one fragment alone (#mode=bytes open + read) | - | %d requests, %.2f s | - |",
                    oneGets,
                    (System.nanoTime() - t0) / 1e9));
            if (python != null) {
                lines.add(python(python, proxy, dir));
            }
        } finally {
            BenchProfile.remove(aws);
        }
        lines.forEach(System.out::println);
        System.exit(0);
    }

    private static String run(String url, double expected, CountingProxy proxy, String label) throws Exception {
        proxy.reset();
        long t0 = System.nanoTime();
        try (NetcdfFile nc = NcZarrFiles.open(url)) {
            long t1 = System.nanoTime();
            long openGets = proxy.counts().get();
            proxy.reset();
            Variable v = nc.findVariable("tas");
            Array a = v.read();
            long t2 = System.nanoTime();
            CountingProxy.Counts whole = proxy.counts();
            double sum = 0;
            for (IndexIterator it = a.getIndexIterator(); it.hasNext(); ) {
                sum += it.getDoubleNext();
            }
            if (Math.abs(sum - expected) > Math.abs(expected) * 1e-9) {
                throw new IllegalStateException("wrong sum " + sum + ", expected " + expected);
            }
            proxy.reset();
            int[] shape = v.getShape();
            long t3 = System.nanoTime();
            v.read(new int[] {shape[0] / 2, 0, 0}, new int[] {1, shape[1], shape[2]});
            long t4 = System.nanoTime();
            long sectionGets = proxy.counts().get();
            return String.format(
                    Locale.ROOT,
                    "| %s | %d / %.2f | %d / %.0f / %.2f | %d / %.3f |",
                    label,
                    openGets,
                    (t1 - t0) / 1e9,
                    whole.get(),
                    whole.responseBytes() / 1048576.0,
                    (t2 - t1) / 1e9,
                    sectionGets,
                    (t4 - t3) / 1e9);
        }
    }

    /** cfdm reading the same aggregation from local disk: open, then the whole variable. */
    private static String python(String python, CountingProxy proxy, Path dir) throws Exception {
        // cfdm 1.13.3 + s3fs 2026.9 against the loopback S3 relay fails ("The specified bucket does not
        // exist" for every fragment, path-style addressing or not), so cfdm reads the same files from
        // local disk: no latency, no requests, a lower bound of its time on S3
        String script = String.join(
                "\n",
                "import sys, time, os, cfdm, numpy as np",
                "t0 = time.time()",
                "os.chdir(sys.argv[2])  # cfdm 1.13.3 resolves the relative fragments against the working directory",
                "f = cfdm.read('agg.nc')[0]",
                "t1 = time.time()",
                "print('OPEN', t1 - t0, flush=True)",
                "sys.stdin.readline()",
                "t1 = time.time()",
                "a = f.data.array",
                "t2 = time.time()",
                "print('READ', t2 - t1, float(a.astype('f8').sum()), flush=True)");
        Path py = Files.createTempFile("aggbench", ".py");
        Files.writeString(py, script);
        Process p = new ProcessBuilder(python, py.toString(), proxy.endpoint().toString(), dir.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        String open;
        String read = null;
        try (var out = new java.io.BufferedReader(
                        new java.io.InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                var in = p.getOutputStream()) {
            open = out.readLine();
            if (open != null) {
                in.write('\n');
                in.flush();
                read = out.readLine();
            }
        } finally {
            p.waitFor(600, TimeUnit.SECONDS);
            Files.deleteIfExists(py);
        }
        if (open == null || read == null) {
            return "| cfdm (Python) | failed (see stderr) | | |";
        }
        String[] o = open.split(" ");
        String[] r = read.split(" ");
        return String.format(
                Locale.ROOT,
                "| cfdm %s (Python, the same files on local disk) | - / %.2f | - / - / %.2f, sum %s | - |",
                "1.13.3",
                Double.parseDouble(o[1]),
                Double.parseDouble(r[1]),
                r[2]);
    }
}
