package io.nczarr.store;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * A read-only key-value view of a dataset: keys are {@code /}-separated relative names such as
 * {@code ".zgroup"} or {@code "g1/temp/0.1"}. Knows nothing about Zarr. A missing key is a normal
 * result ({@link Optional#empty()}); only real failures (I/O errors, access denied, corrupt
 * containers) throw, as {@link io.nczarr.error.StoreException}s naming {@link #location()} and
 * the key. A key that is absolute or escapes the dataset is an {@link IllegalArgumentException}.
 * Implementations are thread-safe; closing twice is harmless.
 */
public interface Store extends Closeable {

    /** A human-readable name of the dataset for error messages (URL or path), free of credentials. */
    String location();

    /**
     * The whole object, or empty when there is none. Stores that read files or the network bound it by
     * their object limit ({@link MemoryLimits#object()} of the resources they were opened with).
     *
     * @throws io.nczarr.error.LimitExceededException when the object is larger than that
     */
    Optional<byte[]> get(String key) throws IOException;

    /**
     * The whole object, or empty when there is none, refused with a {@link
     * io.nczarr.error.LimitExceededException} naming {@code limit}'s property when it is larger than
     * {@code limit}: the stores of this library check before they allocate (a declared size, a zip
     * directory entry, a {@code Content-Length}) and never read more than the limit plus one byte. This
     * default, for stores written elsewhere, can only check after {@link #get(String)}.
     */
    default Optional<byte[]> get(String key, ByteLimit limit) throws IOException {
        Optional<byte[]> b = get(key);
        if (b.isPresent()) {
            limit.checkArray(location(), key, null, "object", b.get().length);
        }
        return b;
    }

    /**
     * The whole object as {@link #get(String)} reads it (within the same object limit), into a buffer the
     * caller supplies: {@code buffers} is asked for a buffer (heap or direct) of at least the object's
     * size once that size has passed the limit, so a caller reading many objects can reuse one (the chunk
     * reader does; a native decoder reads a direct one in place). The answer is that buffer, or a new heap
     * one where the size is known only after reading, with position 0 and the object's length as limit.
     * This default, for stores that cannot read into a given buffer, wraps {@link #get(String)}'s array.
     */
    default Optional<ByteBuffer> get(String key, IntFunction<ByteBuffer> buffers) throws IOException {
        return get(key).map(ByteBuffer::wrap);
    }

    /**
     * {@code length} bytes starting at {@code offset} (fewer at the end of the object, none past
     * it), or empty when the object does not exist.
     *
     * @throws IllegalArgumentException for a negative offset or length
     */
    Optional<byte[]> getRange(String key, long offset, int length) throws IOException;

    /**
     * The last {@code length} bytes of the object (all of it when it is shorter), or empty when the
     * object does not exist. Zarr v3 shards keep their index at the end; this reads it without
     * knowing the object's length. The default reads the whole object; remote stores override it
     * with one suffix request.
     *
     * @throws IllegalArgumentException for a negative length
     */
    default Optional<byte[]> getSuffix(String key, int length) throws IOException {
        if (length < 0) {
            throw new IllegalArgumentException("negative length " + length);
        }
        Optional<byte[]> all = get(key);
        if (all.isEmpty() || all.get().length <= length) {
            return all;
        }
        byte[] b = all.get();
        return Optional.of(java.util.Arrays.copyOfRange(b, b.length - length, b.length));
    }

    /**
     * The names directly below {@code prefix} ({@code ""} = the root), objects and "folders"
     * alike, sorted; empty when there are none.
     */
    List<String> list(String prefix) throws IOException;

    /** Whether listing is cheap (local stores) or costs requests (S3). */
    default boolean listingIsCheap() {
        return true;
    }

    /**
     * How many chunk reads this store wants in flight at once: {@code 0} (the default) for local
     * stores, whose reads are CPU bound (one per core); a latency-bound remote store asks for
     * more. {@code 1} means one at a time, in the calling thread.
     */
    default int preferredConcurrency() {
        return 0;
    }

    @Override
    void close() throws IOException;
}
