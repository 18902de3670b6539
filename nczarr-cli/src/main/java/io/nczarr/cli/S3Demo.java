package io.nczarr.cli;

import io.nczarr.cdm.NcZarrFiles;
import io.nczarr.s3.AwsEnvironment;
import io.nczarr.testkit.s3.CountingProxy;
import io.nczarr.testkit.s3.LocalS3Server;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import ucar.ma2.Array;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/**
 * {@code ./nczarr demo}: the S3 store end to end without a cloud account. Starts a real
 * S3-protocol server on 127.0.0.1 (S3Proxy, in memory, signed requests only), uploads the
 * bundled NCZarr sample, writes a throw-away AWS credentials file for it, opens the dataset by
 * an {@code http://127.0.0.1:PORT/bucket/key#mode=nczarr,s3&aws.profile=...} URL, prints its CDL
 * header, a few values and what it cost in requests, and stops the server.
 */
public final class S3Demo {
    private S3Demo() {}

    static final String BUCKET = "nczarr-demo";
    static final String PROFILE = "nczarr-demo";

    static int run(List<String> args, PrintStream out, PrintStream err) {
        if (!args.isEmpty()) {
            throw new Main.UsageException("demo takes no arguments");
        }
        Path sample = Main.home().resolve("test-data").resolve("sample.file");
        if (!Files.isDirectory(sample)) {
            err.println("nczarr: the bundled sample " + sample + " is missing");
            return 1;
        }
        Path awsDir = null;
        String oldCredentials = System.getProperty(AwsEnvironment.CREDENTIALS_FILE_PROPERTY);
        String oldConfig = System.getProperty(AwsEnvironment.CONFIG_FILE_PROPERTY);
        try {
            // a fresh key pair for this run only
            String keyId = "AKIADEMO" + HexFormat.of().formatHex(random(6)).toUpperCase();
            String secret = HexFormat.of().formatHex(random(20));
            awsDir = Files.createTempDirectory("nczarr-demo-aws");
            Path credentials = awsDir.resolve("credentials");
            Path config = awsDir.resolve("config");
            Files.writeString(
                    credentials,
                    "[" + PROFILE + "]\naws_access_key_id = " + keyId + "\naws_secret_access_key = " + secret + "\n");
            Files.writeString(config, "[profile " + PROFILE + "]\nregion = us-east-1\n");
            System.setProperty(AwsEnvironment.CREDENTIALS_FILE_PROPERTY, credentials.toString());
            System.setProperty(AwsEnvironment.CONFIG_FILE_PROPERTY, config.toString());

            out.println("# starting an S3 server on loopback (S3Proxy, in memory, AWS signatures required)");
            try (LocalS3Server server = LocalS3Server.start(keyId, secret);
                    CountingProxy counter = CountingProxy.start(server.endpoint())) {
                List<String> keys = server.upload(sample, BUCKET, "datasets/sample.file");
                out.println("# uploaded " + keys.size() + " objects of " + sample + " to bucket " + BUCKET);
                out.println("# credentials: profile '" + PROFILE + "' in a temporary file ("
                        + AwsEnvironment.CREDENTIALS_FILE_PROPERTY + ", like AWS_SHARED_CREDENTIALS_FILE)");
                String url = counter.endpoint() + "/" + BUCKET + "/datasets/sample.file#mode=nczarr,s3&aws.profile="
                        + PROFILE;
                out.println("# opening " + url);
                out.println();
                try (NetcdfFile nc = NcZarrFiles.open(url)) {
                    CountingProxy.Counts opened = counter.counts();
                    Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8);
                    CdlWriter.write(nc, "sample", CdlWriter.Values.NONE, null, w);
                    w.flush();
                    out.println();
                    out.println("# a few values");
                    for (String name : new String[] {"time", "temp", "precip", "obs/t2m"}) {
                        Variable v = nc.findVariable(name);
                        if (v != null) {
                            out.println(name + " = " + head(v.read(), 8));
                        }
                    }
                    out.println();
                    out.println("# requests seen by the server: open " + opened);
                    CountingProxy.Counts all = counter.counts();
                    out.println("#                               open + reads " + all);
                }
            }
            out.println("# server stopped");
            return 0;
        } catch (IOException | RuntimeException e) {
            err.println("nczarr: demo failed: " + e.getMessage());
            return 1;
        } finally {
            restore(AwsEnvironment.CREDENTIALS_FILE_PROPERTY, oldCredentials);
            restore(AwsEnvironment.CONFIG_FILE_PROPERTY, oldConfig);
            deleteQuietly(awsDir);
        }
    }

    private static String head(Array a, int n) {
        StringBuilder sb = new StringBuilder("[");
        long size = a.getSize();
        for (int i = 0; i < Math.min(n, size); i++) {
            sb.append(i == 0 ? "" : ", ").append(a.getObject(i));
        }
        return sb.append(size > n ? ", ... (" + size + " values)]" : "]").toString();
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    private static byte[] random(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return b;
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (var s = Files.list(dir)) {
            for (Path p : s.toList()) {
                Files.deleteIfExists(p);
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // a temporary folder
        }
    }
}
