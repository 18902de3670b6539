package io.nczarr.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The training run of the launcher's class-data archive ({@code ./nczarr} runs it once per build with {@code
 * -XX:ArchiveClassesAtExit}): the classes a command loads are recorded, and later JVMs map them instead of
 * parsing them. Besides {@code json} on the bundled sample it reads a small sharded Zarr v3 dataset from the
 * bundled test data through S3, served on a loopback port by a child process ({@code nczarr serve}, so that the
 * server's classes stay out of the archive), so that the S3 client path (the HTTP client, the signer, the LIST
 * parser, the GET answers, the shard and zstd readers) is archived too: a fresh process's first S3 open spent most
 * of its second loading those classes. Nothing leaves the machine; when the server does not start, the S3 open
 * goes to a closed loopback port instead, which still archives the client.
 */
public final class CdsTraining {
    /** A loopback port nothing listens on (the discard service), so the S3 request is refused at once. */
    static final String CLOSED_PORT_URL = "http://127.0.0.1:9/training/x.zarr#mode=zarr,s3&aws.profile=none";

    /** The sharded v3 dataset read over S3, relative to the folder of the sample. */
    static final String V3_DATASET = "autumn-2026/tensorstore_v3.zarr";

    private static final Pattern ENDPOINT = Pattern.compile("at (http://127\\.0\\.0\\.1:\\d+) ");

    private CdsTraining() {}

    /** @param args the sample dataset to run {@code json} on */
    public static void main(String[] args) {
        PrintStream sink = new PrintStream(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8);
        // one attempt, and short if something does listen there
        System.setProperty("nczarr.s3.maxAttempts", "1");
        System.setProperty("nczarr.s3.attemptTimeoutMs", "2000");
        System.setProperty("nczarr.s3.requestTimeoutMs", "2000");
        int rc = Main.run(new String[] {"json", args[0]}, sink, sink);
        Path data = Paths.get(args[0]).toAbsolutePath().getParent();
        if (data == null || !Files.isDirectory(data.resolve(V3_DATASET))) {
            Main.run(new String[] {"json", CLOSED_PORT_URL}, sink, sink);
            System.exit(rc);
        }
        Process server = null;
        try {
            server = serve(data);
            try (BufferedReader out =
                    new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))) {
                String endpoint = endpoint(server, out);
                String url = endpoint == null
                        ? CLOSED_PORT_URL
                        : endpoint + "/training/" + V3_DATASET + "#mode=zarr,s3&aws.profile=none";
                Main.run(new String[] {"dump", url}, sink, sink);
            }
        } catch (IOException e) {
            Main.run(new String[] {"json", CLOSED_PORT_URL}, sink, sink);
        } finally {
            if (server != null) {
                server.destroy();
            }
        }
        System.exit(rc);
    }

    /** {@code nczarr serve DIR} in a child JVM on a free loopback port. */
    private static Process serve(Path dir) throws IOException {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(List.of(
                        java,
                        "-Xshare:off",
                        "-cp",
                        System.getProperty("java.class.path"),
                        Main.class.getName(),
                        "serve",
                        dir.toString(),
                        "--bucket",
                        "training"))
                .redirectErrorStream(true)
                .start();
    }

    /** The server's endpoint from its first line, or null when it does not come up within 30 s. */
    private static String endpoint(Process server, BufferedReader out) throws IOException {
        // the server lives 30 s at most: one that neither speaks nor ends is stopped, which ends the read below
        Thread stop = new Thread(() -> {
            try {
                if (!server.waitFor(30, TimeUnit.SECONDS)) {
                    server.destroy();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        stop.setDaemon(true);
        stop.start();
        String line;
        while ((line = out.readLine()) != null) {
            Matcher m = ENDPOINT.matcher(line);
            if (m.find()) {
                // the rest of its output is not read: it is a few hundred bytes, well within the pipe
                return m.group(1);
            }
        }
        return null;
    }
}
