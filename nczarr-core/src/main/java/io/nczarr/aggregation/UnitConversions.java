package io.nczarr.aggregation;

import java.util.function.DoubleUnaryOperator;

/**
 * Unit conversions a host offers for the canonical form of fragments (CF-1.13 section 2.8.2): netCDF-Java's
 * udunits in that binding; {@link #NONE} where no units library is at hand (a fragment in other units is then
 * refused, naming the units).
 */
public interface UnitConversions {
    /**
     * The conversion of values in {@code from} to {@code to}, or {@code null} when the units are not compatible.
     *
     * @throws IllegalArgumentException when a unit string cannot be parsed (the message says which)
     */
    DoubleUnaryOperator converter(String from, String to);

    /** No conversions: every pair of different units is reported as not convertible here. */
    UnitConversions NONE = (from, to) -> {
        throw new IllegalArgumentException("no units library to convert with");
    };
}
