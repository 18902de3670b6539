package io.nczarr.cli;

import io.nczarr.cdm.NcZarrFiles;
import io.nczarr.model.DatasetModel;
import io.nczarr.model.GroupModel;
import io.nczarr.model.VarModel;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import ucar.ma2.Array;
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
                repeat = Integer.parseInt(args.get(++i));
            } else if (url == null) {
                url = a;
            } else {
                vars.add(a);
            }
        }
        if (url == null) {
            throw new IllegalArgumentException("bench needs a URL");
        }
        try (NetcdfFile nc = NcZarrFiles.open(url)) {
            nc.sendIospMessage(new ConsoleProgress(err));
            DatasetModel model = NcZarrFiles.model(nc);
            List<VarModel> targets = new ArrayList<>();
            collect(model.root(), vars, targets);
            if (targets.isEmpty()) {
                throw new IllegalArgumentException("no such variable(s) " + vars + " in " + url);
            }
            out.printf(
                    Locale.ROOT,
                    "%s: %d decode threads, %d cores%n",
                    url,
                    Integer.getInteger(
                            "nczarr.decodeThreads", Runtime.getRuntime().availableProcessors()),
                    Runtime.getRuntime().availableProcessors());
            for (VarModel vm : targets) {
                Variable v = nc.findVariable(fullName(model.root(), vm));
                long chunks = chunkCount(vm);
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

    private static void collect(GroupModel g, List<String> names, List<VarModel> out) {
        for (VarModel v : g.variables()) {
            String full = g.path().equals("/") ? v.name() : g.path().substring(1) + "/" + v.name();
            if (names.isEmpty() || names.contains(v.name()) || names.contains(full)) {
                out.add(v);
            }
        }
        g.groups().forEach(c -> collect(c, names, out));
    }

    private static String fullName(GroupModel g, VarModel target) {
        for (VarModel v : g.variables()) {
            if (v == target) {
                return g.path().equals("/") ? v.name() : g.path().substring(1) + "/" + v.name();
            }
        }
        for (GroupModel c : g.groups()) {
            String s = fullName(c, target);
            if (s != null) {
                return s;
            }
        }
        return null;
    }

    private static long chunkCount(VarModel v) {
        long n = 1;
        long[] shape = v.array().shape();
        int[] chunks = v.array().chunks();
        for (int d = 0; d < shape.length; d++) {
            n *= (shape[d] + chunks[d] - 1) / chunks[d];
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
