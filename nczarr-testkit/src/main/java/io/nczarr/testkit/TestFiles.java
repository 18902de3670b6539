package io.nczarr.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The netCDF files of the mode=bytes tests: test-data/bytes/*.nc and the shared corpus' twins. */
public final class TestFiles {
    private TestFiles() {}

    /** test-data/bytes of this repository ({@code repo.dir}, set by the parent pom for surefire). */
    public static Path bytesDir() {
        Path p = Paths.get(System.getProperty("repo.dir", ".."))
                .toAbsolutePath()
                .normalize()
                .resolve("test-data")
                .resolve("bytes");
        if (!Files.isRegularFile(p.resolve("classic.nc"))) {
            throw new IllegalStateException("test-data/bytes not found at " + p);
        }
        return p;
    }

    private static Path corpusDir() {
        return Corpus.corpusDir();
    }

    /** Every netCDF file to serve: ours first, then the corpus' {@code *.twin.nc}, sorted. */
    public static List<Path> netcdfFiles() {
        List<Path> out = new ArrayList<>(list(bytesDir(), 1));
        out.addAll(list(corpusDir(), Integer.MAX_VALUE).stream()
                .filter(p -> p.getFileName().toString().endsWith(".twin.nc"))
                .toList());
        return out;
    }

    private static List<Path> list(Path dir, int depth) {
        try (Stream<Path> s = Files.walk(dir, depth)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".nc") && Files.isRegularFile(p))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A URL path for a file: {@code bytes/classic.nc}, {@code corpus/nczarr/x.twin.nc}. */
    public static String name(Path p) {
        Path corpus = corpusDir();
        if (p.startsWith(corpus)) {
            return "corpus/" + corpus.relativize(p).toString().replace('\\', '/');
        }
        return "bytes/" + p.getFileName();
    }
}
