package io.nczarr.cli;

import java.io.OutputStream;
import java.io.PrintStream;

/**
 * The training run of the launcher's class-data archive ({@code ./nczarr} runs it once per build with {@code
 * -XX:ArchiveClassesAtExit}): the classes a command loads are recorded, and later JVMs map them instead of
 * parsing them. Besides {@code json} on the bundled sample it opens an S3 URL on a closed loopback port with one
 * attempt, so that the AWS SDK client and its request path are archived too: in a new JVM building the client
 * and its first request took 1.1-1.4 s, nearly all class loading (1,471 SDK and 302 Apache HttpClient classes),
 * which made every one-read process on S3 about 1 s slower than a warm one. Nothing leaves the machine.
 */
public final class CdsTraining {
    /** A loopback port nothing listens on (the discard service), so the S3 request is refused at once. */
    static final String S3_URL = "http://127.0.0.1:9/training/x.zarr#mode=zarr,s3&aws.profile=none";

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
        Main.run(new String[] {"json", S3_URL}, sink, sink);
        System.exit(rc);
    }
}
