package io.nczarr.cdm;

import java.util.Arrays;
import java.util.Random;

/** Corrupts one stored chunk: truncated, extended, bits flipped (anywhere, in the header, in the trailer), replaced, emptied. */
final class ChunkMutator {
    private ChunkMutator() {}

    /** A corrupted chunk and what was done to it. */
    record Mutation(String description, byte[] bytes) {}

    static Mutation mutate(byte[] chunk, Random rnd) {
        int n = chunk.length;
        switch (rnd.nextInt(11)) {
            case 0: {
                int len = n == 0 ? 0 : rnd.nextInt(n);
                return new Mutation("truncated to " + len + " of " + n + " bytes", Arrays.copyOf(chunk, len));
            }
            case 1: {
                byte[] tail = new byte[1 + rnd.nextInt(64)];
                rnd.nextBytes(tail);
                return new Mutation("extended by " + tail.length + " random bytes", concat(chunk, tail));
            }
            case 2:
                return flips(chunk, rnd, 1, 0, n);
            case 3:
                return flips(chunk, rnd, 2 + rnd.nextInt(7), 0, n);
            case 4:
                return flips(chunk, rnd, 1, 0, Math.min(n, 16));
            case 5:
                return flips(chunk, rnd, 1, Math.max(0, n - 8), n);
            case 6: {
                byte[] b = new byte[n];
                rnd.nextBytes(b);
                return new Mutation("replaced by " + n + " random bytes", b);
            }
            case 7: {
                byte[] b = new byte[rnd.nextInt(2 * n + 17)];
                rnd.nextBytes(b);
                return new Mutation("replaced by " + b.length + " random bytes", b);
            }
            case 8:
                return new Mutation("emptied", new byte[0]);
            case 9:
                return new Mutation("doubled", concat(chunk, chunk));
            default: {
                byte[] b = chunk.clone();
                int from = n == 0 ? 0 : rnd.nextInt(n);
                int to = Math.min(n, from + 1 + rnd.nextInt(32));
                Arrays.fill(b, from, to, (byte) 0);
                return new Mutation("bytes " + from + ".." + to + " zeroed", b);
            }
        }
    }

    /** {@code count} single-bit flips at positions in {@code [from, to)}. */
    private static Mutation flips(byte[] chunk, Random rnd, int count, int from, int to) {
        byte[] b = chunk.clone();
        if (to <= from) {
            return new Mutation("nothing to flip", b);
        }
        StringBuilder where = new StringBuilder();
        for (int i = 0; i < count; i++) {
            int pos = from + rnd.nextInt(to - from);
            int bit = rnd.nextInt(8);
            b[pos] ^= (byte) (1 << bit);
            where.append(i == 0 ? "" : ",").append(pos).append('.').append(bit);
        }
        return new Mutation("bits flipped at " + where, b);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
