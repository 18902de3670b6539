package io.nczarr.meta;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * NumPy {@code datetime64} / {@code timedelta64} units as CF {@code units}: a datetime64 count is
 * {@code "<unit> since 1970-01-01T00:00:00"} (proleptic Gregorian), a timedelta64 count just
 * {@code "<unit>"}. Only single units udunits reads as fixed lengths have a rule: no calendar
 * years or months ({@code Y}, {@code M}), no multiples ({@code [10s]}), no generic unit.
 */
final class TimeUnits {
    private TimeUnits() {}

    /** The epoch of NumPy datetimes, as CF writes a reference time. */
    static final String EPOCH = "1970-01-01T00:00:00";

    /** NumPy's NaT: the smallest int64. */
    static final long NAT = Long.MIN_VALUE;

    private static final Pattern DTYPE = Pattern.compile("^[<>=|]?([Mm])8\\[([A-Za-z]+)\\]$");

    private static final Map<String, String> NAMES = Map.ofEntries(
            Map.entry("W", "weeks"),
            Map.entry("D", "days"),
            Map.entry("h", "hours"),
            Map.entry("m", "minutes"),
            Map.entry("s", "seconds"),
            Map.entry("ms", "milliseconds"),
            Map.entry("us", "microseconds"),
            Map.entry("ns", "nanoseconds"),
            Map.entry("ps", "picoseconds"),
            Map.entry("fs", "femtoseconds"),
            Map.entry("as", "attoseconds"));

    /**
     * @param cfUnits the CF {@code units}
     * @param datetime a point in time (datetime64), else a duration (timedelta64)
     */
    record Units(String cfUnits, boolean datetime) {}

    /** The units of a v2 dtype string such as {@code "<M8[ns]"}, or {@code null} when it has no rule. */
    static Units of(String dtype) {
        Matcher m = DTYPE.matcher(dtype == null ? "" : dtype.trim());
        if (!m.matches()) {
            return null;
        }
        return of(m.group(1).equals("M"), m.group(2));
    }

    /** The units of a NumPy unit code ({@code "ns"}), or {@code null} when it has no rule. */
    static Units of(boolean datetime, String unit) {
        String name = NAMES.get(unit);
        if (name == null) {
            return null;
        }
        return new Units(datetime ? name + " since " + EPOCH : name, datetime);
    }
}
