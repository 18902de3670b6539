package io.nczarr.cli.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One process per read, timed from its spawn: ours as a fresh JVM running {@link FreshRead} with the launcher's
 * default JVM options ({@link #launcherDefaults}), the anchors as one Python process each (bench/compare_read.py or
 * bench/v3_read.py {@code --oneshot}). Every child reports CLOCK_MONOTONIC time stamps (a JVM's
 * {@code System.nanoTime()} and Python's {@code time.monotonic_ns()} are that clock on Linux), so the time to data
 * splits into start-up (JVM start to {@code main} / interpreter start to the script's first line), imports, open and
 * read; the peak RSS and the CPU time (user + system, every thread, up to the values in memory) come from the
 * child itself (VmHWM from /proc/self/status).
 */
final class FreshProcesses {
    private FreshProcesses() {}

    /**
     * One process per read, the best of N by time to data: {@code wall} = spawn to exit, {@code toData} = spawn to
     * the values in memory (digest and exit excluded); the phases of that run; the largest peak RSS of the runs.
     */
    record Fresh(
            double wall,
            double toData,
            double start,
            double imports,
            double open,
            double read,
            long rssKib,
            double cpu,
            String sha256) {}

    /**
     * The JVM options {@code ./nczarr} adds for a read command when NCZARR_JAVA_OPTS sets none (keep in step with the
     * launcher; CompareBenchmarkTest checks that each of them is in it): its class-data archive when one is next to
     * nczarr-cli.jar, warnings only on stderr, the serial collector and a 32 MiB initial heap.
     */
    static List<String> launcherDefaults() {
        List<String> opts = new ArrayList<>();
        Path cds = launcherArchive();
        if (cds != null) {
            opts.add("-XX:SharedArchiveFile=" + cds);
            opts.add("-Xshare:auto");
        }
        opts.add("-Xlog:disable");
        opts.add("-Xlog:all=warning,cds*=off:stderr");
        opts.addAll(LAUNCHER_HEAP);
        return opts;
    }

    /** The launcher's heap and collector defaults (the case at the end of ./nczarr). */
    static final List<String> LAUNCHER_HEAP = List.of("-XX:+UseSerialGC", "-Xms32m");

    /** nczarr-cli/target/nczarr.jsa when this JVM runs from nczarr-cli.jar and the launcher has made the archive. */
    static Path launcherArchive() {
        for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            if (e.endsWith("nczarr-cli.jar")) {
                Path jsa = Paths.get(e).toAbsolutePath().resolveSibling("nczarr.jsa");
                return Files.isRegularFile(jsa) ? jsa : null;
            }
        }
        return null;
    }

    /**
     * java {launcher defaults} {NCZARR_JAVA_OPTS} {extra} -cp {this class path} FreshRead {args}; as in the launcher,
     * a collector or heap size in NCZARR_JAVA_OPTS replaces the default ones.
     */
    static List<String> ours(List<String> extraJvmOptions, String... args) {
        List<String> user = userOptions(System.getenv("NCZARR_JAVA_OPTS"));
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        List<String> defaults = new ArrayList<>(launcherDefaults());
        if (user.stream().anyMatch(FreshProcesses::setsHeap)) {
            defaults.removeAll(LAUNCHER_HEAP);
        }
        cmd.addAll(defaults);
        cmd.addAll(user);
        cmd.addAll(extraJvmOptions);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(FreshRead.class.getName());
        cmd.addAll(List.of(args));
        return cmd;
    }

    static List<String> userOptions(String env) {
        return env == null || env.isBlank() ? List.of() : List.of(env.trim().split("\\s+"));
    }

    /** The launcher's test: -XX:+Use...GC, -Xm..., -XX:InitialHeapSize, -XX:MaxHeapSize. */
    static boolean setsHeap(String opt) {
        return (opt.startsWith("-XX:+Use") && opt.endsWith("GC"))
                || opt.startsWith("-Xm")
                || opt.startsWith("-XX:InitialHeapSize")
                || opt.startsWith("-XX:MaxHeapSize");
    }

    /** Runs the command {@code iters} times; the best run by time to data (NaN and the error when every run fails). */
    static Fresh best(List<String> cmd, Map<String, String> env, int iters, long timeoutSeconds)
            throws IOException, InterruptedException {
        Fresh best = null;
        long rss = -1;
        String sha = null;
        for (int i = 0; i < iters; i++) {
            Fresh f = once(cmd, env, timeoutSeconds);
            rss = Math.max(rss, f.rssKib());
            sha = sha == null || sha.equals(f.sha256()) ? f.sha256() : "differs-between-runs";
            if (best == null || Double.isNaN(best.toData()) || f.toData() < best.toData()) {
                best = f;
            }
        }
        if (best == null) {
            return new Fresh(
                    Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, -1, Double.NaN, "not-run");
        }
        return new Fresh(
                best.wall(),
                best.toData(),
                best.start(),
                best.imports(),
                best.open(),
                best.read(),
                rss,
                best.cpu(),
                sha);
    }

    private static Fresh once(List<String> cmd, Map<String, String> env, long timeoutSeconds)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.environment().putAll(env);
        long t0 = System.nanoTime();
        Process p = pb.start();
        long[] phases = null;
        long rss = -1;
        double cpu = Double.NaN;
        String last = null;
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                String[] f = line.trim().split(" ");
                if (f[0].equals("PHASES") && f.length == 5) {
                    phases = new long[] {
                        Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]), Long.parseLong(f[4])
                    };
                } else if (f[0].equals("RSS") && f.length == 2) {
                    rss = Long.parseLong(f[1]);
                } else if (f[0].equals("CPU") && f.length == 2) {
                    cpu = Long.parseLong(f[1]) / 100.0; // clock ticks: USER_HZ is 100 on Linux
                } else if (!f[0].equals("VERSION") && !line.isBlank()) {
                    last = line.trim();
                }
            }
        }
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return new Fresh(
                    Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, -1, Double.NaN, "timeout");
        }
        double wall = (System.nanoTime() - t0) / 1e9;
        String sha = p.exitValue() == 0 && last != null ? last : "exit-" + p.exitValue();
        if (phases == null) {
            return new Fresh(wall, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, rss, cpu, sha);
        }
        return new Fresh(
                wall,
                (phases[3] - t0) / 1e9,
                (phases[0] - t0) / 1e9,
                (phases[1] - phases[0]) / 1e9,
                (phases[2] - phases[1]) / 1e9,
                (phases[3] - phases[2]) / 1e9,
                rss,
                cpu,
                sha);
    }
}
