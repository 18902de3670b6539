package io.nczarr.spark;

import java.io.Serializable;
import org.apache.spark.sql.connector.read.InputPartition;

/**
 * What one task reads: whole chunks of the grid (or, where filters keep part of a chunk along a dimension,
 * the kept range within it), as hyperslabs in the dimension index space. Plain numbers only.
 *
 * @param origins per block, its first index along each dimension
 * @param counts per block, its length along each dimension
 * @param rowLimit rows the task emits at most (LIMIT), or -1
 */
record ChunkPartition(int index, long[][] origins, int[][] counts, long rowLimit)
        implements InputPartition, Serializable {

    long rows() {
        long n = 0;
        for (int[] c : counts) {
            n += Planner.elements(c);
        }
        return n;
    }
}
