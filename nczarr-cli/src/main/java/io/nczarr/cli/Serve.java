package io.nczarr.cli;

import io.nczarr.testkit.s3.DirectoryS3Server;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

/**
 * {@code nczarr serve DIR [--port N] [--bucket NAME]}: the user's directory as one read-only S3 bucket on
 * 127.0.0.1, with the URLs and profile settings to read its datasets in S3 mode. Runs until interrupted.
 */
final class Serve {
    private Serve() {}

    static final String DEFAULT_BUCKET = "data";
    static final String PROFILE = "nczarr-serve";

    static int run(List<String> args, PrintStream out) throws IOException {
        DirectoryS3Server server = start(args, out);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }));
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            server.close();
        }
        return 0;
    }

    /** Starts the server and prints how to use it; the caller closes it. */
    static DirectoryS3Server start(List<String> args, PrintStream out) throws IOException {
        Path dir = null;
        int port = 0;
        String bucket = DEFAULT_BUCKET;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--port") || a.equals("--bucket")) {
                if (i + 1 >= args.size()) {
                    throw new Main.UsageException(a + " needs a value");
                }
                String v = args.get(++i);
                if (a.equals("--bucket")) {
                    bucket = v;
                } else {
                    port = Main.intOption("--port", v, 0);
                    if (port > 65535) {
                        throw new Main.UsageException("--port " + port + " is not a port number");
                    }
                }
            } else if (a.startsWith("-")) {
                throw new Main.UsageException("unknown option " + a);
            } else if (dir != null) {
                throw new Main.UsageException("serve takes one directory");
            } else {
                dir = Paths.get(a).toAbsolutePath().normalize();
            }
        }
        if (dir == null) {
            throw new Main.UsageException("serve needs a directory");
        }
        if (!bucket.matches("[a-z0-9][a-z0-9.-]{2,62}")) {
            throw new Main.UsageException("--bucket '" + bucket + "' is not an S3 bucket name (3-63 of a-z 0-9 . -)");
        }
        DirectoryS3Server server = DirectoryS3Server.start(dir, bucket, port);
        String base = server.endpoint() + "/" + bucket + "/";
        String authority = server.endpoint().getRawAuthority();
        out.println("# serving " + dir + " read-only as S3 bucket '" + bucket + "' at " + server.endpoint()
                + " (loopback only; Ctrl-C stops)");
        List<String[]> found = datasets(dir);
        out.println("#");
        out.println(
                "# datasets found (" + found.size() + "); open one with ./nczarr dump URL or NcZarrFiles.open(URL):");
        for (String[] d : found) {
            out.println(base + d[0] + "#mode=" + d[1] + ",s3&aws.profile=none");
        }
        if (found.isEmpty()) {
            out.println("#   (none: no .zgroup, .zarray or zarr.json within 4 levels) keys are the paths below " + dir);
        }
        out.println("#");
        out.println("# URL forms: http://" + authority + "/" + bucket + "/<path>#mode=<nczarr|zarr>,s3");
        out.println("#   s3://" + authority + "/" + bucket + "/<path>#mode=...  is netcdf-c's form for the same"
                + " object, but s3://host:port means https and this server speaks plain http: use http://");
        out.println("# credentials: none needed (aws.profile=none sends unsigned requests; any key is accepted)."
                + " For a tool that insists on a profile:");
        out.println("#   ~/.aws/credentials:  [" + PROFILE + "]          aws_access_key_id = any");
        out.println("#                                           aws_secret_access_key = any");
        out.println("#   ~/.aws/config:       [profile " + PROFILE + "]  region = us-east-1");
        out.println("#   then ...#mode=nczarr,s3&aws.profile=" + PROFILE);
        out.flush();
        return server;
    }

    /** Dataset roots below {@code dir} (path relative to it, mode), at most 4 levels down. */
    static List<String[]> datasets(Path dir) throws IOException {
        List<String[]> out = new ArrayList<>();
        List<Path> dirs;
        try (Stream<Path> s = Files.walk(dir, 4)) {
            dirs = s.filter(Files::isDirectory).sorted().toList();
        }
        List<Path> roots = new ArrayList<>();
        for (Path d : dirs) {
            boolean isRoot = Files.exists(d.resolve(".zgroup"))
                    || Files.exists(d.resolve(".zarray"))
                    || Files.exists(d.resolve("zarr.json"));
            boolean inside = roots.stream().anyMatch(d::startsWith);
            if (isRoot && !inside && !d.equals(dir)) {
                roots.add(d);
                String rel = dir.relativize(d).toString().replace('\\', '/');
                out.add(new String[] {rel, isNcZarr(d) ? "nczarr" : "zarr"});
            }
        }
        return out;
    }

    private static boolean isNcZarr(Path d) throws IOException {
        if (Files.exists(d.resolve(".nczgroup")) || Files.exists(d.resolve(".nczarray"))) {
            return true;
        }
        for (String f : new String[] {".zgroup", ".zattrs", "zarr.json"}) {
            Path p = d.resolve(f);
            if (Files.isRegularFile(p) && Files.size(p) < 1 << 20) {
                if (new String(Files.readAllBytes(p), StandardCharsets.UTF_8)
                        .toLowerCase(Locale.ROOT)
                        .contains("_nczarr")) {
                    return true;
                }
            }
        }
        return false;
    }
}
