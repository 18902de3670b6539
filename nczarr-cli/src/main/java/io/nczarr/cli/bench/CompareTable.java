package io.nczarr.cli.bench;

import static io.nczarr.cli.bench.CompareBenchmark.OURS;
import static io.nczarr.cli.bench.CompareBenchmark.OURS_JAVA_ZLIB;
import static io.nczarr.cli.bench.CompareBenchmark.OURS_SDK;
import static io.nczarr.cli.bench.CompareBenchmark.OURS_WARM;
import static io.nczarr.cli.bench.CompareBenchmark.WARM_RUNS;

import com.fasterxml.jackson.databind.JsonNode;
import io.nczarr.cli.bench.CompareBenchmark.Cell;
import io.nczarr.cli.bench.CompareBenchmark.Config;
import io.nczarr.testkit.s3.CountingProxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The comparison's Markdown table: speeds, ratios ours ÷ each anchor and ÷ the faster of tensorstore and zarrs. */
final class CompareTable {
    private final Config cfg;
    private final JsonNode manifest;
    private final CompareResults results;

    CompareTable(Config cfg, JsonNode manifest, CompareResults results) {
        this.cfg = cfg;
        this.manifest = manifest;
        this.results = results;
    }

    private JsonNode ds(String name) {
        return manifest.get("datasets").get(name);
    }

    String expected(String row) {
        return switch (row) {
            case "rss" -> ds("cube_zlib").get("sha256").asText();
            case "row", "cli" -> manifest.get("row").get("sha256").asText();
            case "open", "open-cons" -> manifest.get("open").get("sha256").asText();
            default -> ds(CompareBenchmark.datasetOf(row)).get("sha256").asText();
        };
    }

    String label(String row) {
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
            case "rss" -> "local zlib cube, one whole read per process";
            default -> row;
        };
    }

    double bytes(String row) {
        return switch (row) {
            case "zlib", "blosc", "many", "s3-many", "s3-zlib", "rss" -> {
                double n = ds(CompareBenchmark.datasetOf(row))
                                .get("dtype")
                                .asText()
                                .endsWith("8")
                        ? 8
                        : 4;
                for (JsonNode d : ds(CompareBenchmark.datasetOf(row)).get("shape")) {
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

    String name(String reader) {
        return switch (reader) {
            case OURS -> "ours";
            case OURS_JAVA_ZLIB -> "ours, Java zlib";
            case OURS_SDK -> "ours, SDK GETs";
            case OURS_WARM -> "ours, after " + WARM_RUNS + " runs";
            case "tensorstore" -> "tensorstore " + results.versions.getOrDefault("tensorstore", "");
            case "zarrs" -> "zarrs " + results.versions.getOrDefault("zarrs", "");
            case "zarr3" -> "zarr-python " + results.versions.getOrDefault("zarr3", "3");
            case "zarr2" -> "zarr-python " + results.versions.getOrDefault("zarr2", "2");
            default -> reader;
        };
    }

    /** Prints the table; true when every reader's values matched the generator's sha256. */
    boolean print(String loadBefore, String loadAfter) {
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
        h.append(" | ours ÷ fastest anchor");
        sep.append("|---:");
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
            if (CompareBenchmark.FRESH_ONLY_ROWS.contains(row)) {
                continue;
            }
            Map<String, Cell> m = results.cells.getOrDefault(row, Map.of());
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
            line.append(" | ").append(ratio(ours, fastest(m)));
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
            line.append(" | ").append(results.load.getOrDefault(row, "")).append(" |");
            System.out.println(line);
        }
        System.out.println();
        System.out.println(allOk ? "values: every reader matched the generator's sha256" : "values: MISMATCH (above)");
        return allOk;
    }

    /** The faster of tensorstore and zarrs on a row (issue 26's target: ours at least as fast as both). */
    static Cell fastest(Map<String, Cell> m) {
        Cell best = null;
        for (String lib : List.of("tensorstore", "zarrs")) {
            Cell c = m.get(lib);
            if (c != null && !Double.isNaN(c.seconds()) && (best == null || c.seconds() < best.seconds())) {
                best = c;
            }
        }
        return best;
    }
}
