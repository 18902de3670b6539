package io.nczarr.aggregation;

/**
 * How aggregations are read (from {@code io.nczarr.open.NcZarrOptions}).
 *
 * @param allowLocalFragments whether a remote aggregation file may name local ({@code file:}) fragments
 *     ({@code nczarr.aggregation.allowLocalFragments}, default false)
 * @param maxOpenFragments most fragment files a dataset keeps open; the least recently used idle one is
 *     closed beyond that ({@code nczarr.aggregation.maxOpenFragments}, default 32)
 * @param showBookkeeping present the aggregation file as it is, without interpreting its aggregation
 *     variables ({@code nczarr.aggregation.raw}, default false)
 */
public record AggregationSettings(boolean allowLocalFragments, int maxOpenFragments, boolean showBookkeeping) {
    public static final String ALLOW_LOCAL_FRAGMENTS = "nczarr.aggregation.allowLocalFragments";
    public static final String MAX_OPEN_FRAGMENTS = "nczarr.aggregation.maxOpenFragments";
    public static final String RAW = "nczarr.aggregation.raw";
    public static final int DEFAULT_MAX_OPEN_FRAGMENTS = 32;

    public AggregationSettings {
        if (maxOpenFragments < 1) {
            throw new IllegalArgumentException(MAX_OPEN_FRAGMENTS + " must be at least 1, not " + maxOpenFragments);
        }
    }

    public static AggregationSettings defaults() {
        return new AggregationSettings(false, DEFAULT_MAX_OPEN_FRAGMENTS, false);
    }
}
