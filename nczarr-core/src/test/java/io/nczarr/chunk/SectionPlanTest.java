package io.nczarr.chunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.chunk.SectionPlan.Segment;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Section planning on its own: which chunks a section touches and the runs copied out of each. */
class SectionPlanTest {

    /** One copy run, as {@link ChunkPlan.RunSink} receives it. */
    record Run(long src, long srcStride, long dest, int count) {}

    static List<Run> runs(ChunkPlan c) {
        List<Run> out = new ArrayList<>();
        c.forEachRun((src, srcStride, dest, count) -> out.add(new Run(src, srcStride, dest, count)));
        return out;
    }

    static Segment seg(long chunk, int first, int count) {
        return new Segment(chunk, first, count);
    }

    // ---- one dimension, table driven ----

    static Stream<Arguments> oneDimension() {
        return Stream.of(
                // name, shape, chunk, origin, count, stride, expected segments
                Arguments.of(
                        "stride 1 across three chunks",
                        12,
                        4,
                        2,
                        7,
                        1,
                        List.of(seg(0, 0, 2), seg(1, 2, 4), seg(2, 6, 1))),
                Arguments.of("whole array, exact chunks", 8, 4, 0, 8, 1, List.of(seg(0, 0, 4), seg(1, 4, 4))),
                Arguments.of("partial edge chunk", 10, 4, 0, 10, 1, List.of(seg(0, 0, 4), seg(1, 4, 4), seg(2, 8, 2))),
                Arguments.of("only the edge chunk", 10, 4, 8, 2, 1, List.of(seg(2, 0, 2))),
                Arguments.of("last element only", 10, 4, 9, 1, 1, List.of(seg(2, 0, 1))),
                Arguments.of(
                        "stride 2 inside chunks", 10, 4, 1, 5, 2, List.of(seg(0, 0, 2), seg(1, 2, 2), seg(2, 4, 1))),
                Arguments.of(
                        "stride equal to the chunk",
                        12,
                        3,
                        1,
                        4,
                        3,
                        List.of(seg(0, 0, 1), seg(1, 1, 1), seg(2, 2, 1), seg(3, 3, 1))),
                // indexes 0, 5, 10, 15: chunks 1, 3, 4 and 6 are skipped entirely
                Arguments.of(
                        "stride larger than the chunk",
                        16,
                        2,
                        0,
                        4,
                        5,
                        List.of(seg(0, 0, 1), seg(2, 1, 1), seg(5, 2, 1), seg(7, 3, 1))),
                Arguments.of("chunk larger than the array", 3, 10, 0, 3, 1, List.of(seg(0, 0, 3))),
                Arguments.of("size-1 dimension", 1, 1, 0, 1, 1, List.of(seg(0, 0, 1))),
                Arguments.of("chunks of one element", 5, 1, 1, 3, 1, List.of(seg(1, 0, 1), seg(2, 1, 1), seg(3, 2, 1))),
                Arguments.of("empty section", 5, 2, 3, 0, 1, List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("oneDimension")
    void segmentsOfOneDimension(
            String name, long shape, int chunk, long origin, int count, int stride, List<Segment> expected) {
        SectionPlan p = SectionPlan.of(
                new long[] {shape}, new int[] {chunk}, false, new long[] {origin}, new int[] {count}, new int[] {stride
                });
        assertEquals(expected, p.segments(0));
        assertEquals(expected.size(), p.chunkCount());
        assertEquals(count, p.elementCount());
        assertEquals(expected.size(), p.chunks().size());
    }

    @Test
    void oneDimensionRunsAreStridedReadsIntoConsecutivePlaces() {
        // shape 10, chunk 4, indexes 1, 3, 5, 7, 9
        SectionPlan p =
                SectionPlan.of(new long[] {10}, new int[] {4}, false, new long[] {1}, new int[] {5}, new int[] {2});
        List<ChunkPlan> chunks = p.chunks();
        assertEquals(List.of(new Run(1, 2, 0, 2)), runs(chunks.get(0)));
        assertEquals(List.of(new Run(1, 2, 2, 2)), runs(chunks.get(1)));
        assertEquals(List.of(new Run(1, 2, 4, 1)), runs(chunks.get(2)));
        assertArrayEquals(new long[] {2}, chunks.get(2).index());
    }

    // ---- several dimensions ----

    @Test
    void twoDimensionsInCOrder() {
        // shape [5, 7], chunks [2, 3]; rows 1..3, columns 2..5
        SectionPlan p = SectionPlan.of(
                new long[] {5, 7}, new int[] {2, 3}, false, new long[] {1, 2}, new int[] {3, 4}, new int[] {1, 1});
        assertEquals(List.of(seg(0, 0, 1), seg(1, 1, 2)), p.segments(0));
        assertEquals(List.of(seg(0, 0, 1), seg(1, 1, 3)), p.segments(1));
        List<ChunkPlan> chunks = p.chunks();
        assertEquals(
                List.of("[0, 0]", "[0, 1]", "[1, 0]", "[1, 1]"),
                chunks.stream().map(c -> Arrays.toString(c.index())).toList(),
                "C order of chunk index");
        // chunk (0,0): row 1 col 2 -> in-chunk (1,2) = 1*3+2 = 5; dest (0,0) = 0
        assertEquals(List.of(new Run(5, 1, 0, 1)), runs(chunks.get(0)));
        // chunk (0,1): row 1, cols 3..5 -> in-chunk (1,0) = 3; dest (0,1) = 1
        assertEquals(List.of(new Run(3, 1, 1, 3)), runs(chunks.get(1)));
        // chunk (1,1): rows 2,3 cols 3..5 -> in-chunk (0,0) and (1,0); dest rows 1,2 from col 1
        assertEquals(List.of(new Run(0, 1, 5, 3), new Run(3, 1, 9, 3)), runs(chunks.get(3)));
        assertEquals(6, chunks.get(3).elementCount());
    }

    @Test
    void fortranOrderChunksStepTheFirstIndexFastest() {
        // shape [4, 6], chunks [2, 3] stored first-index-fastest: in-chunk offset = i0 + 2 * i1
        SectionPlan p = SectionPlan.of(
                new long[] {4, 6}, new int[] {2, 3}, true, new long[] {1, 1}, new int[] {1, 2}, new int[] {1, 1});
        List<ChunkPlan> chunks = p.chunks();
        assertEquals(1, chunks.size());
        assertEquals(List.of(new Run(1 + 2, 2, 0, 2)), runs(chunks.get(0)));
        SectionPlan c = SectionPlan.of(
                new long[] {4, 6}, new int[] {2, 3}, false, new long[] {1, 1}, new int[] {1, 2}, new int[] {1, 1});
        assertEquals(List.of(new Run(3 + 1, 1, 0, 2)), runs(c.chunks().get(0)), "the same section in C order");
    }

    @Test
    void rankZeroIsOneChunkOfOneElement() {
        SectionPlan p = SectionPlan.of(new long[0], new int[0], false, new long[0], new int[0], new int[0]);
        assertEquals(0, p.rank());
        assertEquals(1, p.elementCount());
        assertEquals(1, p.chunkCount());
        ChunkPlan only = p.chunks().get(0);
        assertArrayEquals(new long[0], only.index());
        assertEquals(List.of(new Run(0, 1, 0, 1)), runs(only));
    }

    @Test
    void sizeOneDimensionsAroundAStridedOne() {
        SectionPlan p = SectionPlan.of(
                new long[] {1, 9, 1}, new int[] {1, 4, 1}, false, new long[] {0, 0, 0}, new int[] {1, 3, 1}, new int[] {
                    1, 4, 1
                });
        assertEquals(List.of(seg(0, 0, 1), seg(1, 1, 1), seg(2, 2, 1)), p.segments(1));
        List<ChunkPlan> chunks = p.chunks();
        assertEquals(3, chunks.size());
        assertEquals(List.of(new Run(0, 1, 0, 1)), runs(chunks.get(0)));
        assertEquals(List.of(new Run(0, 1, 1, 1)), runs(chunks.get(1)));
        assertEquals(List.of(new Run(0, 1, 2, 1)), runs(chunks.get(2)));
    }

    @Test
    void anEmptyDimensionMakesAnEmptyPlan() {
        SectionPlan p = SectionPlan.of(
                new long[] {4, 4}, new int[] {2, 2}, false, new long[] {1, 4}, new int[] {2, 0}, new int[] {1, 1});
        assertEquals(0, p.elementCount());
        assertEquals(0, p.chunkCount());
        assertEquals(List.of(), p.chunks());
    }

    // ---- huge shapes: long math throughout ----

    @Test
    void hugeShapesPlanWithoutOverflow() {
        long n = Long.MAX_VALUE;
        int chunk = 1 << 30;
        long origin = n - 5;
        SectionPlan p = SectionPlan.of(
                new long[] {n}, new int[] {chunk}, false, new long[] {origin}, new int[] {3}, new int[] {2});
        // indexes n-5, n-3, n-1 all lie in the last chunk
        long lastChunk = (n - 1) / chunk;
        assertEquals(List.of(seg(lastChunk, 0, 3)), p.segments(0));
        long inChunk = origin - lastChunk * chunk;
        assertEquals(List.of(new Run(inChunk, 2, 0, 3)), runs(p.chunks().get(0)));
    }

    @Test
    void theLastChunkOfAMaximalShapeIsClampedNotWrapped() {
        long n = Long.MAX_VALUE;
        int chunk = Integer.MAX_VALUE;
        // the chunk holding n-1 would end past Long.MAX_VALUE
        long ci = (n - 1) / chunk;
        assertTrue(BigInteger.valueOf(ci + 1)
                        .multiply(BigInteger.valueOf(chunk))
                        .compareTo(BigInteger.valueOf(Long.MAX_VALUE))
                > 0);
        long lastStart = ci * chunk;
        // the last chunk holds only n - 1, the last index; n - 2 lies in the chunk before
        assertTrue(n - 2 < lastStart && n - 1 >= lastStart);
        SectionPlan p = SectionPlan.of(
                new long[] {n}, new int[] {chunk}, false, new long[] {n - 2}, new int[] {2}, new int[] {1});
        assertEquals(List.of(seg(ci - 1, 0, 1), seg(ci, 1, 1)), p.segments(0));
        List<ChunkPlan> chunks = p.chunks();
        assertEquals(List.of(new Run(n - 2 - (ci - 1) * chunk, 1, 0, 1)), runs(chunks.get(0)));
        assertEquals(List.of(new Run(n - 1 - lastStart, 1, 1, 1)), runs(chunks.get(1)));
    }

    @Test
    void hugeMultiDimensionalShapesCountInLongs() {
        long big = 1L << 40;
        SectionPlan p = SectionPlan.of(
                new long[] {big, big},
                new int[] {1 << 20, 1 << 20},
                false,
                new long[] {big - (1 << 20) - 1, 7},
                new int[] {2, 2},
                new int[] {1, 1 << 21});
        // dimension 0 straddles the last two chunks; dimension 1 jumps two chunks per step
        assertEquals(List.of(seg((1 << 20) - 2, 0, 1), seg((1 << 20) - 1, 1, 1)), p.segments(0));
        assertEquals(List.of(seg(0, 0, 1), seg(2, 1, 1)), p.segments(1));
        assertEquals(4, p.chunkCount());
        assertEquals(4, p.elementCount());
        int max = Integer.MAX_VALUE;
        SectionPlan wide = SectionPlan.of(
                new long[] {big, big, big},
                new int[] {1 << 30, 1 << 30, 1 << 30},
                false,
                new long[3],
                new int[] {max, max, max},
                new int[] {1, 1, 1});
        assertEquals(Long.MAX_VALUE, wide.elementCount(), "2^93 elements: saturated, not wrapped");
        assertEquals(8, wide.chunkCount());
        assertEquals(List.of(seg(0, 0, 1 << 30), seg(1, 1 << 30, max - (1 << 30))), wide.segments(2));
    }

    // ---- what is refused ----

    @Test
    void sectionsOutsideTheArrayAreRefusedNamingTheDimension() {
        long[] shape = {4, 6};
        int[] chunks = {2, 3};
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> SectionPlan.of(shape, chunks, false, new long[] {0, 5}, new int[] {1, 2}, new int[] {1, 1}));
        assertTrue(e.getMessage().contains("dimension 1"), e.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> SectionPlan.of(shape, chunks, false, new long[] {0, 0}, new int[] {2, 3}, new int[] {3, 3}),
                "stride carries past the end");
        assertThrows(
                IllegalArgumentException.class,
                () -> SectionPlan.of(shape, chunks, false, new long[] {-1, 0}, new int[] {1, 1}, new int[] {1, 1}));
        assertThrows(
                IllegalArgumentException.class,
                () -> SectionPlan.of(shape, chunks, false, new long[] {0, 0}, new int[] {1, 1}, new int[] {0, 1}));
        assertThrows(
                IllegalArgumentException.class,
                () -> SectionPlan.of(shape, chunks, false, new long[] {0, 0}, new int[] {-1, 1}, new int[] {1, 1}));
        assertThrows(
                IllegalArgumentException.class,
                () -> SectionPlan.of(shape, chunks, false, new long[] {0}, new int[] {1}, new int[] {1}),
                "rank");
        assertThrows(
                IllegalArgumentException.class,
                () -> SectionPlan.of(
                        shape, new int[] {2, 0}, false, new long[] {0, 0}, new int[] {1, 1}, new int[] {1, 1}),
                "chunk length 0");
        // an empty section may start at the end
        assertEquals(
                0,
                SectionPlan.of(shape, chunks, false, new long[] {4, 0}, new int[] {0, 1}, new int[] {1, 1})
                        .elementCount());
    }

    // ---- against a naive element-by-element mapping ----

    /** Where one destination element comes from: a chunk and an offset inside it. */
    record Source(List<Long> chunk, long offset) {}

    @Test
    void randomSectionsMatchTheNaiveMapping() {
        Random rnd = new Random(20240607L);
        for (int trial = 0; trial < 2000; trial++) {
            int rank = 1 + rnd.nextInt(4);
            long[] shape = new long[rank];
            int[] chunks = new int[rank];
            long[] origin = new long[rank];
            int[] count = new int[rank];
            int[] stride = new int[rank];
            for (int d = 0; d < rank; d++) {
                shape[d] = 1 + rnd.nextInt(9);
                chunks[d] = 1 + rnd.nextInt(5);
                origin[d] = rnd.nextInt((int) shape[d]);
                stride[d] = 1 + rnd.nextInt(rnd.nextBoolean() ? 2 : 7);
                int max = (int) ((shape[d] - 1 - origin[d]) / stride[d]) + 1;
                count[d] = rnd.nextInt(10) == 0 ? 0 : 1 + rnd.nextInt(max);
            }
            boolean fortran = rnd.nextBoolean();
            String label = "trial " + trial + ": shape " + Arrays.toString(shape) + " chunks " + Arrays.toString(chunks)
                    + " origin " + Arrays.toString(origin) + " count " + Arrays.toString(count) + " stride "
                    + Arrays.toString(stride) + (fortran ? " F" : " C");
            SectionPlan plan = SectionPlan.of(shape, chunks, fortran, origin, count, stride);
            Source[] expected = naive(chunks, fortran, origin, count, stride);
            Source[] actual = new Source[expected.length];
            Set<List<Long>> planned = new LinkedHashSet<>();
            for (ChunkPlan c : plan.chunks()) {
                List<Long> idx = Arrays.stream(c.index()).boxed().toList();
                assertTrue(planned.add(idx), label + ": chunk " + idx + " planned twice");
                long[] fromThisChunk = {0};
                c.forEachRun((src, srcStride, dest, n) -> {
                    for (int i = 0; i < n; i++) {
                        int k = (int) dest + i;
                        assertEquals(null, actual[k], label + ": destination " + k + " written twice");
                        actual[k] = new Source(idx, src + i * srcStride);
                    }
                    fromThisChunk[0] += n;
                });
                assertEquals(c.elementCount(), fromThisChunk[0], label);
            }
            assertArrayEquals(expected, actual, label);
            Set<List<Long>> touched = new LinkedHashSet<>();
            for (Source s : expected) {
                touched.add(s.chunk());
            }
            assertEquals(touched, planned, label + ": exactly the chunks the section touches");
            assertEquals(expected.length, plan.elementCount(), label);
            SectionPlan.Extent extent = SectionPlan.measure(shape, chunks, origin, count, stride);
            assertEquals(new SectionPlan.Extent(expected.length, touched.size()), extent, label + ": measured");
        }
    }

    @Test
    void measuringAHugeSectionPlansNothing() {
        // 2^31 - 1 chunks of one element, and 2^62 elements over two dimensions: measured, never listed
        int max = Integer.MAX_VALUE;
        assertEquals(
                new SectionPlan.Extent(max, max),
                SectionPlan.measure(new long[] {max}, new int[] {1}, new long[] {0}, new int[] {max}, new int[] {1}));
        assertEquals(
                new SectionPlan.Extent((long) max * max, 4),
                SectionPlan.measure(
                        new long[] {Long.MAX_VALUE, Long.MAX_VALUE},
                        new int[] {1 << 30, 1 << 30},
                        new long[] {0, 0},
                        new int[] {max, max},
                        new int[] {1, 1}));
        assertEquals(
                new SectionPlan.Extent(0, 0),
                SectionPlan.measure(
                        new long[] {5, 5}, new int[] {2, 2}, new long[] {0, 0}, new int[] {3, 0}, new int[] {1, 1}));
        assertThrows(
                IllegalArgumentException.class,
                () -> SectionPlan.measure(new long[] {5}, new int[] {2}, new long[] {4}, new int[] {2}, new int[] {1}));
    }

    /** Each section element on its own: array index, then chunk index and in-chunk offset. */
    static Source[] naive(int[] chunks, boolean fortran, long[] origin, int[] count, int[] stride) {
        int rank = count.length;
        int n = 1;
        for (int c : count) {
            n *= c;
        }
        Source[] out = new Source[n];
        int[] m = new int[rank];
        Map<Integer, Long> inChunk = new HashMap<>();
        for (int k = 0; k < n; k++) {
            List<Long> chunk = new ArrayList<>();
            inChunk.clear();
            for (int d = 0; d < rank; d++) {
                long i = origin[d] + (long) m[d] * stride[d];
                chunk.add(i / chunks[d]);
                inChunk.put(d, i % chunks[d]);
            }
            long offset = 0;
            for (int j = 0; j < rank; j++) {
                int d = fortran ? rank - 1 - j : j;
                offset = offset * chunks[d] + inChunk.get(d);
            }
            out[k] = new Source(chunk, offset);
            for (int d = rank - 1; d >= 0; d--) {
                if (++m[d] < count[d]) {
                    break;
                }
                m[d] = 0;
            }
        }
        return out;
    }
}
