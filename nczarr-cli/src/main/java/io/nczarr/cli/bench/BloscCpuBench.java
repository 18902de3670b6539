package io.nczarr.cli.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nczarr.cdm.NcZarrFiles;
import io.nczarr.codec.Codec;
import io.nczarr.codec.CodecConfig;
import io.nczarr.codec.CodecRegistry;
import io.nczarr.codec.NativeCodecs;
import io.nczarr.open.NcZarrOptions;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import ucar.ma2.Array;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/**
 * CPU per decoded MB of blosc arrays (issue 26; driven by {@code bench/blosc-cpu.sh}): {@code BloscCpuBench
 * DATA ROUNDS STORE...} reads each {@code DATA/STORE/temperature} whole through netCDF-Java, the default
 * options (native decoders where faster, all cores), and prints the process CPU time per decoded MB (10^6
 * bytes) and the wall time per read, the mean of ROUNDS reads, then decodes the same chunk files on this thread alone
 * (thread CPU per MB, the codec only, into a reused buffer as the chunk reader does). As many untimed reads
 * (at least 2) come first. Output: {@code RESULT store readCpuMsPerMB readWallMs decodeCpuMsPerMB sha256}.
 */
public final class BloscCpuBench {
    private BloscCpuBench() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: BloscCpuBench DATA ROUNDS STORE...");
            System.exit(2);
        }
        Path data = Path.of(args[0]);
        int rounds = Integer.parseInt(args[1]);
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        for (int s = 2; s < args.length; s++) {
            Path array = data.resolve(args[s]).resolve("temperature");
            double cpu;
            double wall;
            String sha;
            long bytes;
            try (NetcdfFile nc =
                    NcZarrFiles.open(data.resolve(args[s]).toUri() + "#mode=zarr,file", NcZarrOptions.shared())) {
                Variable v = nc.findVariable("temperature");
                Array first = v.read();
                sha = OursReads.sha256(first);
                bytes = first.getSize() * 4;
                for (int r = 0; r < Math.max(2, rounds); r++) {
                    v.read(); // warm-up: the JIT compiles the path (its threads' CPU counts in the process)
                }
                // the mean of the rounds: the process CPU clock ticks in 10 ms steps here
                long c0 = os.getProcessCpuTime();
                long t0 = System.nanoTime();
                for (int r = 0; r < rounds; r++) {
                    v.read();
                }
                wall = (System.nanoTime() - t0) / 1e6 / rounds;
                cpu = (os.getProcessCpuTime() - c0) / 1e6 / rounds;
            }
            double mb = bytes / 1e6;
            System.out.printf(
                    Locale.ROOT,
                    "RESULT %s %.4f %.2f %.4f %s%n",
                    args[s],
                    cpu / mb,
                    wall,
                    decodeCpuMsPerMb(array, rounds),
                    sha);
        }
    }

    /** Thread CPU ms per decoded MB of the array's chunk files through its compressor, best round. */
    private static double decodeCpuMsPerMb(Path array, int rounds) throws Exception {
        JsonNode zarray = new ObjectMapper().readTree(array.resolve(".zarray").toFile());
        JsonNode comp = zarray.get("compressor");
        String dtype = zarray.get("dtype").asText();
        Codec codec = CodecRegistry.standard(NativeCodecs.load())
                .create(new CodecConfig(comp.get("id").asText(), comp, dtype));
        int len = 4;
        for (JsonNode n : zarray.get("chunks")) {
            len *= n.asInt();
        }
        List<byte[]> chunks = new ArrayList<>();
        try (Stream<Path> files = Files.list(array)) {
            for (Path p : (Iterable<Path>)
                    files.filter(p -> !p.getFileName().toString().startsWith("."))::iterator) {
                chunks.add(Files.readAllBytes(p));
            }
        }
        byte[] out = new byte[len];
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        double best = Double.MAX_VALUE;
        for (int r = -2; r < rounds; r++) {
            long c0 = threads.getCurrentThreadCpuTime();
            for (byte[] c : chunks) {
                if (codec.decodeInto(c, out, len) != out) {
                    throw new IllegalStateException(array + ": a chunk did not decode to " + len + " bytes");
                }
            }
            double ms = (threads.getCurrentThreadCpuTime() - c0) / 1e6;
            if (r >= 0) {
                best = Math.min(best, ms);
            }
        }
        return best / (chunks.size() * (double) len / 1e6);
    }
}
