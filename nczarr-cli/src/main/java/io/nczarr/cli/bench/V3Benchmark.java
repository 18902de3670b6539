package io.nczarr.cli.bench;

import io.nczarr.cdm.NcZarrFiles;
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
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import ucar.ma2.Array;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/**
 * Zarr v3 sharding benchmark (bench/v3-bench.sh runs it): reads one sharded zstd float32 array
 * (bench/make_v3_sharded.py) whole, one inner chunk and one row, with ours
 * ({@code NcZarrFiles.open} + {@code Variable.read}), tensorstore and zarr-python 3
 * (bench/v3_read.py, run as child processes), locally and from the loopback S3 server
 * (anonymous endpoint) behind {@link CountingProxy} with a latency per request. Times are the
 * best read of N after a warm-up read, each run a fresh open; request counts come from one extra
 * run per workload, bracketed on the relay. Every result is checked against the manifest's sha256
 * of the raw little-endian C-order bytes. The S3 rows are measured again with one process per read
 * ({@link V3Fresh}; --fresh-iters 0 leaves them out). Prints Markdown tables.
 *
 * <pre>
 * usage: V3Benchmark --data DIR --python PY --script v3_read.py [--latency MS] [--iters N]
 *        [--s3-iters N] [--fresh-iters N] [--libs tensorstore,zarrs,zarr] [--var NAME]
 *        --section NAME:o0,o1:s0,s1:SHA256 ...
 * </pre>
 */
public final class V3Benchmark {
    private V3Benchmark() {}

    record Section(String name, int[] origin, int[] shape, String sha256) {}

    /** One measured cell: best read time, best open time, request counts (null = not counted). */
    record Cell(
            double readSeconds, double openSeconds, CountingProxy.Counts open, CountingProxy.Counts read, boolean ok) {}

    public static void main(String[] args) throws Exception {
        Path data = null;
        String python = "python3";
        String script = null;
        long latencyMs = 20;
        int iters = 5;
        int s3Iters = 3;
        int freshIters = 3;
        List<String> libs = List.of("tensorstore", "zarrs", "zarr");
        String var = "field";
        List<Section> sections = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--data" -> data = Paths.get(args[++i]);
                case "--python" -> python = args[++i];
                case "--script" -> script = args[++i];
                case "--latency" -> latencyMs = Long.parseLong(args[++i]);
                case "--iters" -> iters = Integer.parseInt(args[++i]);
                case "--s3-iters" -> s3Iters = Integer.parseInt(args[++i]);
                case "--fresh-iters" -> freshIters = Integer.parseInt(args[++i]);
                case "--libs" -> libs = args[++i].isEmpty() ? List.of() : List.of(args[i].split(","));
                case "--var" -> var = args[++i];
                case "--section" -> {
                    String[] p = args[++i].split(":");
                    sections.add(new Section(p[0], ints(p[1]), ints(p[2]), p[3]));
                }
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (data == null || script == null || sections.isEmpty()) {
            System.err.println(
                    "usage: V3Benchmark --data DIR --python PY --script v3_read.py --section ... (see bench/v3-bench.sh)");
            System.exit(2);
        }
        String name = "v3sharded.zarr";
        Path dir = data.resolve(name).toAbsolutePath();
        // results.get(where).get(lib).get(workload)
        Map<String, Map<String, Map<String, Cell>>> results = new LinkedHashMap<>();

        double fetchFloor = Double.NaN;
        V3Fresh fresh = new V3Fresh(freshIters);
        // local
        String localUrl = dir.toUri() + "#mode=zarr,file";
        Map<String, Cell> oursLocal = new LinkedHashMap<>();
        for (Section s : sections) {
            oursLocal.put(s.name(), ours(localUrl, var, s, iters, null));
            log("local ours", s, oursLocal.get(s.name()));
        }
        results.computeIfAbsent("local", k -> new LinkedHashMap<>()).put("ours", oursLocal);
        for (String lib : libs) {
            Map<String, Cell> r = python(
                    python,
                    script,
                    lib,
                    data,
                    List.of("--local", dir.resolve("field").toString()),
                    iters,
                    null);
            results.get("local").put(lib, r);
            r.forEach((w, c) -> System.err.printf(
                    Locale.ROOT,
                    "local %s %s: read %.4f s %s%n",
                    lib,
                    w,
                    c.readSeconds(),
                    c.ok() ? "" : "WRONG VALUES"));
        }

        // loopback S3, anonymous endpoint, relay with latency
        try (LocalS3Server server = LocalS3Server.start("AKIABENCH", "bench-secret-0123456789");
                CountingProxy proxy = CountingProxy.start(server.anonymousEndpoint())) {
            int n = server.upload(dir, "bench", name).size();
            System.err.printf(Locale.ROOT, "uploaded %s: %d objects%n", name, n);
            proxy.latency(Duration.ofMillis(latencyMs));
            String s3 = proxy.endpoint() + "/bench/" + name;
            // the array by its path, as the other readers open it (a group open adds a LIST and a round trip)
            String url = s3 + "/" + var + "#mode=zarr,s3&aws.profile=none";
            Map<String, Cell> oursS3 = new LinkedHashMap<>();
            for (Section s : sections) {
                oursS3.put(s.name(), ours(url, var, s, s3Iters, proxy));
                log("s3 ours", s, oursS3.get(s.name()));
            }
            results.computeIfAbsent("s3", k -> new LinkedHashMap<>()).put("ours", oursS3);
            fetchFloor = fetchOnly(s3, dir.resolve("field"), s3Iters);
            System.err.printf(
                    Locale.ROOT, "s3 fetch floor (all shards, parallel GETs, no decode): %.4f s%n", fetchFloor);
            for (String lib : libs) {
                Map<String, Cell> r = python(python, script, lib, data, List.of("--s3", s3 + "/field"), s3Iters, proxy);
                results.get("s3").put(lib, r);
                r.forEach((w, c) -> System.err.printf(
                        Locale.ROOT,
                        "s3 %s %s: read %.4f s, %s %s%n",
                        lib,
                        w,
                        c.readSeconds(),
                        c.read(),
                        c.ok() ? "" : "WRONG VALUES"));
            }
            fresh.measure(url, var, sections, python, script, data.resolve("v3sharded.expected.json"), s3, libs);
        }
        V3Table.print(results, sections, libs, latencyMs, iters, s3Iters);
        System.out.printf(
                Locale.ROOT,
                "%nFetch floor on S3 +%d ms: every shard object by one plain GET, all in parallel (java.net.http,"
                        + " no decode), best of %d: %.4f s%n",
                latencyMs,
                s3Iters,
                fetchFloor);
        boolean allOk = results.values().stream()
                .flatMap(m -> m.values().stream())
                .flatMap(m -> m.values().stream())
                .allMatch(Cell::ok);
        allOk &= fresh.print(sections, results.getOrDefault("s3", Map.of()), latencyMs);
        System.exit(allOk ? 0 : 1);
    }

    /** Best time of fetching every shard object of the array with plain parallel GETs (no decoding). */
    private static double fetchOnly(String s3, Path array, int iters) throws Exception {
        List<String> keys;
        try (var w = java.nio.file.Files.walk(array.resolve("c"))) {
            keys = w.filter(java.nio.file.Files::isRegularFile)
                    .map(f -> array.relativize(f).toString().replace('\\', '/'))
                    .sorted()
                    .toList();
        }
        var pool = java.util.concurrent.Executors.newFixedThreadPool(keys.size());
        try {
            var client = java.net.http.HttpClient.newBuilder()
                    .version(java.net.http.HttpClient.Version.HTTP_1_1)
                    .executor(pool)
                    .build();
            double best = Double.MAX_VALUE;
            for (int i = 0; i <= iters; i++) {
                long t0 = System.nanoTime();
                List<java.util.concurrent.CompletableFuture<java.net.http.HttpResponse<byte[]>>> fs = new ArrayList<>();
                for (String k : keys) {
                    fs.add(client.sendAsync(
                            java.net.http.HttpRequest.newBuilder(java.net.URI.create(s3 + "/field/" + k))
                                    .build(),
                            java.net.http.HttpResponse.BodyHandlers.ofByteArray()));
                }
                for (var f : fs) {
                    if (f.get().statusCode() != 200) {
                        throw new IOException(
                                "GET " + f.get().uri() + ": " + f.get().statusCode());
                    }
                }
                if (i > 0) { // the first round is the warm-up
                    best = Math.min(best, (System.nanoTime() - t0) / 1e9);
                }
            }
            return best;
        } finally {
            pool.shutdownNow();
        }
    }

    private static int[] ints(String s) {
        return java.util.Arrays.stream(s.split(",")).mapToInt(Integer::parseInt).toArray();
    }

    private static void log(String what, Section s, Cell c) {
        System.err.printf(
                Locale.ROOT,
                "%s %s: read %.4f s, open %.4f s%s%s%n",
                what,
                s.name(),
                c.readSeconds(),
                c.openSeconds(),
                c.read() == null ? "" : ", open " + c.open() + "; read " + c.read(),
                c.ok() ? "" : " WRONG VALUES");
    }

    private static Variable variable(NetcdfFile nc, String var) throws IOException {
        if (var != null) {
            Variable v = nc.findVariable(var);
            if (v == null) {
                throw new IOException("no variable " + var);
            }
            return v;
        }
        for (Variable v : nc.getVariables()) {
            if (v.getRank() == 2) {
                return v;
            }
        }
        throw new IOException("no 2-d variable in " + nc.getLocation());
    }

    /** Warm-up read, then {@code iters} fresh open + timed read; then one counted run if proxy != null. */
    private static Cell ours(String url, String var, Section s, int iters, CountingProxy proxy) throws Exception {
        boolean ok;
        try (NetcdfFile nc = NcZarrFiles.open(url)) {
            ok = s.sha256().equals(sha256(variable(nc, var).read(s.origin(), s.shape())));
        }
        double bestRead = Double.MAX_VALUE;
        double bestOpen = Double.MAX_VALUE;
        for (int i = 0; i < iters; i++) {
            long t0 = System.nanoTime();
            try (NetcdfFile nc = NcZarrFiles.open(url)) {
                Variable v = variable(nc, var);
                long t1 = System.nanoTime();
                Array a = v.read(s.origin(), s.shape());
                long t2 = System.nanoTime();
                bestOpen = Math.min(bestOpen, (t1 - t0) / 1e9);
                bestRead = Math.min(bestRead, (t2 - t1) / 1e9);
                ok &= s.sha256().equals(sha256(a));
            }
        }
        CountingProxy.Counts open = null;
        CountingProxy.Counts read = null;
        if (proxy != null) {
            proxy.reset();
            try (NetcdfFile nc = NcZarrFiles.open(url)) {
                Variable v = variable(nc, var);
                open = proxy.counts();
                if (s.name().equals("whole")) {
                    System.err.println("s3 ours open requests: " + proxy.requests());
                }
                proxy.reset();
                ok &= s.sha256().equals(sha256(v.read(s.origin(), s.shape())));
                read = proxy.counts();
            }
        }
        return new Cell(bestRead, bestOpen, open, read, ok);
    }

    /** Runs v3_read.py for one library; answers its "@reset"/"@count" marks from the relay. */
    private static Map<String, Cell> python(
            String python, String script, String lib, Path data, List<String> where, int iters, CountingProxy proxy)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(
                python,
                script,
                "--lib",
                lib,
                "--manifest",
                data.resolve("v3sharded.expected.json").toString(),
                "--iters",
                String.valueOf(iters)));
        cmd.addAll(where);
        if (proxy != null) {
            cmd.add("--count");
        }
        Process p = new ProcessBuilder(cmd)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        Map<String, Cell> out = new LinkedHashMap<>();
        Map<String, CountingProxy.Counts> counts = new LinkedHashMap<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                Writer w = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.startsWith("@")) {
                    String[] f = line.substring(1).split(" ");
                    if (f[0].equals("reset")) {
                        proxy.reset();
                    } else if (f[0].equals("count")) {
                        counts.put(f[1] + " " + f[2], proxy.counts());
                        proxy.reset();
                    }
                    w.write("ok\n");
                    w.flush();
                } else if (line.startsWith("RESULT ")) {
                    String[] f = line.split(" ");
                    String wl = f[2];
                    out.put(
                            wl,
                            new Cell(
                                    Double.parseDouble(f[3]),
                                    Double.parseDouble(f[4]),
                                    counts.get("open " + wl),
                                    counts.get("read " + wl),
                                    f[5].equals("ok")));
                } else {
                    System.err.println(lib + ": " + line);
                }
            }
        }
        int rc = p.waitFor();
        if (rc != 0) {
            System.err.println(lib + " exited with " + rc);
        }
        return out;
    }

    /** sha256 of the values as little-endian float32, C order. */
    static String sha256(Array a) throws NoSuchAlgorithmException {
        float[] f = (float[]) a.get1DJavaArray(float.class);
        ByteBuffer b = ByteBuffer.allocate(f.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        b.asFloatBuffer().put(f);
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b.array()));
    }
}
