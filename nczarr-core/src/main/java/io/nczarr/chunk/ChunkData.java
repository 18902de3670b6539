package io.nczarr.chunk;

/** One decoded chunk (or a missing one standing for fill) that can copy runs of elements out. */
interface ChunkData {

    /**
     * Copies {@code count} elements: source elements {@code srcStart, srcStart + srcStride, ...}
     * (element indexes inside the chunk's storage order) to {@code dest[destStart ...]}.
     */
    void copy(int srcStart, int srcStride, Object dest, int destStart, int count);
}
