package io.nczarr.aggregation;

import io.nczarr.store.MemoryLimits;
import java.util.concurrent.ExecutorService;

/**
 * What the aggregation variables of one document share: where their fragments come from (trust-checked), the
 * cache of open fragment files, the threads fragment pieces are read on and the read limit.
 *
 * @param pool runs the pieces of a read touching several fragments; {@code null}: the calling thread reads them
 */
public record FragmentReads(FragmentSources sources, FragmentCache files, ExecutorService pool, MemoryLimits limits) {}
