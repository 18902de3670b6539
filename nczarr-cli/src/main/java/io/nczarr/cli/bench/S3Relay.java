package io.nczarr.cli.bench;

import io.nczarr.testkit.s3.CountingProxy;
import io.nczarr.testkit.s3.LocalS3Server;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Locale;

/**
 * The loopback S3 server behind the latency relay, as a process of its own for benchmarks driven from Python
 * (bench/spark-bench.sh {@code --s3}): uploads a directory into bucket {@code bench} under its file name,
 * starts S3Proxy's unauthenticated endpoint behind a {@link CountingProxy} adding the latency to every
 * request, prints {@code endpoint http://127.0.0.1:PORT} and then answers its standard input: {@code counts}
 * prints the relay's request counts since the last {@code counts} ({@code counts N GET LIST HEAD OTHER BYTES})
 * and resets them; end of input (or {@code quit}) stops it. Readers use {@code
 * http://127.0.0.1:PORT/bench/NAME#mode=zarr,s3&aws.profile=none} (no credentials: the anonymous endpoint).
 *
 * <p>Usage: {@code S3Relay DIR [latencyMs=20]}.
 */
public final class S3Relay {
    private S3Relay() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: S3Relay DIR [latencyMs=20]");
            System.exit(2);
        }
        Path dir = Paths.get(args[0]).toAbsolutePath().normalize();
        long latency = args.length > 1 ? Long.parseLong(args[1]) : 20;
        try (LocalS3Server server = LocalS3Server.start(CompareBenchmark.KEY_ID, CompareBenchmark.SECRET);
                CountingProxy proxy = CountingProxy.start(server.anonymousEndpoint())) {
            long t0 = System.nanoTime();
            Path name = dir.getFileName();
            int n = server.upload(dir, "bench", name == null ? "data" : name.toString())
                    .size();
            System.err.printf(
                    Locale.ROOT, "uploaded %s: %d objects in %.1f s%n", dir, n, (System.nanoTime() - t0) / 1e9);
            proxy.latency(Duration.ofMillis(latency));
            System.out.println("endpoint " + proxy.endpoint().toString().replaceAll("/$", ""));
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = in.readLine(); line != null && !line.trim().equals("quit"); line = in.readLine()) {
                if (line.trim().equals("counts")) {
                    CountingProxy.Counts c = proxy.counts();
                    proxy.reset();
                    System.out.printf(
                            Locale.ROOT,
                            "counts %d %d %d %d %d %d%n",
                            c.total(),
                            c.get(),
                            c.list(),
                            c.head(),
                            c.other(),
                            c.responseBytes());
                    System.out.flush();
                }
            }
        }
    }
}
