package io.nczarr.cli.bench;

import io.nczarr.cli.bench.CompareBenchmark.Cell;
import io.nczarr.cli.bench.CompareBenchmark.Config;
import io.nczarr.cli.bench.FreshProcesses.Fresh;
import io.nczarr.s3.AwsEnvironment;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The comparison's one-process-per-read measurements ({@link FreshProcesses}): the S3 rows in a fresh process
 * (ours, tensorstore, zarrs), the CLI-like row (every library) and the peak RSS of the zlib cube's whole read (row
 * {@code rss}, every library).
 */
final class CompareFresh {
    /** The anchors of the fresh-process S3 rows: the readers issue 26 measures against. */
    static final List<String> S3_LIBS = List.of("tensorstore", "zarrs");

    private final Config cfg;
    private final CompareResults results;
    private final AnchorProcesses anchors;

    CompareFresh(Config cfg, CompareResults results, AnchorProcesses anchors) {
        this.cfg = cfg;
        this.results = results;
        this.anchors = anchors;
    }

    private Map<String, String> awsEnv() {
        return Map.of(
                "AWS_ACCESS_KEY_ID", CompareBenchmark.KEY_ID,
                "AWS_SECRET_ACCESS_KEY", CompareBenchmark.SECRET,
                "AWS_REGION", "us-east-1");
    }

    private List<String> anchor(String lib, List<String> where, String oneshot) {
        List<String> cmd = new ArrayList<>(List.of(
                anchors.pythonFor(lib),
                cfg.script(),
                "--lib",
                lib,
                "--data",
                cfg.data().toString()));
        cmd.addAll(where);
        cmd.addAll(List.of("--oneshot", oneshot));
        return cmd;
    }

    private void put(String row, String reader, Fresh f) {
        results.fresh.computeIfAbsent(row, k -> new java.util.LinkedHashMap<>()).put(reader, f);
        System.err.printf(
                Locale.ROOT,
                "fresh %s %s: to data %.4f s (start %.4f, import %.4f, open %.4f, read %.4f), wall %.4f s,"
                        + " peak RSS %d KiB%n",
                row,
                reader,
                f.toData(),
                f.start(),
                f.imports(),
                f.open(),
                f.read(),
                f.wall(),
                f.rssKib());
    }

    /** One S3 row (s3-many, s3-zlib) in fresh processes: ours with the bench profile, the anchors with its key. */
    void s3(String row, String url, String var, String bucketUrl, Path aws) throws IOException, InterruptedException {
        List<String> props = List.of(
                "-D" + AwsEnvironment.CREDENTIALS_FILE_PROPERTY + "=" + aws.resolve("credentials"),
                "-D" + AwsEnvironment.CONFIG_FILE_PROPERTY + "=" + aws.resolve("config"));
        put(
                row,
                CompareBenchmark.OURS,
                FreshProcesses.best(
                        FreshProcesses.ours(props, url, var), Map.of(), cfg.cliIters(), cfg.childTimeoutSeconds()));
        for (String lib : cfg.libs()) {
            if (S3_LIBS.contains(lib)) {
                put(
                        row,
                        lib,
                        FreshProcesses.best(
                                anchor(lib, List.of("--s3", bucketUrl), row.substring(3)),
                                awsEnv(),
                                cfg.cliIters(),
                                cfg.childTimeoutSeconds()));
            }
        }
    }

    /** The CLI-like row (one row across 100 chunks, local) and its main-table cells (wall, spawn to exit). */
    void cli(String url, String var, int[][] section) throws IOException, InterruptedException {
        Fresh ours = FreshProcesses.best(
                FreshProcesses.ours(List.of(), url, var, join(section[0]), join(section[1])),
                Map.of(),
                cfg.cliIters(),
                cfg.childTimeoutSeconds());
        put("cli", CompareBenchmark.OURS, ours);
        results.put("cli", CompareBenchmark.OURS, new Cell(ours.wall(), ours.sha256()));
        for (String lib : cfg.libs()) {
            Fresh f = FreshProcesses.best(
                    anchor(lib, List.of(), "row"), Map.of(), cfg.cliIters(), cfg.childTimeoutSeconds());
            put("cli", lib, f);
            results.put("cli", lib, new Cell(f.wall(), f.sha256()));
        }
    }

    /** Peak RSS of one whole read of the zlib cube per process, every reader (ours: the launcher's defaults). */
    void rss(String url, String var) throws IOException, InterruptedException {
        put(
                "rss",
                CompareBenchmark.OURS,
                FreshProcesses.best(
                        FreshProcesses.ours(List.of(), url, var), Map.of(), cfg.cliIters(), cfg.childTimeoutSeconds()));
        for (String lib : cfg.libs()) {
            put(
                    "rss",
                    lib,
                    FreshProcesses.best(
                            anchor(lib, List.of(), "zlib"), Map.of(), cfg.cliIters(), cfg.childTimeoutSeconds()));
        }
    }

    private static String join(int[] a) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < a.length; i++) {
            s.append(i == 0 ? "" : ",").append(a[i]);
        }
        return s.toString();
    }
}
