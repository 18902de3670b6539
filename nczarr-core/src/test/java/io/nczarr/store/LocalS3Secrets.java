package io.nczarr.store;

import io.nczarr.testkit.s3.LocalS3;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The key ids and secrets of the loopback S3 server's profiles, read from the credentials file it writes. */
final class LocalS3Secrets {
    private LocalS3Secrets() {}

    static List<String> all() {
        LocalS3.get();
        String file = System.getProperty("nczarr.aws.credentialsFile");
        List<String> out = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(Path.of(file))) {
                int eq = line.indexOf('=');
                if (eq > 0 && line.trim().startsWith("aws_")) {
                    out.add(line.substring(eq + 1).trim());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (out.size() < 2) {
            throw new IllegalStateException("no secrets found in " + file);
        }
        return out;
    }
}
