package io.nczarr.cli.bench;

import io.nczarr.cli.bench.FreshProcesses.Fresh;
import io.nczarr.cli.bench.V3Benchmark.Cell;
import io.nczarr.cli.bench.V3Benchmark.Section;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The v3 benchmark's S3 rows with one process per read ({@link FreshProcesses}): ours a fresh JVM with the
 * launcher's defaults, tensorstore and zarrs one Python process each (bench/v3_read.py --oneshot); the table puts
 * them next to the warm ratio.
 */
final class V3Fresh {
    static final List<String> LIBS = List.of("tensorstore", "zarrs");
    private static final long TIMEOUT_SECONDS = 600;

    /** lib → workload → fresh cell. */
    private final Map<String, Map<String, Fresh>> cells = new LinkedHashMap<>();

    private final int iters;

    V3Fresh(int iters) {
        this.iters = iters;
    }

    /** Measures every section on S3 (anonymous endpoint {@code s3}, the array at {@code s3/field}). */
    void measure(
            String url,
            String var,
            List<Section> sections,
            String python,
            String script,
            Path manifest,
            String s3,
            List<String> libs)
            throws IOException, InterruptedException {
        if (iters <= 0) {
            return;
        }
        for (Section s : sections) {
            put(
                    "ours",
                    s.name(),
                    FreshProcesses.best(
                            FreshProcesses.ours(List.of(), url, var, join(s.origin()), join(s.shape())),
                            Map.of(),
                            iters,
                            TIMEOUT_SECONDS));
            for (String lib : libs) {
                if (LIBS.contains(lib)) {
                    put(
                            lib,
                            s.name(),
                            FreshProcesses.best(
                                    List.of(
                                            python,
                                            script,
                                            "--lib",
                                            lib,
                                            "--manifest",
                                            manifest.toString(),
                                            "--s3",
                                            s3 + "/field",
                                            "--oneshot",
                                            s.name()),
                                    Map.of(),
                                    iters,
                                    TIMEOUT_SECONDS));
                }
            }
        }
    }

    private void put(String lib, String workload, Fresh f) {
        cells.computeIfAbsent(lib, k -> new LinkedHashMap<>()).put(workload, f);
        System.err.printf(
                Locale.ROOT,
                "fresh s3 %s %s: to data %.4f s (start %.4f, import %.4f, open %.4f, read %.4f), wall %.4f s%n",
                lib,
                workload,
                f.toData(),
                f.start(),
                f.imports(),
                f.open(),
                f.read(),
                f.wall());
    }

    /** Prints the table; true when every process's values matched the manifest. */
    boolean print(List<Section> sections, Map<String, Map<String, Cell>> warm, long latencyMs) {
        if (cells.isEmpty()) {
            return true;
        }
        List<String> libs =
                cells.keySet().stream().filter(l -> !l.equals("ours")).toList();
        System.out.printf(
                Locale.ROOT,
                "%nS3 +%d ms, one process per read (best of %d by time to data): ours = a fresh JVM with the launcher's"
                        + " defaults, tensorstore / zarrs = one Python process each. Time to data = spawn to the"
                        + " values in memory = start-up + imports + open + read (s); ratio = their time ÷ ours; warm ="
                        + " the read-only ratio of the table above.%n%n",
                latencyMs,
                iters);
        StringBuilder h = new StringBuilder("| workload | ours");
        StringBuilder sep = new StringBuilder("|---|---:");
        for (String l : libs) {
            h.append(" | ").append(l);
            sep.append("|---:");
        }
        for (String l : libs) {
            h.append(" | ours ÷ ").append(l).append(", fresh");
            sep.append("|---:");
        }
        h.append(" | ours ÷ fastest, fresh | ours ÷ fastest, warm | values |");
        sep.append("|---:|---:|---|");
        System.out.println(h);
        System.out.println(sep);
        boolean ok = true;
        for (Section s : sections) {
            Fresh ours = cells.get("ours").get(s.name());
            StringBuilder r =
                    new StringBuilder("| ").append(s.name()).append(" | ").append(FreshTable.phases(ours));
            Fresh best = null;
            List<String> bad = new ArrayList<>();
            if (!s.sha256().equals(ours.sha256())) {
                bad.add("ours");
            }
            for (String l : libs) {
                Fresh f = cells.get(l).get(s.name());
                r.append(" | ").append(FreshTable.phases(f));
                if (f != null && !Double.isNaN(f.toData()) && (best == null || f.toData() < best.toData())) {
                    best = f;
                }
                if (f != null && !s.sha256().equals(f.sha256())) {
                    bad.add(l);
                }
            }
            for (String l : libs) {
                Fresh f = cells.get(l).get(s.name());
                r.append(" | ")
                        .append(f == null ? "–" : String.format(Locale.ROOT, "%.2f", f.toData() / ours.toData()));
            }
            r.append(" | ")
                    .append(best == null ? "–" : String.format(Locale.ROOT, "%.2f", best.toData() / ours.toData()));
            Cell wo = warm.getOrDefault("ours", Map.of()).get(s.name());
            Cell wb = null;
            for (String l : LIBS) {
                Cell c = warm.getOrDefault(l, Map.of()).get(s.name());
                if (c != null && (wb == null || c.readSeconds() < wb.readSeconds())) {
                    wb = c;
                }
            }
            r.append(" | ")
                    .append(
                            wo == null || wb == null
                                    ? "–"
                                    : String.format(Locale.ROOT, "%.2f", wb.readSeconds() / wo.readSeconds()));
            r.append(" | ").append(bad.isEmpty() ? "equal" : "**differ: " + String.join(", ", bad) + "**");
            System.out.println(r.append(" |"));
            ok &= bad.isEmpty();
        }
        return ok;
    }

    private static String join(int[] a) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < a.length; i++) {
            s.append(i == 0 ? "" : ",").append(a[i]);
        }
        return s.toString();
    }
}
