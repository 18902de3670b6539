package io.nczarr.cli.bench;

import io.nczarr.cli.bench.CompareBenchmark.Cell;
import io.nczarr.cli.bench.CompareBenchmark.Config;
import io.nczarr.testkit.s3.CountingProxy;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The anchors of the comparison as child processes: bench/compare_read.py per library (tensorstore, zarrs,
 * zarr-python 3 and 2), each answering its "@reset"/"@count" marks from the relay (one process per read:
 * {@link FreshProcesses}).
 */
final class AnchorProcesses {
    private final Config cfg;
    private final CompareResults results;

    AnchorProcesses(Config cfg, CompareResults results) {
        this.cfg = cfg;
        this.results = results;
    }

    String pythonFor(String lib) {
        return lib.equals("zarr2") ? cfg.py2() : cfg.py3();
    }

    /** Runs compare_read.py for one library; answers its "@reset"/"@count" marks from the relay. */
    void python(String lib, List<String> where, List<String> rows, int iters, CountingProxy proxy)
            throws IOException, InterruptedException {
        List<String> workloads =
                rows.stream().map(r -> r.startsWith("s3-") ? r.substring(3) : r).toList();
        List<String> cmd = new ArrayList<>(List.of(
                pythonFor(lib),
                cfg.script(),
                "--lib",
                lib,
                "--data",
                cfg.data().toString(),
                "--iters",
                String.valueOf(iters),
                "--workloads",
                String.join(",", workloads)));
        cmd.addAll(where);
        if (proxy != null) {
            cmd.add("--count");
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.environment().put("AWS_ACCESS_KEY_ID", CompareBenchmark.KEY_ID);
        pb.environment().put("AWS_SECRET_ACCESS_KEY", CompareBenchmark.SECRET);
        pb.environment().put("AWS_REGION", "us-east-1");
        String prefix = proxy != null ? "s3-" : "";
        Map<String, CountingProxy.Counts> counts = new LinkedHashMap<>();
        Process p = pb.start();
        ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "compare-watchdog");
            t.setDaemon(true);
            return t;
        });
        watchdog.schedule(
                () -> {
                    System.err.println(lib + ": no end after " + cfg.childTimeoutSeconds() + " s: stopped");
                    p.destroyForcibly();
                },
                cfg.childTimeoutSeconds(),
                TimeUnit.SECONDS);
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                Writer w = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                String[] f = line.split(" ");
                if (line.startsWith("@")) {
                    if (f[0].equals("@reset")) {
                        proxy.reset();
                    } else if (f[0].equals("@count")) {
                        counts.put(f[1] + " " + f[2], proxy.counts());
                        proxy.reset();
                    }
                    w.write("ok\n");
                    w.flush();
                } else if (line.startsWith("VERSION ")) {
                    results.versions.put(f[1], f[2]);
                } else if (line.startsWith("RESULT ")) {
                    String wl = f[2];
                    results.put(
                            prefix + wl,
                            lib,
                            new Cell(
                                    Double.parseDouble(f[3]),
                                    f[4],
                                    counts.get("open " + wl),
                                    counts.get("read " + wl)));
                    System.err.printf(Locale.ROOT, "%s%s %s: %.4f s%n", prefix, wl, lib, Double.parseDouble(f[3]));
                } else {
                    System.err.println(lib + ": " + line);
                }
            }
        } finally {
            watchdog.shutdownNow();
        }
        int rc = p.waitFor();
        if (rc != 0) {
            System.err.println(lib + " exited with " + rc);
        }
    }
}
