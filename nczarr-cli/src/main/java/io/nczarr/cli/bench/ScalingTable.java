package io.nczarr.cli.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.nczarr.cli.bench.CompareBenchmark.Cell;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The scaling tables, one per axis: per reader the best time, MB/s (10^6 bytes decoded) and time per chunk; ratio
 * ours ÷ each anchor and ÷ the faster of them; whether the values matched.
 */
final class ScalingTable {
    private final JsonNode manifest;
    private final CompareResults results;
    private final List<String> libs;

    ScalingTable(JsonNode manifest, CompareResults results, List<String> libs) {
        this.manifest = manifest;
        this.results = results;
        this.libs = libs;
    }

    private JsonNode ds(String name) {
        return manifest.get("datasets").get(name);
    }

    private double bytes(String name) {
        double n = ds(name).get("dtype").asText().endsWith("8") ? 8 : 4;
        for (JsonNode d : ds(name).get("shape")) {
            n *= d.asDouble();
        }
        return n;
    }

    private String cell(String name, Cell c) {
        if (c == null) {
            return "–";
        }
        double s = c.seconds();
        long chunks = ds(name).get("chunks").asLong();
        double perChunk = s / chunks;
        String v = String.format(
                Locale.ROOT,
                "%s · %,.0f MB/s · %s/chunk",
                s < 1 ? String.format(Locale.ROOT, "%.1f ms", s * 1e3) : String.format(Locale.ROOT, "%.2f s", s),
                bytes(name) / s / 1e6,
                perChunk < 1e-3
                        ? String.format(Locale.ROOT, "%.1f µs", perChunk * 1e6)
                        : String.format(Locale.ROOT, "%.2f ms", perChunk * 1e3));
        return c.sha256().equals(ds(name).get("sha256").asText()) ? v : v + " **WRONG**";
    }

    private String version(String lib) {
        return lib + " " + results.versions.getOrDefault(lib, "");
    }

    /** Prints one table per axis; true when every reader's values matched the generator's sha256. */
    boolean print(int iters, String loadBefore, String loadAfter) {
        System.out.printf(
                Locale.ROOT,
                "%nScaling: one whole read, local, steady (one open, a warm-up read, best of %d); cell = time · MB/s"
                        + " (10^6 bytes decoded) · time per chunk; ratio = their time ÷ ours (> 1: ours faster)."
                        + " Load average %s before, %s after (%d cores).%n",
                iters,
                loadBefore,
                loadAfter,
                Runtime.getRuntime().availableProcessors());
        boolean ok = true;
        List<String> axes = new ArrayList<>();
        manifest.get("axes").fieldNames().forEachRemaining(axes::add);
        for (String axisName : axes) {
            JsonNode axisNames = manifest.get("axes").get(axisName);
            System.out.println();
            System.out.println(
                    axisName.equals("chunks")
                            ? "Time vs chunk count (uncompressed chunks of the same size, 10 x 10 float64 = 800 B:"
                                    + " the data grows with the count; linear = flat time per chunk):"
                            : "Time vs data size (the zlib cube, chunks of one day = 721 x 1440 float32, 4.15 MB"
                                    + " decoded; linear = flat MB/s):");
            System.out.println();
            StringBuilder h = new StringBuilder("| dataset | chunks | MB | ours");
            StringBuilder sep = new StringBuilder("|---|---:|---:|---:");
            for (String l : libs) {
                h.append(" | ").append(version(l));
                sep.append("|---:");
            }
            for (String l : libs) {
                h.append(" | ours ÷ ").append(l);
                sep.append("|---:");
            }
            h.append(" | ours ÷ fastest | values | load |");
            sep.append("|---:|---|---:|");
            System.out.println(h);
            System.out.println(sep);
            for (JsonNode n : axisNames) {
                String name = n.asText();
                Map<String, Cell> m = results.cells.getOrDefault(name, Map.of());
                Cell ours = m.get(CompareBenchmark.OURS);
                StringBuilder line = new StringBuilder("| ")
                        .append(name)
                        .append(String.format(
                                Locale.ROOT,
                                " | %,d | %.1f | ",
                                ds(name).get("chunks").asLong(),
                                bytes(name) / 1e6))
                        .append(cell(name, ours));
                Cell best = null;
                for (String l : libs) {
                    Cell c = m.get(l);
                    line.append(" | ").append(cell(name, c));
                    if (c != null && (best == null || c.seconds() < best.seconds())) {
                        best = c;
                    }
                }
                for (String l : libs) {
                    line.append(" | ").append(ratio(ours, m.get(l)));
                }
                line.append(" | ").append(ratio(ours, best));
                List<String> bad = new ArrayList<>();
                String want = ds(name).get("sha256").asText();
                m.forEach((r, c) -> {
                    if (!c.sha256().equals(want)) {
                        bad.add(r);
                    }
                });
                if (m.size() < libs.size() + 1) {
                    bad.add("missing readers");
                }
                ok &= bad.isEmpty();
                line.append(" | ")
                        .append(
                                bad.isEmpty()
                                        ? "equal, " + m.size() + " readers"
                                        : "**" + String.join(", ", bad) + "**")
                        .append(" | ")
                        .append(results.load.getOrDefault(name, ""))
                        .append(" |");
                System.out.println(line);
            }
        }
        System.out.println();
        System.out.println(ok ? "values: every reader matched the generator's sha256" : "values: MISMATCH (above)");
        return ok;
    }

    private static String ratio(Cell ours, Cell theirs) {
        return ours == null || theirs == null
                ? "–"
                : String.format(Locale.ROOT, "%.2f", theirs.seconds() / ours.seconds());
    }
}
