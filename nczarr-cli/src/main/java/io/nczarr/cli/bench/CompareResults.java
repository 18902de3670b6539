package io.nczarr.cli.bench;

import io.nczarr.cli.bench.CompareBenchmark.Cell;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one comparison run measured: row → reader → cell, the anchors' versions, the load after each row, the
 * one-process-per-read cells.
 */
final class CompareResults {
    final Map<String, Map<String, Cell>> cells = new LinkedHashMap<>();
    final Map<String, String> versions = new LinkedHashMap<>();
    final Map<String, String> load = new LinkedHashMap<>();
    /** row → reader → one process per read (the S3 rows again, the cli row, rss). */
    final Map<String, Map<String, FreshProcesses.Fresh>> fresh = new LinkedHashMap<>();

    void put(String row, String reader, Cell c) {
        cells.computeIfAbsent(row, k -> new LinkedHashMap<>()).put(reader, c);
    }
}
