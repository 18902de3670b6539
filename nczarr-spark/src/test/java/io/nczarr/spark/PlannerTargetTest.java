package io.nczarr.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The partition size aimed at: the option, cut so that every core gets a share of a smaller read. */
class PlannerTargetTest {
    private static final long MB = 1 << 20;

    @Test
    void aReadSmallerThanCoresTimesTheOptionIsSharedByTheCores() {
        // the 30-day bench cube (124.6 MB) in local[2]: two partitions, not one of 128 MB
        assertEquals(62_300_000, Planner.target(128 * MB, 2, 124_600_000));
    }

    @Test
    void aLargeReadKeepsTheOption() {
        assertEquals(128 * MB, Planner.target(128 * MB, 2, 10_000 * MB));
        assertEquals(128 * MB, Planner.target(128 * MB, 1, 10_000 * MB));
    }

    @Test
    void oneCoreOrAnEmptyReadNeverAimsBelowOneByte() {
        assertEquals(64, Planner.target(128 * MB, 1, 64));
        assertEquals(1, Planner.target(128 * MB, 8, 0));
    }
}
