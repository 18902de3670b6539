package io.nczarr.cli.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.nczarr.cli.bench.CompareBenchmark.Cell;
import io.nczarr.cli.bench.CompareBenchmark.Config;
import io.nczarr.cli.bench.FreshProcesses.Fresh;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The comparison's one-process-per-read tables: time to data of the S3 rows and the CLI-like row split into
 * start-up, imports, open and read, with ratios ours ÷ each anchor next to the warm ratio; and the peak RSS of one
 * whole read of the zlib cube as "result + N MiB".
 */
final class FreshTable {
    private final Config cfg;
    private final CompareResults results;
    private final CompareTable names;

    FreshTable(Config cfg, JsonNode manifest, CompareResults results) {
        this.cfg = cfg;
        this.results = results;
        this.names = new CompareTable(cfg, manifest, results);
    }

    private List<String> readers(String row) {
        List<String> r = new ArrayList<>(List.of(CompareBenchmark.OURS));
        r.addAll(results.fresh.getOrDefault(row, Map.of()).keySet().stream()
                .filter(k -> !k.equals(CompareBenchmark.OURS))
                .toList());
        return r;
    }

    static String phases(Fresh f) {
        if (f == null) {
            return "";
        }
        if (Double.isNaN(f.toData())) {
            return "– (" + f.sha256() + ")";
        }
        return String.format(
                Locale.ROOT,
                "%.3f s = %.3f + %.3f + %.3f + %.3f; CPU %.2f s",
                f.toData(),
                f.start(),
                f.imports(),
                f.open(),
                f.read(),
                f.cpu());
    }

    private static String ratio(Fresh ours, Fresh theirs) {
        return ours == null || theirs == null
                ? ""
                : String.format(Locale.ROOT, "%.2f", theirs.toData() / ours.toData());
    }

    private static Fresh fastest(Map<String, Fresh> m) {
        Fresh best = null;
        for (String lib : CompareFresh.S3_LIBS) {
            Fresh f = m.get(lib);
            if (f != null && !Double.isNaN(f.toData()) && (best == null || f.toData() < best.toData())) {
                best = f;
            }
        }
        return best;
    }

    /** Prints both tables (each only when measured); true when every process's values matched. */
    boolean print() {
        boolean ok = true;
        List<String> rows = cfg.rows().stream()
                .filter(r -> !r.equals("rss") && results.fresh.containsKey(r))
                .toList();
        if (!rows.isEmpty()) {
            List<String> libs =
                    readers(rows.get(0)).subList(1, readers(rows.get(0)).size());
            System.out.printf(
                    Locale.ROOT,
                    "%nOne process per read (best of %d by time to data): ours = a fresh JVM with the launcher's"
                            + " defaults (%s), the anchors = one Python process each. Time to data = process spawn to"
                            + " the values in memory (digest and exit excluded) = start-up (JVM start to main;"
                            + " interpreter start to the script's first line) + imports + open + read; CPU = the process's"
                            + " user + system time to data, every thread (compare this on a loaded machine); ratio = their"
                            + " time to data ÷ ours (> 1: ours faster); \"warm\" = the same row's ratio in the table"
                            + " above (open once, reads in one process).%n%n",
                    cfg.cliIters(),
                    String.join(" ", FreshProcesses.launcherDefaults())
                            .replace(" -Xlog:disable -Xlog:all=warning,cds*=off:stderr", ""));
            StringBuilder h = new StringBuilder("| workload | ours: to data = start + import + open + read");
            StringBuilder sep = new StringBuilder("|---|---:");
            for (String l : libs) {
                h.append(" | ").append(names.name(l)).append(": to data = start + import + open + read");
                sep.append("|---:");
            }
            for (String l : libs) {
                h.append(" | ours ÷ ").append(names.name(l));
                sep.append("|---:");
            }
            h.append(" | ours ÷ fastest anchor, fresh | ours ÷ fastest anchor, warm | wall to exit: ours / fastest"
                    + " anchor | values | load |");
            sep.append("|---:|---:|---|---|---:|");
            System.out.println(h);
            System.out.println(sep);
            for (String row : rows) {
                Map<String, Fresh> m = results.fresh.get(row);
                Fresh ours = m.get(CompareBenchmark.OURS);
                StringBuilder line =
                        new StringBuilder("| ").append(names.label(row).replace(", wall", ""));
                line.append(" | ").append(phases(ours));
                for (String l : libs) {
                    line.append(" | ").append(phases(m.get(l)));
                }
                for (String l : libs) {
                    line.append(" | ").append(ratio(ours, m.get(l)));
                }
                Fresh best = fastest(m);
                line.append(" | ").append(ratio(ours, best));
                Map<String, Cell> warm = results.cells.getOrDefault(row, Map.of());
                Cell wo = warm.get(CompareBenchmark.OURS);
                Cell wt = CompareTable.fastest(warm);
                line.append(" | ")
                        .append(
                                row.equals("cli") || wo == null || wt == null
                                        ? "–"
                                        : String.format(Locale.ROOT, "%.2f", wt.seconds() / wo.seconds()));
                line.append(" | ")
                        .append(String.format(
                                Locale.ROOT,
                                "%.3f / %s s",
                                ours == null ? Double.NaN : ours.wall(),
                                best == null ? "–" : String.format(Locale.ROOT, "%.3f", best.wall())));
                ok &= values(line, row, m);
                line.append(" | ").append(results.load.getOrDefault(row, "")).append(" |");
                System.out.println(line);
            }
        }
        if (results.fresh.containsKey("rss")) {
            ok &= printRss();
        }
        return ok;
    }

    private boolean values(StringBuilder line, String row, Map<String, Fresh> m) {
        String want = names.expected(row);
        List<String> bad = new ArrayList<>();
        m.forEach((reader, f) -> {
            if (!f.sha256().equals(want)) {
                bad.add(names.name(reader));
            }
        });
        line.append(" | ")
                .append(
                        bad.isEmpty()
                                ? "equal, " + m.size() + " readers"
                                : "**differ: " + String.join(", ", bad) + "**");
        return bad.isEmpty();
    }

    private boolean printRss() {
        Map<String, Fresh> m = results.fresh.get("rss");
        double result = names.bytes("rss") / 1048576.0;
        System.out.printf(
                Locale.ROOT,
                "%nPeak RSS of one whole read of the local zlib cube per process (%.1f MiB of values; VmHWM of our"
                        + " JVM with the launcher's defaults, of the Python processes; the largest of %d"
                        + " runs). Load %s.%n%n",
                result,
                cfg.cliIters(),
                results.load.getOrDefault("rss", "?"));
        System.out.println("| reader | peak RSS | = result + | to data = start + import + open + read | values |");
        System.out.println("|---|---:|---:|---:|---|");
        boolean ok = true;
        String want = names.expected("rss");
        for (String r : readers("rss")) {
            Fresh f = m.get(r);
            if (f == null) {
                continue;
            }
            double mib = f.rssKib() / 1024.0;
            boolean good = f.sha256().equals(want);
            ok &= good;
            System.out.printf(
                    Locale.ROOT,
                    "| %s | %.1f MiB | %.1f MiB | %s | %s |%n",
                    names.name(r),
                    mib,
                    mib - result,
                    phases(f),
                    good ? "equal" : "**differ**");
        }
        return ok;
    }
}
