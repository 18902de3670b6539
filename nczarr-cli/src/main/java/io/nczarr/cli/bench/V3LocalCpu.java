package io.nczarr.cli.bench;

import io.nczarr.cdm.NcZarrFiles;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/**
 * CPU time of the local v3 sharded reads (bench/v3-cpu.sh, issue 26 stop 31): for each section of
 * bench/make_v3_sharded.py's array, a warm-up, then {@code --iters} reads of an open file, each timed by wall
 * clock and by the process's CPU time (all threads: the read's pool too). Prints one Markdown row per section:
 * best and median wall, mean process CPU per read, median CPU of the reading thread. For A/B runs of two jars under load: CPU time is what load moves
 * least.
 *
 * <p>usage: V3LocalCpu --data DIR [--iters N] [--label TEXT] [--only whole|chunk|row] [--reopen]
 * (--reopen: each read on a fresh open of the array, as bench/v3-bench.sh times them; the open is not timed)
 */
public final class V3LocalCpu {
    private V3LocalCpu() {}

    private static final String[][] SECTIONS = {
        {"whole", "0,0", "4096,4096"},
        {"chunk", "1536,2176", "128,128"},
        {"row", "2050,0", "1,4096"},
    };

    public static void main(String[] args) throws Exception {
        Path data = null;
        int iters = 20;
        String label = "ours";
        String only = null;
        boolean reopen = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--data" -> data = Paths.get(args[++i]);
                case "--iters" -> iters = Integer.parseInt(args[++i]);
                case "--label" -> label = args[++i];
                case "--only" -> only = args[++i];
                case "--reopen" -> reopen = true;
                default -> throw new IllegalArgumentException("usage: V3LocalCpu --data DIR [--iters N] [--label X]");
            }
        }
        if (data == null) {
            throw new IllegalArgumentException("usage: V3LocalCpu --data DIR [--iters N] [--label X]");
        }
        String url = data.resolve("v3sharded.zarr").toUri() + "#mode=zarr,file";
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (NetcdfFile nc = NcZarrFiles.open(url)) {
            Variable v = nc.findVariable("field");
            for (String[] s : SECTIONS) {
                if (only != null && !only.equals(s[0])) {
                    continue;
                }
                int[] origin = ints(s[1]);
                int[] shape = ints(s[2]);
                int n = s[0].equals("whole") ? iters : iters * 10;
                for (int i = 0; i < Math.max(3, n / 4); i++) {
                    v.read(origin, shape);
                }
                List<Double> wall = new ArrayList<>();
                List<Double> own = new ArrayList<>();
                long cpu = 0;
                for (int i = 0; i < n; i++) {
                    NetcdfFile f = reopen ? NcZarrFiles.open(url) : null;
                    try {
                        Variable r = f != null ? f.findVariable("field") : v;
                        long c0 = os.getProcessCpuTime();
                        long o0 = threads.getCurrentThreadCpuTime();
                        long t0 = System.nanoTime();
                        r.read(origin, shape);
                        long t1 = System.nanoTime();
                        own.add((threads.getCurrentThreadCpuTime() - o0) / 1e6);
                        // the process's CPU clock ticks in 10 ms: a mean over the reads, not per read
                        cpu += os.getProcessCpuTime() - c0;
                        wall.add((t1 - t0) / 1e6);
                    } finally {
                        if (f != null) {
                            f.close();
                        }
                    }
                }
                System.out.printf(
                        Locale.ROOT,
                        "| %s | %s%s | %d | %.3f | %.3f | %.3f | %.3f | %s |%n",
                        label,
                        s[0],
                        reopen ? " (fresh open)" : "",
                        n,
                        min(wall),
                        median(wall),
                        cpu / 1e6 / n,
                        median(own),
                        loadAverage());
            }
        }
    }

    private static String loadAverage() {
        return String.format(
                Locale.ROOT,
                "%.2f",
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    private static int[] ints(String s) {
        String[] p = s.split(",");
        int[] r = new int[p.length];
        for (int i = 0; i < p.length; i++) {
            r[i] = Integer.parseInt(p[i]);
        }
        return r;
    }

    private static double min(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    private static double median(List<Double> v) {
        double[] a = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return a[a.length / 2];
    }
}
