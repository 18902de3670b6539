package io.nczarr.cli.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nczarr.codec.CodecRegistry;
import io.nczarr.codec.NativeCodecs;
import io.nczarr.open.NcZarrOptions;
import io.nczarr.testkit.s3.CountingProxy;
import io.nczarr.testkit.s3.LocalS3Server;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The side-by-side comparison (bench/compare.sh runs it): ours next to tensorstore, zarrs (zarr-python 3's
 * Rust codec pipeline), zarr-python 3 and zarr-python 2 on the same stores, back to back, with every result checked
 * against the sha256 the generator (bench/make_compare.py) wrote. Ours runs in this JVM (the
 * default options, and variants: pure-Java zlib, SDK GETs); the anchors run as
 * bench/compare_read.py child processes. The S3 rows use the loopback S3 server (signed requests)
 * behind {@link CountingProxy} with a latency per request, which also counts every reader's
 * requests. The CLI-like row times whole processes (start, open, one read, exit); the S3 rows are measured a
 * second time with one process per read ({@link CompareFresh}: ours a fresh JVM with the launcher's defaults), and
 * row {@code rss} records the peak RSS of one whole read of the zlib cube per process. Prints Markdown tables with
 * ratios ours ÷ theirs (speed; &gt; 1 = ours faster) and the load average.
 *
 * <pre>
 * usage: CompareBenchmark --data DIR --script compare_read.py [--py3 PY] [--py2 PY] [--latency MS]
 *        [--iters N] [--s3-iters N] [--cli-iters N] [--libs tensorstore,zarrs,zarr3,zarr2]
 *        [--rows zlib,blosc,many,row,open,open-cons,s3-many,s3-zlib,cli,rss] [--child-timeout S]
 *        (--cli-iters N: processes per reader of the cli row, the fresh-process S3 cells and the rss row;
 *        0 leaves the fresh-process S3 cells out)
 * </pre>
 */
public final class CompareBenchmark {

    static final String OURS = "ours";
    static final String OURS_JAVA_ZLIB = "ours-java-zlib";
    static final String OURS_SDK = "ours-sdk";
    /**
     * The open and row rows again once the JIT has compiled the path: best of the same iterations after
     * {@link #WARM_RUNS} untimed ones (the whole-read rows are steady already).
     */
    static final String OURS_WARM = "ours-warm";

    static final int WARM_RUNS = 200;
    static final List<String> ALL_ROWS =
            List.of("zlib", "blosc", "many", "row", "open", "open-cons", "s3-many", "s3-zlib", "cli", "rss");
    /** Rows measured only in fresh processes (their own tables). */
    static final List<String> FRESH_ONLY_ROWS = List.of("rss");

    static final String KEY_ID = "AKIABENCH";
    static final String SECRET = "bench-secret-0123456789";

    /** One measured cell: best seconds, sha256 of the values, request counts (null: not counted). */
    record Cell(double seconds, String sha256, CountingProxy.Counts open, CountingProxy.Counts read) {
        Cell(double seconds, String sha256) {
            this(seconds, sha256, null, null);
        }
    }

    /** Settings of one run. */
    record Config(
            Path data,
            String script,
            String py3,
            String py2,
            long latencyMs,
            int iters,
            int s3Iters,
            int cliIters,
            List<String> libs,
            List<String> rows,
            long childTimeoutSeconds) {}

    private final Config cfg;
    private final JsonNode manifest;
    private final CompareResults results = new CompareResults();
    private final AnchorProcesses anchors;
    private final CompareFresh fresh;

    private CompareBenchmark(Config cfg, JsonNode manifest) {
        this.cfg = cfg;
        this.manifest = manifest;
        this.anchors = new AnchorProcesses(cfg, results);
        this.fresh = new CompareFresh(cfg, results, anchors);
    }

    public static void main(String[] args) throws Exception {
        Path data = null;
        String script = null;
        String py3 = "python3";
        String py2 = null;
        long latency = 20;
        int iters = 5;
        int s3Iters = 3;
        int cliIters = 3;
        long childTimeout = 1800;
        List<String> libs = List.of("tensorstore", "zarrs", "zarr3", "zarr2");
        List<String> rows = ALL_ROWS;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--data" -> data = Paths.get(args[++i]);
                case "--script" -> script = args[++i];
                case "--py3" -> py3 = args[++i];
                case "--py2" -> py2 = args[++i];
                case "--latency" -> latency = Long.parseLong(args[++i]);
                case "--iters" -> iters = Integer.parseInt(args[++i]);
                case "--s3-iters" -> s3Iters = Integer.parseInt(args[++i]);
                case "--cli-iters" -> cliIters = Integer.parseInt(args[++i]);
                case "--child-timeout" -> childTimeout = Long.parseLong(args[++i]);
                case "--libs" -> libs = list(args[++i]);
                case "--rows" -> rows = list(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (data == null || script == null) {
            System.err.println(
                    "usage: CompareBenchmark --data DIR --script compare_read.py ... (see bench/compare.sh)");
            System.exit(2);
        }
        for (String r : rows) {
            if (!ALL_ROWS.contains(r)) {
                throw new IllegalArgumentException("unknown row " + r + "; rows: " + String.join(",", ALL_ROWS));
            }
        }
        if (py2 == null) {
            libs = libs.stream().filter(l -> !l.equals("zarr2")).toList();
        }
        JsonNode manifest = new ObjectMapper()
                .readTree(data.resolve("compare.expected.json").toFile());
        Config cfg = new Config(
                data.toAbsolutePath(),
                script,
                py3,
                py2,
                latency,
                iters,
                s3Iters,
                cliIters,
                libs,
                List.copyOf(rows),
                childTimeout);
        CompareBenchmark b = new CompareBenchmark(cfg, manifest);
        String before = loadAverage();
        b.run();
        String after = loadAverage();
        boolean ok = new CompareTable(cfg, manifest, b.results).print(before, after);
        ok &= new FreshTable(cfg, manifest, b.results).print();
        System.exit(ok ? 0 : 1);
    }

    private void run() throws Exception {
        List<String> local = cfg.rows().stream()
                .filter(r -> !r.startsWith("s3-") && !r.equals("cli") && !FRESH_ONLY_ROWS.contains(r))
                .toList();
        try (NcZarrOptions javaZlib = NcZarrOptions.builder()
                .codecs(CodecRegistry.standard(NativeCodecs.none()))
                .build()) {
            for (String row : local) { // row by row: every reader of a row within seconds of each other
                measureOursLocal(row, javaZlib);
                for (String lib : cfg.libs()) {
                    anchors.python(lib, List.of(), List.of(row), cfg.iters(), null);
                }
                results.load.put(row, loadAverage().split(" ")[0]);
            }
            if (cfg.rows().contains("s3-many") || cfg.rows().contains("s3-zlib")) {
                s3(javaZlib);
            }
        }
        if (cfg.rows().contains("cli")) {
            String dataset = manifest.get("row").get("dataset").asText();
            fresh.cli(localUrl(dataset), ds(dataset).get("var").asText(), rowSection());
            results.load.put("cli", loadAverage().split(" ")[0]);
        }
        if (cfg.rows().contains("rss")) {
            fresh.rss(localUrl("cube_zlib"), ds("cube_zlib").get("var").asText());
            results.load.put("rss", loadAverage().split(" ")[0]);
        }
    }

    // ---------------------------------------------------------------- ours, in this JVM

    private String localUrl(String dataset) {
        return cfg.data().resolve(ds(dataset).get("path").asText()).toUri() + "#mode=zarr,file";
    }

    private JsonNode ds(String name) {
        return manifest.get("datasets").get(name);
    }

    static String datasetOf(String row) {
        return switch (row) {
            case "zlib", "s3-zlib", "rss" -> "cube_zlib";
            case "blosc" -> "cube_blosc";
            default -> "many_chunks";
        };
    }

    private void measureOursLocal(String row, NcZarrOptions javaZlib) throws Exception {
        NcZarrOptions shared = NcZarrOptions.shared();
        if (row.equals("open") || row.equals("open-cons")) {
            String dir = manifest.get("open")
                    .get(row.equals("open") ? "plain" : "consolidated")
                    .asText();
            String url = cfg.data().resolve(dir).toUri() + "#mode=zarr,file";
            results.put(row, OURS, OursReads.timedOpens(url, cfg.iters(), 1));
            // the same opens once the JIT has compiled the open path (the other local rows are steady too)
            results.put(row, OURS_WARM, OursReads.timedOpens(url, cfg.iters(), WARM_RUNS));
        } else {
            String dataset = datasetOf(row);
            String var = ds(dataset).get("var").asText();
            int[][] section = row.equals("row") ? rowSection() : null;
            results.put(row, OURS, OursReads.timedReads(localUrl(dataset), var, section, shared, cfg.iters(), 1, null));
            if (row.equals("zlib")) {
                results.put(
                        row,
                        OURS_JAVA_ZLIB,
                        OursReads.timedReads(localUrl(dataset), var, null, javaZlib, cfg.iters(), 1, null));
            }
            if (row.equals("row")) {
                results.put(
                        row,
                        OURS_WARM,
                        OursReads.timedReads(localUrl(dataset), var, section, shared, cfg.iters(), WARM_RUNS, null));
            }
        }
    }

    private int[][] rowSection() {
        JsonNode r = manifest.get("row");
        return new int[][] {ints(r.get("origin")), ints(r.get("shape"))};
    }

    // ---------------------------------------------------------------- S3

    private void s3(NcZarrOptions javaZlib) throws Exception {
        Path aws = BenchProfile.install(KEY_ID, SECRET);
        List<String> rows = cfg.rows().stream().filter(r -> r.startsWith("s3-")).toList();
        try (LocalS3Server server = LocalS3Server.start(KEY_ID, SECRET);
                CountingProxy proxy = CountingProxy.start(server.endpoint())) {
            for (String row : rows) {
                String dir = ds(datasetOf(row)).get("path").asText();
                long t0 = System.nanoTime();
                int n = server.upload(cfg.data().resolve(dir), "bench", dir).size();
                System.err.printf(
                        Locale.ROOT, "uploaded %s: %d objects in %.1f s%n", dir, n, (System.nanoTime() - t0) / 1e9);
            }
            proxy.latency(Duration.ofMillis(cfg.latencyMs()));
            NcZarrOptions shared = NcZarrOptions.shared();
            for (String row : rows) {
                String dataset = datasetOf(row);
                String var = ds(dataset).get("var").asText();
                String url = proxy.endpoint() + "/bench/"
                        + ds(dataset).get("path").asText() + "#mode=zarr,s3&aws.profile=bench";
                results.put(row, OURS, OursReads.timedReads(url, var, null, shared, cfg.s3Iters(), 1, proxy));
                results.put(
                        row,
                        OURS_SDK,
                        OursReads.timedReads(
                                url + "&nczarr.s3.sdkGets=true", var, null, shared, cfg.s3Iters(), 1, proxy));
                if (row.equals("s3-zlib")) {
                    results.put(
                            row,
                            OURS_JAVA_ZLIB,
                            OursReads.timedReads(url, var, null, javaZlib, cfg.s3Iters(), 1, proxy));
                }
                for (String lib : cfg.libs()) {
                    anchors.python(
                            lib, List.of("--s3", proxy.endpoint() + "/bench"), List.of(row), cfg.s3Iters(), proxy);
                }
                if (cfg.cliIters() > 0) { // the same read, one process per read
                    fresh.s3(row, url, var, proxy.endpoint() + "/bench", aws);
                }
                results.load.put(row, loadAverage().split(" ")[0]);
            }
        } finally {
            BenchProfile.remove(aws);
        }
    }

    // ---------------------------------------------------------------- small helpers

    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    private static List<String> list(String s) {
        return s.isBlank() ? List.of() : List.of(s.split(","));
    }

    private static int[] ints(JsonNode n) {
        int[] r = new int[n.size()];
        for (int i = 0; i < r.length; i++) {
            r[i] = n.get(i).asInt();
        }
        return r;
    }
}
