package io.nczarr.cli.bench;

import io.nczarr.cdm.NcZarrFiles;
import io.nczarr.open.NcZarrOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import ucar.ma2.Array;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/**
 * One read per process, as the CLI or a short batch job does it: the child of the benchmarks' fresh-process
 * columns ({@link FreshProcesses}, started with the launcher's default JVM options). Opens the dataset, reads the
 * variable (or one section of it) once and prints, on four lines:
 *
 * <pre>
 * PHASES main main opened read   (System.nanoTime(), i.e. CLOCK_MONOTONIC on Linux, at main's first line,
 *                                 after the open, after the read; "main" twice: a JVM has no import phase)
 * RSS kib                        (VmHWM, the peak resident set so far, from /proc/self/status)
 * CPU ticks                      (user + system CPU time of the process so far, all threads, 1/100 s, /proc/self/stat)
 * sha256                         (of the values as little-endian bytes in C order)
 * </pre>
 *
 * usage: {@code FreshRead URL VAR [ORIGIN SHAPE]} (ORIGIN and SHAPE comma-separated)
 */
public final class FreshRead {
    private FreshRead() {}

    public static void main(String[] args) throws Exception {
        long main = System.nanoTime();
        if (args.length != 2 && args.length != 4) {
            System.err.println("usage: FreshRead URL VAR [ORIGIN SHAPE]");
            System.exit(2);
        }
        String sha;
        try (NetcdfFile nc = NcZarrFiles.open(args[0])) {
            Variable v = nc.findVariable(args[1]);
            if (v == null) {
                throw new IOException("no variable " + args[1] + " in " + args[0]);
            }
            long opened = System.nanoTime();
            Array a = args.length == 2 ? v.read() : v.read(ints(args[2]), ints(args[3]));
            long read = System.nanoTime();
            System.out.println("PHASES " + main + " " + main + " " + opened + " " + read);
            System.out.println("RSS " + peakRssKib());
            System.out.println("CPU " + cpuTicks());
            sha = OursReads.sha256(a);
        }
        System.out.println(sha);
        System.out.flush();
        NcZarrOptions.closeShared();
        System.exit(0);
    }

    /** VmHWM of this process in KiB (-1 where /proc is missing). */
    static long peakRssKib() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /** utime + stime of this process in clock ticks (1/100 s on Linux; -1 where /proc is missing). */
    static long cpuTicks() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]); // fields 14 and 15 of proc(5)
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static int[] ints(String s) {
        return Arrays.stream(s.split(",")).mapToInt(Integer::parseInt).toArray();
    }
}
