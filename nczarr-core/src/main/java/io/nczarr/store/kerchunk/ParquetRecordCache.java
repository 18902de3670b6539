package io.nczarr.store.kerchunk;

import io.nczarr.store.ByteLimit;
import io.nczarr.store.Store;
import io.nczarr.store.parquet.ReferenceRecords;
import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The decoded record files of one {@link ParquetReferenceStore}: each read from the folder's store and decoded
 * once, however many chunk reads want it at the same time (the others wait for that one), then kept, least
 * recently used first out, while the decoded records fit {@code budget} bytes. A record file that is not there
 * is remembered as such; a failed read or decode is not cached (the next read tries again and reports again).
 */
final class ParquetRecordCache {
    private final String location;
    private final Store folder;
    private final ByteLimit fileLimit;
    private final SingleFlightCache<String, Optional<Loaded>> cache;
    private final Function<ReferenceRecords, ParquetBlocks.Block[]> planner;
    private final AtomicLong loads = new AtomicLong();

    /** A decoded record file and the coalesced block of each row ({@link ParquetBlocks#plan}). */
    record Loaded(ReferenceRecords records, ParquetBlocks.Block[] blocks) {
        long bytes() {
            return records.estimatedBytes() + 8L * blocks.length;
        }
    }

    ParquetRecordCache(
            String location,
            Store folder,
            long budget,
            ByteLimit fileLimit,
            Function<ReferenceRecords, ParquetBlocks.Block[]> planner) {
        this.location = location;
        this.folder = folder;
        this.fileLimit = fileLimit;
        // the file just loaded stays even when it alone is over the budget: its reader needs it now
        this.cache = new SingleFlightCache<>(budget, r -> r.map(Loaded::bytes).orElse(0L), true);
        this.planner = planner;
    }

    /** The records of {@code file} (a key of the folder store), empty when there is no such file. */
    Optional<Loaded> get(String file) throws IOException {
        return cache.get(file, this::load);
    }

    private Optional<Loaded> load(String file) throws IOException {
        loads.incrementAndGet();
        Optional<byte[]> bytes = folder.get(file, fileLimit);
        if (bytes.isEmpty()) {
            return Optional.empty();
        }
        ReferenceRecords r = ReferenceRecords.read(bytes.get(), location, file, fileLimit);
        return Optional.of(new Loaded(r, planner.apply(r)));
    }

    /** How many record files were read so far (a cache miss each). */
    long loads() {
        return loads.get();
    }

    void clear() {
        cache.clear();
    }
}
