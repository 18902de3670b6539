package io.nczarr.cli.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nczarr.cli.bench.CompareBenchmark.Config;
import io.nczarr.open.NcZarrOptions;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Issue 26's scaling table (bench/scaling.sh runs it): one whole read of each dataset of bench/make_scaling.py —
 * the chunk-count axis (N chunks of 800 B) and the data-size axis (the zlib cube at D days) — by ours in this JVM
 * and by the anchors (tensorstore, zarrs) as bench/compare_read.py child processes, dataset by dataset, each value
 * checked against the generator's sha256. Steady reads: one open, a warm-up read, the best of N reads.
 *
 * <pre>
 * usage: ScalingBenchmark --data DIR --script compare_read.py --py3 PY [--iters N] [--libs tensorstore,zarrs]
 *        [--child-timeout S]
 * </pre>
 */
public final class ScalingBenchmark {
    private ScalingBenchmark() {}

    public static void main(String[] args) throws Exception {
        Path data = null;
        String script = null;
        String py3 = "python3";
        int iters = 5;
        long childTimeout = 1800;
        List<String> libs = List.of("tensorstore", "zarrs");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--data" -> data = Paths.get(args[++i]);
                case "--script" -> script = args[++i];
                case "--py3" -> py3 = args[++i];
                case "--iters" -> iters = Integer.parseInt(args[++i]);
                case "--libs" -> libs = args[++i].isBlank() ? List.of() : List.of(args[i].split(","));
                case "--child-timeout" -> childTimeout = Long.parseLong(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (data == null || script == null) {
            System.err.println(
                    "usage: ScalingBenchmark --data DIR --script compare_read.py ... (see bench/scaling.sh)");
            System.exit(2);
        }
        JsonNode manifest = new ObjectMapper()
                .readTree(data.resolve("compare.expected.json").toFile());
        List<String> all = new ArrayList<>();
        manifest.get("axes").forEach(axis -> axis.forEach(n -> all.add(n.asText())));
        Config cfg = new Config(
                data.toAbsolutePath(), script, py3, null, 0, iters, 0, 0, libs, List.copyOf(all), childTimeout);
        CompareResults results = new CompareResults();
        AnchorProcesses anchors = new AnchorProcesses(cfg, results);
        String before = CompareBenchmark.loadAverage();
        NcZarrOptions shared = NcZarrOptions.shared();
        for (String name : all) { // dataset by dataset: every reader of a row within seconds of each other
            JsonNode d = manifest.get("datasets").get(name);
            String url = cfg.data().resolve(d.get("path").asText()).toUri() + "#mode=zarr,file";
            results.put(
                    name,
                    CompareBenchmark.OURS,
                    OursReads.timedReads(url, d.get("var").asText(), null, shared, iters, 1, null));
            System.err.printf(
                    Locale.ROOT,
                    "%s ours: %.4f s%n",
                    name,
                    results.cells.get(name).get(CompareBenchmark.OURS).seconds());
            for (String lib : libs) {
                anchors.python(lib, List.of(), List.of(name), iters, null);
            }
            results.load.put(name, CompareBenchmark.loadAverage().split(" ")[0]);
        }
        boolean ok = new ScalingTable(manifest, results, libs).print(iters, before, CompareBenchmark.loadAverage());
        NcZarrOptions.closeShared();
        System.exit(ok ? 0 : 1);
    }
}
