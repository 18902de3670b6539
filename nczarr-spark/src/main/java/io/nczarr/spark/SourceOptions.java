package io.nczarr.spark;

import io.nczarr.error.NcZarrException;
import io.nczarr.error.Redaction;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The data source options, parsed once on the driver and shipped to the executors (plain strings and
 * numbers only).
 *
 * <table>
 *   <caption>options of {@code spark.read.format("nczarr")}</caption>
 *   <tr><th>option</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@code path} (or {@code load(url)})</td><td>required</td><td>any URL or path the core opens</td></tr>
 *   <tr><td>{@code variables}</td><td>every data variable of the most dimensions</td>
 *       <td>comma-separated names or paths ({@code temp,precip}, {@code obs/t2m})</td></tr>
 *   <tr><td>{@code decode}</td><td>{@code raw}</td><td>{@code cf}: scale_factor/add_offset applied,
 *       _FillValue/missing_value as null</td></tr>
 *   <tr><td>{@code partitionBytes}</td><td>128m</td><td>decoded bytes one partition aims at</td></tr>
 *   <tr><td>{@code columnar}</td><td>true</td><td>{@code false}: rows instead of column batches</td></tr>
 *   <tr><td>{@code pushAggregates}</td><td>true</td><td>{@code false}: Spark aggregates the rows even where the
 *       connector could ({@link AggregatePlan})</td></tr>
 *   <tr><td>{@code layout}</td><td>{@code grid}</td><td>{@code chunks}: one row per chunk (origin, shape, the
 *       variables' values as arrays)</td></tr>
 *   <tr><td>{@code aws.*}, {@code nczarr.*}, {@code icechunk.*}, {@code mode}, {@code branch}, {@code tag},
 *       {@code snapshot}</td><td></td><td>passed to the core as URL fragment keys ({@link FragmentKeys})</td></tr>
 * </table>
 */
record SourceOptions(
        String url,
        List<String> variables,
        boolean cfDecode,
        long partitionBytes,
        boolean columnar,
        boolean chunks,
        boolean pushAggregates)
        implements Serializable {

    static final long DEFAULT_PARTITION_BYTES = 128L << 20;

    /** @throws NcZarrException for a missing path or an option out of range, naming it */
    static SourceOptions parse(Map<String, String> options) throws NcZarrException {
        Map<String, String> lower = new TreeMap<>();
        options.forEach((k, v) -> lower.put(k.toLowerCase(Locale.ROOT), v));
        String path = lower.get("path");
        if (path == null || path.isBlank()) {
            throw new NcZarrException("the nczarr data source needs a path: load(url) or option(\"path\", url)");
        }
        String url = FragmentKeys.url(path.trim(), lower);
        List<String> vars = null;
        String v = lower.get("variables");
        if (v != null && !v.isBlank()) {
            vars = new ArrayList<>();
            for (String s : v.split(",")) {
                if (!s.isBlank()) {
                    vars.add(s.trim());
                }
            }
        }
        String decode = lower.getOrDefault("decode", "raw").trim().toLowerCase(Locale.ROOT);
        if (!decode.equals("raw") && !decode.equals("cf")) {
            throw new NcZarrException(
                    "option decode is '" + decode + "': expected raw or cf (" + Redaction.redact(path) + ")");
        }
        long bytes = bytes("partitionBytes", lower.get("partitionbytes"), DEFAULT_PARTITION_BYTES);
        String layout = lower.getOrDefault("layout", "grid").trim().toLowerCase(Locale.ROOT);
        if (!layout.equals("grid") && !layout.equals("chunks")) {
            throw new NcZarrException(
                    "option layout is '" + layout + "': expected grid or chunks (" + Redaction.redact(path) + ")");
        }
        boolean columnar =
                !"false".equalsIgnoreCase(lower.getOrDefault("columnar", "true").trim());
        return new SourceOptions(
                url,
                vars == null ? null : List.copyOf(vars),
                decode.equals("cf"),
                bytes,
                columnar,
                layout.equals("chunks"),
                !"false"
                        .equalsIgnoreCase(
                                lower.getOrDefault("pushaggregates", "true").trim()));
    }

    /** A byte count with an optional binary suffix ({@code 64m}, {@code 1g}). */
    static long bytes(String name, String text, long dflt) throws NcZarrException {
        if (text == null || text.isBlank()) {
            return dflt;
        }
        String t = text.trim().toLowerCase(Locale.ROOT);
        long mult = 1;
        char last = t.charAt(t.length() - 1);
        if (last == 'k' || last == 'm' || last == 'g') {
            mult = last == 'k' ? 1L << 10 : last == 'm' ? 1L << 20 : 1L << 30;
            t = t.substring(0, t.length() - 1);
        }
        try {
            long n = Long.parseLong(t.trim());
            if (n < 1 || n > (Long.MAX_VALUE / mult)) {
                throw new NumberFormatException();
            }
            return n * mult;
        } catch (NumberFormatException e) {
            throw new NcZarrException(
                    "option " + name + " is '" + text + "': expected a positive byte count" + " such as 64m or 1g");
        }
    }

    /** The URL for messages: without credentials. */
    String location() {
        return Redaction.redact(url);
    }
}
