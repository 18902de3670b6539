package io.nczarr.store.kerchunk;

import io.nczarr.error.StoreException;
import io.nczarr.store.ByteLimit;
import io.nczarr.store.MemoryLimits;
import io.nczarr.store.Store;
import io.nczarr.store.StoreKeys;
import io.nczarr.store.StoreLimits;
import io.nczarr.store.parquet.ReferenceRecords;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A virtual Zarr v2 store described by fsspec's Parquet references ({@code LazyReferenceMapper}, written by
 * kerchunk's {@code refs_to_dataframe} and VirtualiZarr's {@code to_kerchunk(format="parquet")}): a folder with
 * {@code .zmetadata} = {@code {"metadata": {key: json}, "record_size": N}} and, per array, record files {@code
 * <var>/refs.<k>.parq}. Metadata keys are answered from {@code .zmetadata} (and {@code .zmetadata} itself as
 * consolidated metadata); chunk {@code i} (its C-order index over the chunk grid) is row {@code i % N} of record
 * file {@code i / N}, read from the folder's own store on first use and kept in an LRU cache ({@link
 * ParquetRecordCache}), with neighbouring ranges of remote targets grouped into blocks read in one request ({@link
 * ParquetBlocks}). A row with {@code raw} is inline bytes; a {@code path} with offset and size 0 is the whole
 * target, else that byte range of it, read by the same {@link ReferenceTargets} as JSON references (so the same
 * rules apply to the targets); a null path without raw, or a missing record file, is a chunk never written.
 *
 * <p>Every failure names the dataset, the key and the record file or target; a malformed record file fails the
 * chunks it holds, never the open, and never yields other bytes.
 */
public final class ParquetReferenceStore implements Store {
    /** At most this many decoded record bytes are cached (and never more than the read limit). */
    public static final long CACHE = 64L * 1024 * 1024;

    private final String location;
    private final Store folder;
    private final Map<String, byte[]> metadata;
    private final NavigableMap<String, long[]> grids;
    private final long recordSize;
    private final URI base;
    private final ReferenceTargets targets;
    private final ByteLimit objectLimit;
    private final ParquetRecordCache records;
    private final boolean remoteFolder;
    private final ParquetBlocks blocks;
    /** Blocks whose coalesced read failed for good: their chunks are read one by one. */
    private final java.util.Set<ParquetBlocks.Block> failedBlocks = ConcurrentHashMap.newKeySet();

    private final Map<String, URI> resolved = new ConcurrentHashMap<>();
    private volatile boolean remoteTargets;

    ParquetReferenceStore(
            String location,
            Store folder,
            ParquetReferences.Layout layout,
            URI base,
            ReferenceTargets targets,
            MemoryLimits limits,
            boolean remoteFolder) {
        this.location = location;
        this.folder = folder;
        this.metadata = layout.metadata();
        this.grids = layout.grids();
        this.recordSize = layout.recordSize();
        this.base = base;
        this.targets = targets;
        this.objectLimit = limits.object();
        long budget = Math.min(CACHE, limits.maxReadBytes());
        this.records = new ParquetRecordCache(
                location, folder, budget, limits.object(), r -> ParquetBlocks.plan(r, this::remoteTarget));
        this.blocks = new ParquetBlocks(budget);
        this.remoteFolder = remoteFolder;
    }

    @Override
    public String location() {
        return location;
    }

    /** The records per record file ({@code record_size}). */
    public long recordSize() {
        return recordSize;
    }

    /** How many record files were read and decoded so far (cache misses). */
    long recordLoads() {
        return records.loads();
    }

    @Override
    public Optional<byte[]> get(String key) throws IOException {
        return get(key, objectLimit);
    }

    @Override
    public Optional<byte[]> get(String key, ByteLimit limit) throws IOException {
        StoreKeys.check(key);
        byte[] meta = metadata.get(key);
        if (meta != null) {
            limit.checkArray(location, key, null, "object", meta.length);
            return Optional.of(meta.clone());
        }
        Row row = row(key);
        if (row == null) {
            return Optional.empty();
        }
        byte[] raw = row.records.raw(row.index);
        if (raw != null) {
            limit.checkArray(location, key, null, "object", raw.length);
            return Optional.of(raw.clone());
        }
        String path = row.records.path(row.index);
        if (path == null) {
            return Optional.empty();
        }
        URI target = target(key, path);
        long offset = row.records.offset(row.index);
        long size = row.records.size(row.index);
        try {
            if (offset == 0 && size == 0) {
                return Optional.of(targets.whole(target, limit, location, key));
            }
            checkRange(key, row, offset, size);
            limit.checkArray(
                    location, key, null, "object (" + size + " bytes in " + ReferenceTargets.name(target) + ")", size);
            ParquetBlocks.Block b = row.blocks()[row.index()];
            if (b != null && !failedBlocks.contains(b)) {
                try {
                    byte[] block = blocks.bytes(b, x -> targets.read(x.target(), x.offset(), x.length()));
                    int from = (int) (offset - b.offset());
                    return Optional.of(Arrays.copyOfRange(block, from, from + (int) size));
                } catch (StoreException e) {
                    if (e.isRetryable()) {
                        throw e;
                    }
                    failedBlocks.add(b); // one bad range (past the end, say) must not fail its neighbours
                }
            }
            return Optional.of(targets.read(target, offset, (int) size));
        } catch (IOException e) {
            throw failure(key, target, e);
        }
    }

    @Override
    public Optional<byte[]> getRange(String key, long offset, int length) throws IOException {
        StoreLimits.checkRange(offset, length);
        Optional<byte[]> all = get(key);
        if (all.isEmpty()) {
            return all;
        }
        byte[] b = all.get();
        if (offset >= b.length) {
            return Optional.of(new byte[0]);
        }
        return Optional.of(Arrays.copyOfRange(b, (int) offset, (int) Math.min(b.length, offset + length)));
    }

    /** One row of one record file. */
    private record Row(ReferenceRecords records, ParquetBlocks.Block[] blocks, int index, String file) {}

    /** The row holding chunk {@code key}, or {@code null} when the key is no chunk of an array or was never written. */
    private Row row(String key) throws IOException {
        int slash = key.lastIndexOf('/');
        String field = slash < 0 ? "" : key.substring(0, slash);
        long[] grid = grids.get(field);
        long n = grid == null ? -1 : ParquetReferences.chunkNumber(key.substring(slash + 1), grid);
        if (n < 0) {
            return null;
        }
        long k = n / recordSize;
        String file = (field.isEmpty() ? "" : field + "/") + "refs." + k + ".parq";
        Optional<ParquetRecordCache.Loaded> loaded = records.get(file);
        if (loaded.isEmpty()) {
            return null; // fsspec: a record file that is not there holds no chunk
        }
        Optional<ReferenceRecords> r = Optional.of(loaded.get().records());
        long i = n % recordSize;
        if (i >= r.get().rows()) {
            throw new StoreException(
                    location,
                    key,
                    "record file " + file + " has " + r.get().rows() + " rows; chunk " + n + " is row " + i
                            + " (record_size " + recordSize + ")",
                    false,
                    null);
        }
        return new Row(r.get(), loaded.get().blocks(), (int) i, file);
    }

    private void checkRange(String key, Row row, long offset, long size) throws StoreException {
        if (offset < 0 || size < 0 || offset > Long.MAX_VALUE - size) {
            throw new StoreException(
                    location,
                    key,
                    "bad reference in " + row.file() + " row " + row.index() + ": offset " + offset + ", size " + size,
                    false,
                    null);
        }
    }

    /** The target of {@code path} when it is remote (worth coalescing), else {@code null}. */
    private URI remoteTarget(String path) {
        try {
            URI u = target(null, path);
            return ReferenceTargets.isRemote(u) ? u : null;
        } catch (StoreException e) {
            return null; // reading the row reports it
        }
    }

    private URI target(String key, String path) throws StoreException {
        URI u = resolved.get(path);
        if (u == null) {
            try {
                u = ReferenceFiles.resolve(path, base);
            } catch (IllegalArgumentException e) {
                throw new StoreException(
                        location,
                        key,
                        "malformed target URL " + io.nczarr.error.Redaction.redact(path) + ": " + e.getMessage(),
                        false,
                        null);
            }
            if (resolved.size() < 4096) {
                resolved.put(path, u);
            }
        }
        if (ReferenceTargets.isRemote(u)) {
            remoteTargets = true;
        }
        return u;
    }

    private IOException failure(String key, URI target, IOException e) {
        return ReferenceTargets.failure(location, key, target, e);
    }

    /** The metadata keys below {@code prefix} (chunk keys are not listed: they live in the record files). */
    @Override
    public List<String> list(String prefix) {
        String p = StoreKeys.check(StoreKeys.trim(prefix));
        String start = p.isEmpty() ? "" : p + "/";
        TreeSet<String> names = new TreeSet<>();
        for (String k : metadata.keySet()) {
            if (k.startsWith(start)) {
                String rest = k.substring(start.length());
                int slash = rest.indexOf('/');
                names.add(slash < 0 ? rest : rest.substring(0, slash));
            }
        }
        return new ArrayList<>(names);
    }

    @Override
    public boolean listingIsCheap() {
        return true;
    }

    /** Remote folder or targets: as many requests in flight as the HTTP settings allow; local ones: CPU bound. */
    @Override
    public int preferredConcurrency() {
        return remoteFolder || remoteTargets ? targets.httpSettings().concurrency() : 0;
    }

    @Override
    public void close() throws IOException {
        try {
            targets.close();
            records.clear();
            blocks.clear();
        } finally {
            folder.close();
        }
    }

    @Override
    public String toString() {
        return "ParquetReferenceStore[" + location + ", record_size " + recordSize + ", " + grids.size() + " arrays]";
    }
}
