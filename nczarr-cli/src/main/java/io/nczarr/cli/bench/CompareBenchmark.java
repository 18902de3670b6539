package io.nczarr.cli.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nczarr.cdm.NcZarrFiles;
import io.nczarr.codec.CodecRegistry;
import io.nczarr.codec.NativeCodecs;
import io.nczarr.open.NcZarrOptions;
import io.nczarr.testkit.s3.CountingProxy;
import io.nczarr.testkit.s3.LocalS3Server;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import ucar.ma2.Array;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/**
 * Issue 16's side-by-side comparison (bench/compare.sh runs it): ours next to tensorstore,
 * zarr-python 3 and zarr-python 2 on the same stores, back to back, with every result checked
 * against the sha256 the generator (bench/make_compare.py) wrote. Ours runs in this JVM (the
 * default options, and variants: pure-Java zlib, SDK GETs); the anchors run as
 * bench/compare_read.py child processes. The S3 rows use the loopback S3 server (signed requests)
 * behind {@link CountingProxy} with a latency per request, which also counts every reader's
 * requests. The CLI-like row times whole processes (start, open, one read, exit). Prints a
 * Markdown table with ratios ours ÷ theirs (speed; &gt; 1 = ours faster) and the load average.
 *
 * <pre>
 * usage: CompareBenchmark --data DIR --script compare_read.py [--py3 PY] [--py2 PY] [--latency MS]
 *        [--iters N] [--s3-iters N] [--cli-iters N] [--libs tensorstore,zarr3,zarr2]
 *        [--rows zlib,blosc,many,row,open,open-cons,s3-many,s3-zlib,cli] [--child-timeout S]
 *        CompareBenchmark --one-read URL VAR ORIGIN SHAPE   (child of the cli row: prints the sha256)
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
            List.of("zlib", "blosc", "many", "row", "open", "open-cons", "s3-many", "s3-zlib", "cli");
    private static final String KEY_ID = "AKIABENCH";
    private static final String SECRET = "bench-secret-0123456789";

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
    /** row → reader → cell */
    private final Map<String, Map<String, Cell>> cells = new LinkedHashMap<>();

    private final Map<String, String> versions = new LinkedHashMap<>();
    private final Map<String, String> load = new LinkedHashMap<>();

    private CompareBenchmark(Config cfg, JsonNode manifest) {
        this.cfg = cfg;
        this.manifest = manifest;
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 5 && args[0].equals("--one-read")) {
            oneRead(args[1], args[2], ints(args[3]), ints(args[4]));
            return;
        }
        Path data = null;
        String script = null;
        String py3 = "python3";
        String py2 = null;
        long latency = 20;
        int iters = 5;
        int s3Iters = 3;
        int cliIters = 3;
        long childTimeout = 1800;
        List<String> libs = List.of("tensorstore", "zarr3", "zarr2");
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
        boolean ok = b.print(before, loadAverage());
        System.exit(ok ? 0 : 1);
    }

    private void run() throws Exception {
        List<String> local = cfg.rows().stream()
                .filter(r -> !r.startsWith("s3-") && !r.equals("cli"))
                .toList();
        try (NcZarrOptions javaZlib = NcZarrOptions.builder()
                .codecs(CodecRegistry.standard(NativeCodecs.none()))
                .build()) {
            for (String row : local) { // row by row: every reader of a row within seconds of each other
                measureOursLocal(row, javaZlib);
                for (String lib : cfg.libs()) {
                    python(lib, List.of(), List.of(row), cfg.iters(), null);
                }
                load.put(row, loadAverage().split(" ")[0]);
            }
            if (cfg.rows().contains("s3-many") || cfg.rows().contains("s3-zlib")) {
                s3(javaZlib);
            }
        }
        if (cfg.rows().contains("cli")) {
            cli();
        }
    }

    // ---------------------------------------------------------------- ours, in this JVM

    private String localUrl(String dataset) {
        return cfg.data().resolve(ds(dataset).get("path").asText()).toUri() + "#mode=zarr,file";
    }

    private JsonNode ds(String name) {
        return manifest.get("datasets").get(name);
    }

    private static String datasetOf(String row) {
        return switch (row) {
            case "zlib", "s3-zlib" -> "cube_zlib";
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
            put(row, OURS, oursOpen(url, cfg.iters(), 1));
            // the same opens once the JIT has compiled the open path (the other local rows are steady too)
            put(row, OURS_WARM, oursOpen(url, cfg.iters(), WARM_RUNS));
        } else {
            String dataset = datasetOf(row);
            String var = ds(dataset).get("var").asText();
            int[][] section = row.equals("row") ? rowSection() : null;
            put(row, OURS, oursRead(localUrl(dataset), var, section, shared, cfg.iters(), 1, null));
            if (row.equals("zlib")) {
                put(row, OURS_JAVA_ZLIB, oursRead(localUrl(dataset), var, null, javaZlib, cfg.iters(), 1, null));
            }
            if (row.equals("row")) {
                put(row, OURS_WARM, oursRead(localUrl(dataset), var, section, shared, cfg.iters(), WARM_RUNS, null));
            }
        }
    }

    private int[][] rowSection() {
        JsonNode r = manifest.get("row");
        return new int[][] {ints(r.get("origin")), ints(r.get("shape"))};
    }

    /**
     * Open once, {@code warmups} untimed reads, then the best of {@code iters} reads; with a proxy, the
     * requests of the open and of the last timed read are counted.
     */
    private Cell oursRead(
            String url, String var, int[][] section, NcZarrOptions options, int iters, int warmups, CountingProxy proxy)
            throws Exception {
        String sha;
        double best = Double.MAX_VALUE;
        CountingProxy.Counts open = null;
        CountingProxy.Counts read = null;
        if (proxy != null) {
            proxy.reset();
        }
        try (NetcdfFile nc = NcZarrFiles.open(url, options)) {
            Variable v = variable(nc, var, url);
            if (proxy != null) {
                open = proxy.counts();
            }
            sha = sha256(read(v, section));
            for (int i = 1; i < warmups; i++) {
                read(v, section);
            }
            for (int i = 0; i < iters; i++) {
                boolean last = i == iters - 1;
                if (proxy != null && last) {
                    proxy.reset();
                }
                long t0 = System.nanoTime();
                Array a = read(v, section);
                best = Math.min(best, (System.nanoTime() - t0) / 1e9);
                if (proxy != null && last) {
                    read = proxy.counts();
                }
                if (last && !sha256(a).equals(sha)) {
                    sha = "differs-between-runs";
                }
            }
        }
        return new Cell(best, sha, open, read);
    }

    private static Array read(Variable v, int[][] section) throws Exception {
        return section == null ? v.read() : v.read(section[0], section[1]);
    }

    /** Best of {@code iters} fresh opens after {@code warmups} others; the digest of the sorted "name shape" lines. */
    private static Cell oursOpen(String url, int iters, int warmups) throws IOException {
        String sha = names(url);
        for (int i = 1; i < warmups; i++) {
            if (!names(url).equals(sha)) {
                sha = "differs-between-runs";
            }
        }
        double best = Double.MAX_VALUE;
        for (int i = 0; i < iters; i++) {
            long t0 = System.nanoTime();
            String s = names(url);
            best = Math.min(best, (System.nanoTime() - t0) / 1e9);
            if (!s.equals(sha)) {
                sha = "differs-between-runs";
            }
        }
        return new Cell(best, sha);
    }

    private static String names(String url) throws IOException {
        try (NetcdfFile nc = NcZarrFiles.open(url)) {
            TreeSet<String> lines = new TreeSet<>();
            for (Variable v : nc.getVariables()) {
                StringBuilder s = new StringBuilder(v.getShortName()).append(' ');
                int[] shape = v.getShape();
                for (int i = 0; i < shape.length; i++) {
                    s.append(i == 0 ? "" : ",").append(shape[i]);
                }
                lines.add(s.toString());
            }
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256")
                            .digest(String.join("\n", lines).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Variable variable(NetcdfFile nc, String var, String url) throws IOException {
        Variable v = nc.findVariable(var);
        if (v == null) {
            throw new IOException("no variable " + var + " in " + url);
        }
        return v;
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
                put(row, OURS, oursRead(url, var, null, shared, cfg.s3Iters(), 1, proxy));
                put(
                        row,
                        OURS_SDK,
                        oursRead(url + "&nczarr.s3.sdkGets=true", var, null, shared, cfg.s3Iters(), 1, proxy));
                if (row.equals("s3-zlib")) {
                    put(row, OURS_JAVA_ZLIB, oursRead(url, var, null, javaZlib, cfg.s3Iters(), 1, proxy));
                }
                for (String lib : cfg.libs()) {
                    python(lib, List.of("--s3", proxy.endpoint() + "/bench"), List.of(row), cfg.s3Iters(), proxy);
                }
                load.put(row, loadAverage().split(" ")[0]);
            }
        } finally {
            BenchProfile.remove(aws);
        }
    }

    // ---------------------------------------------------------------- anchors (child processes)

    private String pythonFor(String lib) {
        return lib.equals("zarr2") ? cfg.py2() : cfg.py3();
    }

    /** Runs compare_read.py for one library; answers its "@reset"/"@count" marks from the relay. */
    private void python(String lib, List<String> where, List<String> rows, int iters, CountingProxy proxy)
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
        pb.environment().put("AWS_ACCESS_KEY_ID", KEY_ID);
        pb.environment().put("AWS_SECRET_ACCESS_KEY", SECRET);
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
                    versions.put(f[1], f[2]);
                } else if (line.startsWith("RESULT ")) {
                    String wl = f[2];
                    put(
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

    // ---------------------------------------------------------------- one read per process

    private void cli() throws Exception {
        String dataset = manifest.get("row").get("dataset").asText();
        String var = ds(dataset).get("var").asText();
        int[][] s = rowSection();
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        List<String> ours = List.of(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                CompareBenchmark.class.getName(),
                "--one-read",
                localUrl(dataset),
                var,
                join(s[0]),
                join(s[1]));
        put("cli", OURS, wall(ours));
        for (String lib : cfg.libs()) {
            put(
                    "cli",
                    lib,
                    wall(List.of(
                            pythonFor(lib),
                            cfg.script(),
                            "--lib",
                            lib,
                            "--data",
                            cfg.data().toString(),
                            "--oneshot",
                            "row")));
        }
        load.put("cli", loadAverage().split(" ")[0]);
    }

    /** Best wall time of {@code cliIters} runs of the command; its last output line is the sha256. */
    private Cell wall(List<String> cmd) throws IOException, InterruptedException {
        double best = Double.MAX_VALUE;
        String sha = null;
        for (int i = 0; i < cfg.cliIters(); i++) {
            long t0 = System.nanoTime();
            Process p = new ProcessBuilder(cmd)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            String last = null;
            try (BufferedReader in =
                    new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.startsWith("VERSION ")) {
                        continue;
                    }
                    last = line.trim();
                }
            }
            if (!p.waitFor(cfg.childTimeoutSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Cell(Double.NaN, "timeout");
            }
            double dt = (System.nanoTime() - t0) / 1e9;
            best = Math.min(best, dt);
            String s = p.exitValue() == 0 && last != null ? last : "exit-" + p.exitValue();
            sha = sha == null || sha.equals(s) ? s : "differs-between-runs";
        }
        return new Cell(best, sha);
    }

    /** The child of the cli row: open, read one section, print its sha256, exit. */
    private static void oneRead(String url, String var, int[] origin, int[] shape) throws Exception {
        try (NetcdfFile nc = NcZarrFiles.open(url)) {
            System.out.println(sha256(variable(nc, var, url).read(origin, shape)));
        }
        NcZarrOptions.closeShared();
    }

    // ---------------------------------------------------------------- results

    private void put(String row, String reader, Cell c) {
        cells.computeIfAbsent(row, k -> new LinkedHashMap<>()).put(reader, c);
    }

    /** sha256 of the values as little-endian bytes of their type, C order (float and double only). */
    static String sha256(Array a) throws NoSuchAlgorithmException {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        ByteBuffer b = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
        Object storage = a.get1DJavaArray(a.getElementType());
        if (storage instanceof float[] f) {
            for (float x : f) {
                b.putInt(Float.floatToRawIntBits(x));
                if (!b.hasRemaining()) {
                    md.update(b.array(), 0, b.position());
                    b.clear();
                }
            }
        } else if (storage instanceof double[] d) {
            for (double x : d) {
                b.putLong(Double.doubleToRawLongBits(x));
                if (!b.hasRemaining()) {
                    md.update(b.array(), 0, b.position());
                    b.clear();
                }
            }
        } else {
            throw new IllegalArgumentException("sha256: float or double values only, not " + a.getElementType());
        }
        md.update(b.array(), 0, b.position());
        return HexFormat.of().formatHex(md.digest());
    }

    private String expected(String row) {
        return switch (row) {
            case "row", "cli" -> manifest.get("row").get("sha256").asText();
            case "open", "open-cons" -> manifest.get("open").get("sha256").asText();
            default -> ds(datasetOf(row)).get("sha256").asText();
        };
    }

    private String label(String row) {
        JsonNode p = manifest.get("params");
        long cube = 4L * p.get("days").asLong() * 721 * 1440;
        long chunks = p.get("rows").asLong() * 10; // chunks of 10 x 10, rows x 1000
        int arrays = p.get("arrays").asInt();
        String lat = "+" + cfg.latencyMs() + " ms/request";
        return switch (row) {
            case "zlib" -> String.format(Locale.ROOT, "local zlib cube %.1f MB, whole read (steady)", cube / 1e6);
            case "blosc" -> "local blosc-lz4 cube, whole read (steady)";
            case "many" -> String.format(Locale.ROOT, "local %,d chunks of 800 B, whole read (steady)", chunks);
            case "row" -> "one row across 100 chunks, per read after open";
            case "open" -> "open " + arrays + " arrays, no .zmetadata";
            case "open-cons" -> "open " + arrays + " arrays, with .zmetadata";
            case "s3-many" -> String.format(Locale.ROOT, "S3 loopback %s, %,d chunks", lat, chunks);
            case "s3-zlib" -> "S3 loopback " + lat + ", zlib cube";
            case "cli" -> "one read per process (CLI-like: the row), wall";
            default -> row;
        };
    }

    private double bytes(String row) {
        return switch (row) {
            case "zlib", "blosc", "many", "s3-many", "s3-zlib" -> {
                double n = ds(datasetOf(row)).get("dtype").asText().endsWith("8") ? 8 : 4;
                for (JsonNode d : ds(datasetOf(row)).get("shape")) {
                    n *= d.asDouble();
                }
                yield n;
            }
            default -> Double.NaN;
        };
    }

    private String value(String row, Cell c) {
        if (c == null) {
            return "";
        }
        double b = bytes(row);
        String v = Double.isNaN(b) || row.startsWith("s3-")
                ? seconds(c.seconds())
                : String.format(Locale.ROOT, "%,.0f MB/s", b / c.seconds() / 1e6);
        return c.sha256().equals(expected(row)) ? v : v + " **WRONG**";
    }

    private static String seconds(double s) {
        if (Double.isNaN(s)) {
            return "–";
        }
        return s * 1e3 < 999.5
                ? String.format(Locale.ROOT, "%.3g ms", s * 1e3)
                : String.format(Locale.ROOT, "%.2f s", s);
    }

    private static String ratio(Cell ours, Cell theirs) {
        if (ours == null || theirs == null) {
            return "";
        }
        return String.format(Locale.ROOT, "%.2f", theirs.seconds() / ours.seconds());
    }

    private static String req(CountingProxy.Counts c) {
        String s = String.valueOf(c.total());
        if (c.list() + c.head() + c.other() > 0) {
            s += " (" + c.get() + " GET, " + c.list() + " LIST, " + c.head() + " HEAD"
                    + (c.other() > 0 ? ", " + c.other() + " other" : "") + ")";
        }
        return s;
    }

    private String name(String reader) {
        return switch (reader) {
            case OURS -> "ours";
            case OURS_JAVA_ZLIB -> "ours, Java zlib";
            case OURS_SDK -> "ours, SDK GETs";
            case OURS_WARM -> "ours, after " + WARM_RUNS + " runs";
            case "tensorstore" -> "tensorstore " + versions.getOrDefault("tensorstore", "");
            case "zarr3" -> "zarr-python " + versions.getOrDefault("zarr3", "3");
            case "zarr2" -> "zarr-python " + versions.getOrDefault("zarr2", "2");
            default -> reader;
        };
    }

    /** Prints the table; true when every reader's values matched the generator's sha256. */
    private boolean print(String loadBefore, String loadAfter) {
        List<String> readers = new ArrayList<>(List.of(OURS, OURS_JAVA_ZLIB, OURS_SDK, OURS_WARM));
        readers.addAll(cfg.libs());
        StringBuilder h = new StringBuilder("| workload");
        StringBuilder sep = new StringBuilder("|---");
        for (String r : readers) {
            h.append(" | ").append(name(r));
            sep.append("|---:");
        }
        for (String l : cfg.libs()) {
            h.append(" | ours ÷ ").append(name(l));
            sep.append("|---:");
        }
        h.append(" | requests: open / read | values (sha256) | load (end of row) |");
        sep.append("|---|---|---:|");
        System.out.printf(
                Locale.ROOT,
                "%nIssue 16 comparison: best of %d (local) / %d (S3) / %d (processes); S3 = loopback S3 server"
                        + " (signed requests) behind a relay adding %d ms per request; ratio = our speed ÷"
                        + " theirs (> 1: ours faster), for the variants in brackets. Load average %s before, %s after"
                        + " (%d cores).%n%n",
                cfg.iters(),
                cfg.s3Iters(),
                cfg.cliIters(),
                cfg.latencyMs(),
                loadBefore,
                loadAfter,
                Runtime.getRuntime().availableProcessors());
        System.out.println(h);
        System.out.println(sep);
        boolean allOk = true;
        for (String row : cfg.rows()) {
            Map<String, Cell> m = cells.getOrDefault(row, Map.of());
            Cell ours = m.get(OURS);
            Cell ts = m.get("tensorstore");
            StringBuilder line = new StringBuilder("| ").append(label(row));
            for (String r : readers) {
                String v = value(row, m.get(r));
                if (r.equals(OURS_WARM) && row.startsWith("open") && m.get(r) != null && m.get("zarr2") != null) {
                    v += " [÷ zarr 2: " + ratio(m.get(r), m.get("zarr2")) + "]";
                } else if (!r.equals(OURS) && r.startsWith("ours") && m.get(r) != null && ts != null) {
                    v += " [" + ratio(m.get(r), ts) + "]";
                }
                line.append(" | ").append(v);
            }
            for (String l : cfg.libs()) {
                line.append(" | ").append(ratio(ours, m.get(l)));
            }
            List<String> req = new ArrayList<>();
            for (String r : readers) {
                Cell c = m.get(r);
                if (c != null && c.read() != null) {
                    req.add(name(r).split(" ")[0].replace(",", "") + (r.equals(OURS_SDK) ? " SDK" : "")
                            + (r.equals(OURS_JAVA_ZLIB) ? " Java zlib" : "") + " " + req(c.open()) + " / "
                            + req(c.read()));
                }
            }
            line.append(" | ").append(String.join("; ", req));
            String want = expected(row);
            List<String> bad = new ArrayList<>();
            for (var e : m.entrySet()) {
                if (!e.getValue().sha256().equals(want)) {
                    bad.add(name(e.getKey()));
                }
            }
            if (m.isEmpty()) {
                line.append(" | not measured");
                allOk = false;
            } else if (bad.isEmpty()) {
                line.append(" | equal, ").append(m.size()).append(" readers");
            } else {
                line.append(" | **differ: ").append(String.join(", ", bad)).append("**");
                allOk = false;
            }
            line.append(" | ").append(load.getOrDefault(row, "")).append(" |");
            System.out.println(line);
        }
        System.out.println();
        System.out.println(allOk ? "values: every reader matched the generator's sha256" : "values: MISMATCH (above)");
        return allOk;
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

    private static int[] ints(String s) {
        return Arrays.stream(s.split(",")).mapToInt(Integer::parseInt).toArray();
    }

    private static int[] ints(JsonNode n) {
        int[] r = new int[n.size()];
        for (int i = 0; i < r.length; i++) {
            r[i] = n.get(i).asInt();
        }
        return r;
    }

    private static String join(int[] a) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < a.length; i++) {
            s.append(i == 0 ? "" : ",").append(a[i]);
        }
        return s.toString();
    }
}
