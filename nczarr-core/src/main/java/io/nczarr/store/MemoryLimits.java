package io.nczarr.store;

/**
 * The memory budget of reading: every allocation whose size comes from the data (a size declared in
 * metadata, a zip directory, an HTTP header, a compressed stream) is checked against one of these limits
 * before it is made, so a hostile or broken dataset gets a {@link io.nczarr.error.LimitExceededException}
 * naming the property to raise instead of an {@link OutOfMemoryError}. Each limit bounds one allocation,
 * not the sum: a read holds its result, and per read thread one fetched object and one decoded chunk
 * (two while a codec chain hands over between stages).
 *
 * <table>
 *   <caption>limits; defaults scale with the maximum heap {@code H} ({@code -Xmx})</caption>
 *   <tr><th>system property</th><th>default</th><th>bounds</th></tr>
 *   <tr><td>{@value #MAX_OBJECT_BYTES} (old name {@code nczarr.maxObjectBytes})</td>
 *       <td>min(1 GiB, H/4)</td><td>one object read whole from any store (a stored chunk, a zip entry
 *       after inflating, an S3 object)</td></tr>
 *   <tr><td>{@value #MAX_CHUNK_BYTES}</td><td>min(1 GiB, H/8)</td><td>one decoded chunk (elements times
 *       item size, plus an estimate of the String objects of string chunks), each intermediate codec
 *       stage, and a variable-length (vlen-utf8) chunk, whose size is only known after decoding</td></tr>
 *   <tr><td>{@value #MAX_METADATA_BYTES}</td><td>min(64 MiB, H/16)</td><td>one metadata object
 *       ({@code .zgroup}, {@code .zarray}, {@code .zattrs}, {@code .zmetadata}, NCZarr {@code .ncz*}) before it
 *       is parsed; never more than {@value #MAX_OBJECT_BYTES}</td></tr>
 *   <tr><td>{@value #MAX_READ_BYTES}</td><td>H/2</td><td>the result of one read (a section or a whole
 *       variable): elements times their size in memory, plus the per-chunk bookkeeping of the read</td></tr>
 * </table>
 *
 * <p>With {@code -Xmx256m} that is 64 MiB, 32 MiB, 16 MiB and 128 MiB; with {@code -Xmx4g} 1 GiB, 512 MiB,
 * 64 MiB and 2 GiB. The first three are single Java arrays, so at most {@value #MAX_ARRAY_BYTES} bytes.
 * The values are read from system properties in one place, {@code io.nczarr.open.NcZarrOptions}.
 *
 * @param maxObjectBytes see {@value #MAX_OBJECT_BYTES}
 * @param maxChunkBytes see {@value #MAX_CHUNK_BYTES}
 * @param maxMetadataBytes see {@value #MAX_METADATA_BYTES}
 * @param maxReadBytes see {@value #MAX_READ_BYTES}
 */
public record MemoryLimits(long maxObjectBytes, long maxChunkBytes, long maxMetadataBytes, long maxReadBytes) {

    public static final String MAX_OBJECT_BYTES = "nczarr.limits.maxObjectBytes";
    public static final String MAX_CHUNK_BYTES = "nczarr.limits.maxChunkBytes";
    public static final String MAX_METADATA_BYTES = "nczarr.limits.maxMetadataBytes";
    public static final String MAX_READ_BYTES = "nczarr.limits.maxReadBytes";

    /** The largest Java byte array the JVM reliably allocates. */
    public static final long MAX_ARRAY_BYTES = Integer.MAX_VALUE - 16;

    private static final long GIB = 1L << 30;
    private static final long MIB = 1L << 20;

    /** @throws IllegalArgumentException for a limit below 1, or above {@link #MAX_ARRAY_BYTES} for one array */
    public MemoryLimits {
        single(MAX_OBJECT_BYTES, maxObjectBytes);
        single(MAX_CHUNK_BYTES, maxChunkBytes);
        single(MAX_METADATA_BYTES, maxMetadataBytes);
        if (maxReadBytes < 1) {
            throw new IllegalArgumentException(MAX_READ_BYTES + " must be positive, not " + maxReadBytes);
        }
    }

    private static void single(String property, long n) {
        if (n < 1 || n > MAX_ARRAY_BYTES) {
            throw new IllegalArgumentException(property + " must be 1.." + MAX_ARRAY_BYTES + ", not " + n);
        }
    }

    /** The defaults for this JVM's maximum heap. */
    public static MemoryLimits defaults() {
        return forHeap(Runtime.getRuntime().maxMemory());
    }

    /** The defaults for a maximum heap of {@code heapBytes} (see the table above). */
    public static MemoryLimits forHeap(long heapBytes) {
        long h = Math.max(heapBytes, 16 * MIB);
        return new MemoryLimits(Math.min(GIB, h / 4), Math.min(GIB, h / 8), Math.min(64 * MIB, h / 16), h / 2);
    }

    /** These limits with {@code maxObjectBytes} replaced. */
    public MemoryLimits withMaxObjectBytes(long n) {
        return new MemoryLimits(n, maxChunkBytes, maxMetadataBytes, maxReadBytes);
    }

    /** One object read whole. */
    public ByteLimit object() {
        return new ByteLimit(MAX_OBJECT_BYTES, maxObjectBytes);
    }

    /** One decoded chunk. */
    public ByteLimit chunk() {
        return new ByteLimit(MAX_CHUNK_BYTES, maxChunkBytes);
    }

    /** One metadata object: the metadata limit, or the object limit when that is smaller. */
    public ByteLimit metadata() {
        return new ByteLimit(MAX_METADATA_BYTES, maxMetadataBytes).atMost(object());
    }

    /** The result of one read. */
    public ByteLimit read() {
        return new ByteLimit(MAX_READ_BYTES, maxReadBytes);
    }
}
