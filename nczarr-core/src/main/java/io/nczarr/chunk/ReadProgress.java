package io.nczarr.chunk;

/**
 * Told as the chunks of one read complete (from decode threads, so implementations must be
 * thread-safe). Install on an open file with {@code ncfile.sendIospMessage(progress)}.
 */
@FunctionalInterface
public interface ReadProgress {

    /** {@code done} of {@code total} chunks of a read of {@code variable} are decoded and copied. */
    void chunksDone(String variable, long done, long total);
}
