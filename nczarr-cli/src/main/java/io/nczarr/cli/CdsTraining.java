package io.nczarr.cli;

import io.nczarr.testkit.s3.DirectoryS3Server;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * The training run of the launcher's class-data archive ({@code ./nczarr} runs it once per build with {@code
 * -XX:ArchiveClassesAtExit}): the classes a command loads are recorded, and later JVMs map them instead of
 * parsing them. Besides {@code json} on the bundled sample it reads a small sharded Zarr v3 dataset from the
 * bundled test data through S3, served on a loopback port for the run, so that the S3 path (the HTTP client, the
 * signer, the LIST parser, the GET answers, the shard and zstd readers) is archived too: a fresh process's first
 * S3 open spent most of its second loading those classes. Nothing leaves the machine; without the test data the
 * S3 open goes to a closed loopback port instead, which still archives the client.
 */
public final class CdsTraining {
    /** A loopback port nothing listens on (the discard service), so the S3 request is refused at once. */
    static final String CLOSED_PORT_URL = "http://127.0.0.1:9/training/x.zarr#mode=zarr,s3&aws.profile=none";

    /** The sharded v3 dataset read over S3, relative to the folder of the sample. */
    static final String V3_DATASET = "autumn-2026/tensorstore_v3.zarr";

    private CdsTraining() {}

    /** @param args the sample dataset to run {@code json} on */
    public static void main(String[] args) {
        PrintStream sink =
                new PrintStream(OutputStream.nullOutputStream(), false, java.nio.charset.StandardCharsets.UTF_8);
        // one attempt, and short if something does listen there
        System.setProperty("nczarr.s3.maxAttempts", "1");
        System.setProperty("nczarr.s3.attemptTimeoutMs", "2000");
        System.setProperty("nczarr.s3.requestTimeoutMs", "2000");
        int rc = Main.run(new String[] {"json", args[0]}, sink, sink);
        Path data = Paths.get(args[0]).toAbsolutePath().getParent();
        if (data != null && Files.isDirectory(data.resolve(V3_DATASET))) {
            try (DirectoryS3Server s3 = DirectoryS3Server.start(data, "training", 0)) {
                String url = s3.endpoint() + "/training/" + V3_DATASET + "#mode=zarr,s3&aws.profile=none";
                Main.run(new String[] {"dump", url}, sink, sink);
            } catch (IOException e) {
                Main.run(new String[] {"json", CLOSED_PORT_URL}, sink, sink);
            }
        } else {
            Main.run(new String[] {"json", CLOSED_PORT_URL}, sink, sink);
        }
        System.exit(rc);
    }
}
