package io.nczarr.aggregation;

import io.nczarr.read.VariableReader;
import java.util.Map;

/**
 * The file an aggregation is declared in, as a host reads it: its variables by full path (typed reads) and its
 * groups' dimensions. {@link AggregationParser} finds the aggregation variables and their bookkeeping in it.
 */
public interface AggregationDocument {
    /** The location of the document for messages (redacted by the caller's exceptions). */
    String location();

    /** Every variable by full path ({@code "/tas"}, {@code "/g/map"}), in order. */
    Map<String, VariableReader> variables();

    /** The length of dimension {@code name} as seen from the group {@code groupPath} (its own or an ancestor's), or -1. */
    long dimensionLength(String groupPath, String name);

    /** The full path of group {@code name} seen from {@code groupPath} (a child of it, else of the root), or null. */
    String findGroup(String groupPath, String name);
}
