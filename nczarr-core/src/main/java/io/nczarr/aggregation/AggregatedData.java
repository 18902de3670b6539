package io.nczarr.aggregation;

import io.nczarr.error.MetadataException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The parsed {@code aggregated_data} attribute of a CF-1.13 aggregation variable:
 * {@code "map: fragment_map uris: fragment_uris identifiers: fragment_identifiers"} (term order free),
 * or {@code map} with {@code unique_values}.
 */
public record AggregatedData(String map, String uris, String identifiers, String uniqueValues) {

    /** The standardised terms (CF-1.13 Appendix L). */
    public static final Set<String> TERMS = Set.of("map", "uris", "identifiers", "unique_values");

    /** The variable names this attribute refers to (for hiding them). */
    public List<String> variables() {
        return java.util.stream.Stream.of(map, uris, identifiers, uniqueValues)
                .filter(java.util.Objects::nonNull)
                .toList();
    }

    /**
     * Parses {@code value}. Refuses (naming {@code dataset} and {@code variable}): a term without a
     * variable, a variable without a term, a repeated or unknown term, no {@code map}, neither
     * {@code uris} nor {@code unique_values}, both, and {@code uris} without {@code identifiers}.
     */
    public static AggregatedData parse(String dataset, String variable, String value) throws MetadataException {
        if (value == null || value.isBlank()) {
            throw bad(dataset, variable, value, "is empty");
        }
        String[] words = value.trim().split("\\s+");
        Map<String, String> terms = new LinkedHashMap<>();
        for (int i = 0; i < words.length; i += 2) {
            String w = words[i];
            if (!w.endsWith(":") || w.length() < 2) {
                throw bad(dataset, variable, value, "expects 'term: variable' pairs, found '" + w + "'");
            }
            String term = w.substring(0, w.length() - 1);
            if (!TERMS.contains(term)) {
                throw bad(
                        dataset,
                        variable,
                        value,
                        "has the unknown term '" + term + "' (known: map, uris, identifiers," + " unique_values)");
            }
            if (i + 1 >= words.length || words[i + 1].endsWith(":")) {
                throw bad(dataset, variable, value, "names no variable for '" + term + ":'");
            }
            if (terms.put(term, words[i + 1]) != null) {
                throw bad(dataset, variable, value, "repeats the term '" + term + "'");
            }
        }
        String map = terms.get("map");
        String uris = terms.get("uris");
        String ids = terms.get("identifiers");
        String unique = terms.get("unique_values");
        if (map == null) {
            throw bad(dataset, variable, value, "has no 'map' term");
        }
        if ((uris == null) == (unique == null)) {
            throw bad(dataset, variable, value, "needs exactly one of 'uris' and 'unique_values'");
        }
        if (uris != null && ids == null) {
            throw bad(dataset, variable, value, "has 'uris' but no 'identifiers'");
        }
        if (unique != null && ids != null) {
            throw bad(dataset, variable, value, "has 'identifiers' with 'unique_values'");
        }
        return new AggregatedData(map, uris, ids, unique);
    }

    private static MetadataException bad(String dataset, String variable, String value, String what) {
        return new MetadataException(
                dataset, "aggregated_data", variable, "malformed aggregated_data '" + value + "': " + what, null);
    }
}
