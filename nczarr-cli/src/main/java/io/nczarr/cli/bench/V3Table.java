package io.nczarr.cli.bench;

import io.nczarr.cli.bench.V3Benchmark.Cell;
import io.nczarr.cli.bench.V3Benchmark.Section;
import io.nczarr.testkit.s3.CountingProxy;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The Markdown table of the v3 sharding benchmark: times, ratios and request counts per reader. */
final class V3Table {
    private V3Table() {}

    private static String req(CountingProxy.Counts c) {
        if (c == null) {
            return "–";
        }
        String s = String.valueOf(c.total());
        if (c.list() + c.head() + c.other() > 0) {
            s += " (" + c.get() + " GET, " + c.list() + " LIST, " + c.head() + " HEAD"
                    + (c.other() > 0 ? ", " + c.other() + " other" : "") + ")";
        }
        return s;
    }

    private static String mb(double bytes, double seconds) {
        return String.format(Locale.ROOT, "%,.0f", bytes / seconds / 1e6);
    }

    static void print(
            Map<String, Map<String, Map<String, Cell>>> results,
            List<Section> sections,
            List<String> libs,
            long latencyMs,
            int iters,
            int s3Iters) {
        Map<String, String> label = Map.of("tensorstore", "tensorstore", "zarrs", "zarrs", "zarr", "zarr-python");
        StringBuilder h = new StringBuilder("| where | workload | ours: s");
        StringBuilder sep = new StringBuilder("|---|---|---:");
        for (String l : libs) {
            h.append(" | ").append(label.get(l)).append(": s");
            sep.append("|---:");
        }
        for (String l : libs) {
            h.append(" | ours ÷ ").append(label.get(l));
            sep.append("|---:");
        }
        h.append(" | requests ours: open (best s) / read (MiB)");
        sep.append("|---");
        for (String l : libs) {
            h.append(" | requests ").append(label.get(l)).append(": open (best s) / read (MiB)");
            sep.append("|---");
        }
        System.out.printf(
                Locale.ROOT,
                "Best read of %d (local) / %d (S3) after a warm-up, fresh open each run; S3 = loopback S3 server,"
                        + " anonymous, %d ms added per request, every reader opening the array by its path (…/field);"
                        + " whole-read MB/s in parentheses (10^6 bytes decoded);"
                        + " ratio = their time ÷ ours (> 1: ours faster).%n%n",
                iters,
                s3Iters,
                latencyMs);
        System.out.println(h.append(" |"));
        System.out.println(sep.append("|"));
        for (var e : results.entrySet()) {
            String where = e.getKey().equals("s3") ? "S3 +" + latencyMs + " ms" : "local";
            Map<String, Cell> ours = e.getValue().get("ours");
            for (Section s : sections) {
                Cell o = ours.get(s.name());
                double bytes = 4.0 * s.shape()[0] * s.shape()[1];
                boolean whole = s.name().equals("whole");
                StringBuilder r = new StringBuilder();
                r.append("| ")
                        .append(where)
                        .append(" | ")
                        .append(s.name())
                        .append(" [")
                        .append(s.origin()[0])
                        .append(':')
                        .append(s.origin()[0] + s.shape()[0])
                        .append(", ")
                        .append(s.origin()[1])
                        .append(':')
                        .append(s.origin()[1] + s.shape()[1])
                        .append(']');
                r.append(" | ").append(time(o)).append(whole ? " (" + mb(bytes, o.readSeconds()) + " MB/s)" : "");
                for (String l : libs) {
                    Cell c = e.getValue().getOrDefault(l, Map.of()).get(s.name());
                    r.append(" | ")
                            .append(
                                    c == null
                                            ? "–"
                                            : time(c) + (whole ? " (" + mb(bytes, c.readSeconds()) + " MB/s)" : ""));
                }
                for (String l : libs) {
                    Cell c = e.getValue().getOrDefault(l, Map.of()).get(s.name());
                    r.append(" | ")
                            .append(
                                    c == null
                                            ? "–"
                                            : String.format(Locale.ROOT, "%.2f", c.readSeconds() / o.readSeconds()));
                }
                r.append(" | ").append(counts(o));
                for (String l : libs) {
                    Cell c = e.getValue().getOrDefault(l, Map.of()).get(s.name());
                    r.append(" | ").append(c == null ? "–" : counts(c));
                }
                System.out.println(r.append(" |"));
            }
        }
    }

    private static String time(Cell c) {
        return String.format(Locale.ROOT, c.readSeconds() < 0.1 ? "%.4f" : "%.3f", c.readSeconds())
                + (c.ok() ? "" : " WRONG");
    }

    private static String counts(Cell c) {
        if (c.read() == null) {
            return "–";
        }
        return req(c.open()) + String.format(Locale.ROOT, " in %.3f s", c.openSeconds()) + " / " + req(c.read())
                + String.format(Locale.ROOT, " (%.2f)", c.read().responseBytes() / 1048576.0);
    }
}
