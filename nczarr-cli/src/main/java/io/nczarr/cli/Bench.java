package io.nczarr.cli;

import io.nczarr.cdm.NcZarrFiles;
import io.nczarr.error.Redaction;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import ucar.ma2.Array;
import ucar.nc2.Attribute;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/**
 * {@code nczarr bench URL [var ...] [--repeat N]}: reads whole variables through netCDF-Java
 * (the path users take) and prints decoded MB/s, chunks/s and peak heap. 1 MB = 10^6 bytes.
 */
final class Bench {
    private Bench() {}

    static int run(List<String> args, PrintStream out, PrintStream err) throws IOException {
        int repeat = 3;
        String url = null;
        List<String> vars = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--repeat")) {
                repeat = Main.intOption(a, Main.optionValue(args, i++), 1);
            } else if (a.startsWith("-") && a.length() > 1) {
                throw new Main.UsageException("unknown option " + a);
            } else if (url == null) {
                url = a;
            } else {
                vars.add(a);
            }
        }
        if (url == null) {
            throw new Main.UsageException("bench needs a URL");
        }
        try (NetcdfFile nc = NcZarrFiles.open(url)) {
            nc.sendIospMessage(new ConsoleProgress(err));
            List<Variable> targets = new ArrayList<>();
            for (Variable v : nc.getVariables()) {
                if (vars.isEmpty() || vars.contains(v.getShortName()) || vars.contains(v.getFullName())) {
                    targets.add(v);
                }
            }
            List<String> missing = new ArrayList<>(vars);
            for (Variable v : targets) {
                missing.remove(v.getShortName());
                missing.remove(v.getFullName());
            }
            if (!missing.isEmpty()) {
                throw new IllegalArgumentException("no variable " + String.join(", ", missing) + " in the dataset");
            }
            if (targets.isEmpty()) {
                throw new IllegalArgumentException("the dataset has no variables");
            }
            out.printf(
                    Locale.ROOT,
                    "%s: %d decode threads, %d cores%n",
                    Redaction.redact(url),
                    Integer.getInteger(
                            "nczarr.decodeThreads", Runtime.getRuntime().availableProcessors()),
                    Runtime.getRuntime().availableProcessors());
            for (Variable v : targets) {
                long chunks = chunkCount(v);
                double best = Double.MAX_VALUE;
                long bytes = 0;
                for (int r = 0; r < repeat; r++) {
                    resetPeaks();
                    long t0 = System.nanoTime();
                    Array a = v.read();
                    double secs = (System.nanoTime() - t0) / 1e9;
                    bytes = a.getSize() * Math.max(1, v.getElementSize());
                    best = Math.min(best, secs);
                    out.printf(
                            Locale.ROOT,
                            "  %-24s run %d: %8.3f s %9.1f MB/s %10.0f chunks/s  peak heap %6.0f MB%n",
                            v.getFullName(),
                            r + 1,
                            secs,
                            bytes / 1e6 / secs,
                            chunks / secs,
                            peakHeap() / 1e6);
                }
                out.printf(
                        Locale.ROOT,
                        "  %-24s best:  %8.3f s %9.1f MB/s %10.0f chunks/s  (%d chunks, %.1f MB decoded)%n",
                        v.getFullName(),
                        best,
                        bytes / 1e6 / best,
                        chunks / best,
                        chunks,
                        bytes / 1e6);
            }
        }
        return 0;
    }

    /**
     * Chunks per whole read, from the {@code _ChunkSizes} attribute (this plugin's and cdm's HDF5 reader's);
     * 1 for a contiguous variable (a netCDF-3 file under {@code #mode=bytes}).
     */
    private static long chunkCount(Variable v) {
        Attribute cs = v.findAttribute("_ChunkSizes");
        int[] shape = v.getShape();
        if (cs == null || cs.isString() || cs.getLength() != shape.length) {
            return 1;
        }
        long n = 1;
        for (int d = 0; d < shape.length; d++) {
            long c = Math.max(1, cs.getNumericValue(d).longValue());
            n *= (shape[d] + c - 1) / c;
        }
        return n;
    }

    private static void resetPeaks() {
        System.gc();
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) {
                p.resetPeakUsage();
            }
        }
    }

    private static long peakHeap() {
        long sum = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) {
                sum += p.getPeakUsage().getUsed();
            }
        }
        return sum;
    }
}
