package io.nczarr.cdm;

import io.nczarr.error.LimitExceededException;
import io.nczarr.error.MetadataException;
import io.nczarr.error.NcZarrException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.nc2.Attribute;
import ucar.nc2.Dimension;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFileWriter;
import ucar.nc2.Variable;

/**
 * Aggregation files whose size, if trusted, would exhaust a 256 MiB heap (issue 21, finding 7), and what opening
 * and reading each may end in. {@link #main} runs them in a JVM of its own ({@code AggregationSmallHeapTest}), one
 * line each on standard output: {@code AGG name outcome class property message}, tab separated.
 */
enum AggregationBombs {
    /** A CF-1.13 fragment map of 2000 x 2000 fragments: refused by its count before the 4 M URIs are read. */
    CF_MAP_2000X2000(MetadataException.class, false) {
        @Override
        void make(Path p) throws Exception {
            int n = 2000;
            NetcdfFileWriter w = NetcdfFileWriter.createNew(NetcdfFileWriter.Version.netcdf3, p.toString());
            w.addGroupAttribute(null, new Attribute("Conventions", "CF-1.13"));
            Dimension x = w.addDimension(null, "x", n);
            Dimension y = w.addDimension(null, "y", n);
            Dimension j = w.addDimension(null, "j", 2);
            Dimension i = w.addDimension(null, "i", n);
            Dimension len = w.addDimension(null, "strlen", 1);
            Variable m = w.addVariable(null, "fragment_map", DataType.INT, List.of(j, i));
            w.addVariable(null, "fragment_uris", DataType.CHAR, List.of(x, y, len));
            w.addVariable(null, "fragment_identifiers", DataType.CHAR, List.of(len));
            Variable v = w.addVariable(null, "v", DataType.INT, new ArrayList<Dimension>());
            v.addAttribute(new Attribute("aggregated_dimensions", "x y"));
            v.addAttribute(new Attribute(
                    "aggregated_data", "map: fragment_map uris: fragment_uris identifiers: fragment_identifiers"));
            w.create();
            int[] ones = new int[2 * n];
            Arrays.fill(ones, 1);
            w.write(m, Array.factory(DataType.INT, new int[] {2, n}, ones));
            w.close();
        }
    },
    /** CFA-0.4 with 300,000 partitions (~28 MB of cfa_array JSON): counted by a streaming pass and refused. */
    CFA04_300K_PARTITIONS(NcZarrException.class, false) {
        @Override
        void make(Path p) throws Exception {
            int n = 300_000;
            StringBuilder b =
                    new StringBuilder("{\"pmshape\": [" + n + "], \"pmdimensions\": [\"x\"], \"Partitions\": [");
            for (int k = 0; k < n; k++) {
                b.append(k == 0 ? "" : ",")
                        .append("{\"index\":[")
                        .append(k)
                        .append("],\"location\":[[")
                        .append(k)
                        .append(',')
                        .append(k)
                        .append("]],\"subarray\":{\"file\":\"f.nc\",\"ncvar\":\"v\",\"shape\":[1]}}");
            }
            String json = b.append("]}").toString();
            NetcdfFileWriter w = NetcdfFileWriter.createNew(NetcdfFileWriter.Version.netcdf3, p.toString());
            w.addGroupAttribute(null, new Attribute("Conventions", "CF-1.7 CFA-0.4"));
            w.addDimension(null, "x", n);
            Variable v = w.addVariable(null, "v", DataType.INT, new ArrayList<Dimension>());
            v.addAttribute(new Attribute("cf_role", "cfa_variable"));
            v.addAttribute(new Attribute("cfa_dimensions", "x"));
            v.addAttribute(new Attribute("cfa_array", json));
            w.create();
            w.close();
        }
    },
    /**
     * A CF-1.13 variable of 1,000,000 one-element fragments (unique values), read whole: the plan is counted in
     * the read budget; the read either returns the right values or is refused naming the budget.
     */
    CF_1M_FRAGMENTS_READ_WHOLE(LimitExceededException.class, true) {
        @Override
        void make(Path p) throws Exception {
            int n = 1_000_000;
            NetcdfFileWriter w = NetcdfFileWriter.createNew(NetcdfFileWriter.Version.netcdf3, p.toString());
            w.addGroupAttribute(null, new Attribute("Conventions", "CF-1.13"));
            w.addDimension(null, "x", n);
            Dimension j = w.addDimension(null, "j", 1);
            Dimension f = w.addDimension(null, "f", n);
            Variable m = w.addVariable(null, "fragment_map", DataType.INT, List.of(j, f));
            Variable u = w.addVariable(null, "fragment_values", DataType.INT, List.of(f));
            Variable v = w.addVariable(null, "v", DataType.INT, new ArrayList<Dimension>());
            v.addAttribute(new Attribute("aggregated_dimensions", "x"));
            v.addAttribute(new Attribute("aggregated_data", "map: fragment_map unique_values: fragment_values"));
            w.create();
            int[] ones = new int[n];
            Arrays.fill(ones, 1);
            int[] values = new int[n];
            for (int k = 0; k < n; k++) {
                values[k] = k;
            }
            w.write(m, Array.factory(DataType.INT, new int[] {1, n}, ones));
            w.write(u, Array.factory(values));
            w.close();
        }

        @Override
        String check(Array a) {
            for (int k = 0; k < a.getSize(); k++) {
                if (a.getInt(k) != k) {
                    return "wrong value at " + k + ": " + a.getInt(k);
                }
            }
            return a.getSize() == 1_000_000 ? null : "read " + a.getSize() + " values";
        }
    };

    /** What opening or reading must end in (a subclass will do). */
    final Class<? extends NcZarrException> expected;
    /** Whether reading the whole variable correctly is also a good outcome. */
    final boolean successAllowed;

    AggregationBombs(Class<? extends NcZarrException> expected, boolean successAllowed) {
        this.expected = expected;
        this.successAllowed = successAllowed;
    }

    abstract void make(Path p) throws Exception;

    /** Null when the values read whole are right, else what is wrong. */
    String check(Array a) {
        return "read without an error";
    }

    Path file(Path root) {
        return root.resolve(name().toLowerCase(java.util.Locale.ROOT) + ".nc");
    }

    /** Opens each file below {@code args[0]} and reads {@code v} whole; one line each says how it ended. */
    public static void main(String[] args) {
        Path root = Path.of(args[0]);
        for (AggregationBombs b : values()) {
            String outcome;
            Throwable thrown = null;
            try (NetcdfFile nc = NcZarrFiles.open(b.file(root).toString())) {
                String wrong = b.check(nc.findVariable("v").read());
                outcome = wrong == null ? "READ_RIGHT" : "READ_WRONG " + wrong;
            } catch (Throwable t) {
                thrown = t;
                outcome = hasError(t) ? "ERROR_INSIDE" : "THROWN";
            }
            String property = thrown instanceof LimitExceededException l ? l.property() : "-";
            String message =
                    thrown == null ? "" : String.valueOf(thrown.getMessage()).replace('\n', ' ');
            System.out.println(String.join(
                    "\t",
                    "AGG",
                    b.name(),
                    outcome,
                    thrown == null ? "-" : thrown.getClass().getName(),
                    property,
                    message));
            System.out.flush();
        }
    }

    private static boolean hasError(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof Error) {
                return true;
            }
        }
        return false;
    }
}
