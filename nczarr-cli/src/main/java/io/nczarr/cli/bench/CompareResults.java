package io.nczarr.cli.bench;

import io.nczarr.cli.bench.CompareBenchmark.Cell;
import java.util.LinkedHashMap;
import java.util.Map;

/** What one comparison run measured: row → reader → cell, the anchors' versions, the load after each row. */
final class CompareResults {
    final Map<String, Map<String, Cell>> cells = new LinkedHashMap<>();
    final Map<String, String> versions = new LinkedHashMap<>();
    final Map<String, String> load = new LinkedHashMap<>();

    void put(String row, String reader, Cell c) {
        cells.computeIfAbsent(row, k -> new LinkedHashMap<>()).put(reader, c);
    }
}
