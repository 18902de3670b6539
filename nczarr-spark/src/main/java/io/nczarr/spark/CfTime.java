package io.nczarr.spark;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * CF time coordinates ({@code units = "days since 2000-01-01"}) as Spark timestamps (microseconds since
 * 1970-01-01 UTC), for the calendars Spark's proleptic Gregorian timestamps can show: {@code standard},
 * {@code gregorian}, {@code proleptic_gregorian} or none (dates before 1582-10-15 are then read
 * proleptically, where {@code standard} would be Julian).
 */
final class CfTime {
    private CfTime() {}

    private static final Pattern UNITS = Pattern.compile(
            "^\\s*(\\w+)\\s+since\\s+(-?\\d{1,4})-(\\d{1,2})-(\\d{1,2})"
                    + "(?:[T\\s]+(\\d{1,2}):(\\d{1,2})(?::(\\d{1,2})(?:\\.(\\d+))?)?)?"
                    + "\\s*(Z|UTC|GMT|[+-]\\d{1,2}(?::?\\d{2})?)?\\s*$",
            Pattern.CASE_INSENSITIVE);

    /** Microseconds of one unit, or 0 for a unit that is not a fixed length. */
    static long unitMicros(String unit) {
        switch (unit.toLowerCase(Locale.ROOT)) {
            case "days":
            case "day":
            case "d":
                return 86_400_000_000L;
            case "hours":
            case "hour":
            case "hr":
            case "hrs":
            case "h":
                return 3_600_000_000L;
            case "minutes":
            case "minute":
            case "min":
            case "mins":
                return 60_000_000L;
            case "seconds":
            case "second":
            case "sec":
            case "secs":
            case "s":
                return 1_000_000L;
            case "milliseconds":
            case "millisecond":
            case "msec":
            case "ms":
                return 1_000L;
            case "microseconds":
            case "microsecond":
            case "us":
                return 1L;
            default:
                return 0;
        }
    }

    /** Whether a calendar attribute (null: none) allows timestamps. */
    static boolean gregorian(String calendar) {
        if (calendar == null) {
            return true;
        }
        String c = calendar.trim().toLowerCase(Locale.ROOT);
        return c.equals("standard") || c.equals("gregorian") || c.equals("proleptic_gregorian");
    }

    /**
     * {@code [epoch micros of the reference time, micros per unit]}, or null when the units are not a CF
     * time or the calendar is not Gregorian.
     */
    static long[] parse(String units, String calendar) {
        if (units == null || !gregorian(calendar)) {
            return null;
        }
        Matcher m = UNITS.matcher(units);
        if (!m.matches()) {
            return null;
        }
        long per = unitMicros(m.group(1));
        if (per == 0) {
            return null;
        }
        try {
            LocalDate date = LocalDate.of(
                    Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4)));
            LocalTime time = LocalTime.MIDNIGHT;
            if (m.group(5) != null) {
                int sec = m.group(7) == null ? 0 : Integer.parseInt(m.group(7));
                int nanos = 0;
                if (m.group(8) != null) {
                    String f = (m.group(8) + "000000000").substring(0, 9);
                    nanos = Integer.parseInt(f);
                }
                time = LocalTime.of(Integer.parseInt(m.group(5)), Integer.parseInt(m.group(6)), sec, nanos);
            }
            ZoneOffset zone = zone(m.group(9));
            long seconds = LocalDateTime.of(date, time).toEpochSecond(zone);
            long micros = Math.addExact(Math.multiplyExact(seconds, 1_000_000L), time.getNano() / 1000);
            return new long[] {micros, per};
        } catch (RuntimeException e) {
            // an impossible date or time, or a reference out of the timestamp range: not a time axis
            return null;
        }
    }

    private static ZoneOffset zone(String z) {
        if (z == null || z.equalsIgnoreCase("Z") || z.equalsIgnoreCase("UTC") || z.equalsIgnoreCase("GMT")) {
            return ZoneOffset.UTC;
        }
        String t = z.replace(":", "");
        int sign = t.startsWith("-") ? -1 : 1;
        String digits = t.substring(1);
        int hours;
        int minutes = 0;
        if (digits.length() <= 2) {
            hours = Integer.parseInt(digits);
        } else {
            hours = Integer.parseInt(digits.substring(0, digits.length() - 2));
            minutes = Integer.parseInt(digits.substring(digits.length() - 2));
        }
        return ZoneOffset.ofHoursMinutes(sign * hours, sign * minutes);
    }

    /** A coordinate value in units as epoch microseconds (rounded to the microsecond). */
    static long micros(long[] ref, double value) {
        return ref[0] + Math.round(value * ref[1]);
    }
}
