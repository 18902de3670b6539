package io.nczarr.spark;

import io.nczarr.aggregation.AggregatedVariable;
import io.nczarr.open.OpenDataset;
import io.nczarr.open.ZarrAggregation;
import io.nczarr.read.VariableReader;
import java.io.Closeable;
import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One dataset open in this JVM as the connector sees it: the core's {@link OpenDataset} and, when it holds CF-1.13
 * or CFA aggregations ({@link ZarrAggregation}), the aggregation variables in place of their scalar placeholders
 * and without the bookkeeping variables (fragment maps, URIs, identifiers). Every variable is a {@link
 * VariableReader}, so the rest of the connector does not know which it is.
 */
final class Opened implements Closeable {
    private final OpenDataset dataset;
    private final ZarrAggregation aggregation;
    private final Map<String, VariableReader> readers;

    private Opened(OpenDataset dataset, ZarrAggregation aggregation, Map<String, VariableReader> readers) {
        this.dataset = dataset;
        this.aggregation = aggregation;
        this.readers = readers;
    }

    /** Wraps an open dataset (closed with the result, or now if this fails). */
    static Opened of(OpenDataset ds) throws IOException {
        ZarrAggregation agg;
        try {
            agg = ZarrAggregation.of(ds);
        } catch (IOException | RuntimeException e) {
            ds.close();
            throw e;
        }
        Map<String, AggregatedVariable> aggregated = agg.variables();
        if (aggregated.isEmpty()) {
            agg.close();
            agg = null;
        }
        Map<String, VariableReader> out = new LinkedHashMap<>();
        for (String path : ds.variables().keySet()) {
            if (agg != null && agg.bookkeeping().stream().anyMatch(h -> path.equals(h) || path.startsWith(h + "/"))) {
                continue;
            }
            VariableReader a = aggregated.get(path);
            out.put(path, a != null ? a : ds.typed(path, ds.variables().get(path)));
        }
        return new Opened(ds, agg, Collections.unmodifiableMap(out));
    }

    OpenDataset dataset() {
        return dataset;
    }

    /** The dataset's location for messages (without credentials). */
    String location() {
        return dataset.model().location();
    }

    /** Every variable shown, by full path, in the dataset's order. */
    Map<String, VariableReader> readers() {
        return readers;
    }

    /** Whether the dataset holds aggregation variables. */
    boolean aggregated() {
        return aggregation != null;
    }

    @Override
    public void close() throws IOException {
        try {
            if (aggregation != null) {
                aggregation.close();
            }
        } finally {
            dataset.close();
        }
    }
}
