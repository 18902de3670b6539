package io.nczarr.cli.bench;

import io.nczarr.cdm.NcZarrFiles;
import java.util.Locale;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/**
 * The library's share of a process's first open: {@code NcZarrFiles.open} of the dataset plus one
 * whole read of every variable, timed from the first call into the library (JVM start-up and the
 * loading of this class excluded). One measurement per process: {@code bench/first-open.sh} starts
 * fresh JVMs and prints the spread.
 *
 * <p>With {@code -Dnczarr.bench.cdmFirst=true} cdm's own {@code NetcdfFile} class set-up (its IOSP
 * table: some 25 IOSP classes made, {@code RC} read; what any cdm application pays at its first open,
 * whatever the format) runs before the clock starts and is printed apart: what is left is ours.
 *
 * <pre>java -cp ... io.nczarr.cli.bench.FirstOpenBenchmark URL</pre>
 */
public final class FirstOpenBenchmark {
    private FirstOpenBenchmark() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: FirstOpenBenchmark URL");
            System.exit(2);
        }
        long cdm = 0;
        if (Boolean.getBoolean("nczarr.bench.cdmFirst")) {
            long c0 = System.nanoTime();
            Class.forName("ucar.nc2.NetcdfFile", true, FirstOpenBenchmark.class.getClassLoader());
            cdm = System.nanoTime() - c0;
        }
        long t0 = System.nanoTime();
        long elements = 0;
        try (NetcdfFile nc = NcZarrFiles.open(args[0])) {
            long opened = System.nanoTime();
            for (Variable v : nc.getVariables()) {
                elements += v.read().getSize();
            }
            long done = System.nanoTime();
            System.out.printf(
                    Locale.ROOT,
                    "open %.1f ms, open + read %.1f ms (%d variables, %d elements; cdm set-up before: %.1f ms)%n",
                    (opened - t0) / 1e6,
                    (done - t0) / 1e6,
                    nc.getVariables().size(),
                    elements,
                    cdm / 1e6);
        }
    }
}
