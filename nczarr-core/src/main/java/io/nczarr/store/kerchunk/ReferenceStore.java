package io.nczarr.store.kerchunk;

import io.nczarr.error.StoreException;
import io.nczarr.store.ByteLimit;
import io.nczarr.store.MemoryLimits;
import io.nczarr.store.Store;
import io.nczarr.store.StoreKeys;
import io.nczarr.store.StoreLimits;
import io.nczarr.store.StoreResources;
import io.nczarr.store.kerchunk.ReferenceFiles.Ref;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.TreeSet;

/**
 * A virtual Zarr store described by a kerchunk reference file ({@link ReferenceFiles}): each key is inline
 * bytes or a byte range of another file (a netCDF-4/HDF5 or netCDF-3 archive), read with the code of its kind
 * ({@link ReferenceTargets}). Keys are all known, so {@link #list} is free and pure Zarr without {@code
 * .zmetadata} opens too.
 *
 * <p>Reads of many chunks coalesce: at open, the ranges of each remote target are sorted and neighbours (at
 * most {@value #GAP} bytes apart) are grouped into blocks of at most {@value #BLOCK} bytes; the first read of
 * a chunk in a block fetches the whole block once (concurrent readers of the same block wait for that one
 * request) and keeps it in a small cache ({@value #CACHE} bytes at most, bounded by the read limit) until
 * the other chunks are read. Different blocks are fetched in parallel by the chunk reader's tasks.
 *
 * <p>Every failure names the reference file, the key and the target URL; a bad reference (negative or
 * overflowing offset/length, a range past the end of its target, a missing or forbidden target) fails the
 * read of its key, never the open, and never yields other bytes.
 */
public final class ReferenceStore implements Store {
    /** Neighbouring ranges at most this far apart are fetched in one request. */
    public static final int GAP = 64 * 1024;
    /** The largest coalesced request. */
    public static final int BLOCK = 4 * 1024 * 1024;
    /** The most coalesced bytes kept for chunks not yet read. */
    public static final long CACHE = 64L * 1024 * 1024;

    private final String location;
    private final Map<String, Ref> refs;
    private final NavigableSet<String> keys;
    private final ReferenceTargets targets;
    private final ByteLimit objectLimit;
    private final Map<String, Block> blocks;
    private final boolean remote;
    private final SingleFlightCache<Block, byte[]> cache;
    /** Blocks whose coalesced read failed for good: their keys are read one by one. */
    private final java.util.Set<Block> failedBlocks = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** One coalesced request: {@code length} bytes at {@code offset} of {@code target}. */
    record Block(URI target, long offset, int length) {}

    ReferenceStore(String location, Map<String, Ref> refs, ReferenceTargets targets, MemoryLimits limits) {
        this.location = location;
        this.refs = refs;
        this.keys = new TreeSet<>(refs.keySet());
        this.targets = targets;
        this.objectLimit = new ByteLimit(MemoryLimits.MAX_OBJECT_BYTES, limits.maxObjectBytes());
        this.blocks = coalesce(refs);
        this.remote =
                refs.values().stream().anyMatch(r -> r instanceof Ref.Range g && ReferenceTargets.isRemote(g.target()));
        this.cache = new SingleFlightCache<>(Math.min(CACHE, limits.maxReadBytes()), bytes -> bytes.length, false);
    }

    /**
     * Opens the reference file {@code url} names (local, S3 or HTTP: {@link DatasetUrl#referenceLocationKind()})
     * and parses it ({@link ReferenceOpener}). Parquet references are refused, saying why.
     */
    public static ReferenceStore open(DatasetUrl url, StoreResources resources) throws IOException {
        return ReferenceOpener.open(url, resources);
    }

    /** Groups neighbouring ranges of each remote target into blocks; only keys sharing a block are mapped. */
    private static Map<String, Block> coalesce(Map<String, Ref> refs) {
        Map<URI, List<Map.Entry<String, Ref.Range>>> byTarget = new HashMap<>();
        for (Map.Entry<String, Ref> e : refs.entrySet()) {
            if (e.getValue() instanceof Ref.Range r
                    && r.length() > 0
                    && r.length() <= BLOCK
                    && ReferenceTargets.isRemote(r.target())) {
                byTarget.computeIfAbsent(r.target(), k -> new ArrayList<>()).add(Map.entry(e.getKey(), r));
            }
        }
        Map<String, Block> out = new HashMap<>();
        for (Map.Entry<URI, List<Map.Entry<String, Ref.Range>>> t : byTarget.entrySet()) {
            List<Map.Entry<String, Ref.Range>> list = t.getValue();
            list.sort((a, b) -> Long.compare(a.getValue().offset(), b.getValue().offset()));
            int i = 0;
            while (i < list.size()) {
                long start = list.get(i).getValue().offset();
                long end = start + list.get(i).getValue().length();
                int j = i + 1;
                while (j < list.size()) {
                    Ref.Range r = list.get(j).getValue();
                    long e = Math.max(end, r.offset() + r.length());
                    if (r.offset() > end + GAP || e - start > BLOCK) {
                        break;
                    }
                    end = e;
                    j++;
                }
                if (j - i > 1) {
                    Block b = new Block(t.getKey(), start, (int) (end - start));
                    for (int k = i; k < j; k++) {
                        out.put(list.get(k).getKey(), b);
                    }
                }
                i = j;
            }
        }
        return out;
    }

    @Override
    public String location() {
        return location;
    }

    /** {@code {local target files opened so far, open now}} (tests). */
    long[] openFileCounts() {
        return targets.fileCounts();
    }

    /** The number of references (keys). */
    public int size() {
        return refs.size();
    }

    @Override
    public Optional<byte[]> get(String key) throws IOException {
        return get(key, objectLimit);
    }

    @Override
    public Optional<byte[]> get(String key, ByteLimit limit) throws IOException {
        Ref r = refs.get(StoreKeys.check(key));
        if (r == null) {
            return Optional.empty();
        }
        if (r instanceof Ref.Inline in) {
            limit.checkArray(location, key, null, "object", in.bytes().length);
            return Optional.of(in.bytes().clone());
        }
        if (r instanceof Ref.Bad bad) {
            throw bad(key, bad);
        }
        Ref.Range g = (Ref.Range) r;
        try {
            if (g.length() < 0) {
                return Optional.of(targets.whole(g.target(), limit, location, key));
            }
            limit.checkArray(
                    location,
                    key,
                    null,
                    "object (" + g.length() + " bytes in " + ReferenceTargets.name(g.target()) + ")",
                    g.length());
            Block b = blocks.get(key);
            if (b != null && !failedBlocks.contains(b)) {
                try {
                    byte[] block = block(b);
                    int from = (int) (g.offset() - b.offset());
                    return Optional.of(Arrays.copyOfRange(block, from, from + (int) g.length()));
                } catch (StoreException e) {
                    if (e.isRetryable()) {
                        throw e;
                    }
                    // one bad reference (past the end, say) must not fail its neighbours: read them one by one
                    failedBlocks.add(b);
                }
            }
            return Optional.of(targets.read(g.target(), g.offset(), (int) g.length()));
        } catch (IOException e) {
            throw failure(key, g.target(), e);
        }
    }

    @Override
    public Optional<byte[]> getRange(String key, long offset, int length) throws IOException {
        StoreLimits.checkRange(offset, length);
        Ref r = refs.get(StoreKeys.check(key));
        if (r == null) {
            return Optional.empty();
        }
        if (r instanceof Ref.Range g && g.length() >= 0) {
            if (offset >= g.length()) {
                return Optional.of(new byte[0]);
            }
            int n = (int) Math.min(length, g.length() - offset);
            try {
                return Optional.of(targets.read(g.target(), g.offset() + offset, n));
            } catch (IOException e) {
                throw failure(key, g.target(), e);
            }
        }
        byte[] all = get(key).orElseThrow();
        if (offset >= all.length) {
            return Optional.of(new byte[0]);
        }
        return Optional.of(Arrays.copyOfRange(all, (int) offset, (int) Math.min(all.length, offset + length)));
    }

    @Override
    public Optional<byte[]> getSuffix(String key, int length) throws IOException {
        StoreLimits.checkRange(0, length);
        Ref r = refs.get(StoreKeys.check(key));
        if (r instanceof Ref.Range g && g.length() >= 0) {
            long from = Math.max(0, g.length() - length);
            return getRange(key, from, (int) (g.length() - from));
        }
        return Store.super.getSuffix(key, length);
    }

    @Override
    public List<String> list(String prefix) {
        String p = StoreKeys.check(StoreKeys.trim(prefix));
        String start = p.isEmpty() ? "" : p + "/";
        TreeSet<String> names = new TreeSet<>();
        for (String k : keys.tailSet(start, true)) {
            if (!k.startsWith(start)) {
                break;
            }
            String rest = k.substring(start.length());
            int slash = rest.indexOf('/');
            names.add(slash < 0 ? rest : rest.substring(0, slash));
        }
        return new ArrayList<>(names);
    }

    /** The bytes of a block: fetched once, however many readers want it at the same time, then cached. */
    private byte[] block(Block b) throws IOException {
        return cache.get(b, k -> targets.read(k.target(), k.offset(), k.length()));
    }

    private StoreException bad(String key, Ref.Bad bad) {
        return new StoreException(
                location,
                key,
                "bad reference" + (bad.url() != null ? " to " + io.nczarr.error.Redaction.redact(bad.url()) : "") + ": "
                        + bad.why(),
                false,
                null);
    }

    private IOException failure(String key, URI target, IOException e) {
        return ReferenceTargets.failure(location, key, target, e);
    }

    @Override
    public boolean listingIsCheap() {
        return true;
    }

    /** Remote targets: as many requests in flight as the HTTP settings allow; local ones: CPU bound. */
    @Override
    public int preferredConcurrency() {
        return remote ? targets.httpSettings().concurrency() : 0;
    }

    @Override
    public void close() {
        targets.close();
        cache.clear();
    }

    @Override
    public String toString() {
        return "ReferenceStore[" + location + ", " + refs.size() + " references]";
    }
}
