package io.nczarr.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/** The shared conformance corpus and the project's own test-data, as lists of entries. */
public final class Corpus {
    public static final String CORPUS_PROPERTY = "corpus.dir";

    private Corpus() {}

    /** One dataset of an INDEX.json. */
    public record Entry(String name, Path path, String fragment, Path expected, Path twin, String category) {
        public String url() {
            return path.toUri().toString().replaceAll("/$", "") + fragment;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /**
     * The shared conformance corpus: {@code -Dcorpus.dir} (the parent pom sets it to {@code ../shared/corpus}
     * beside the repository). It is third-party data, not part of the repository: every test that needs it
     * comes here, and without it the test is skipped ({@link CorpusAbsentException}, one line per test class
     * from {@link CorpusSkipReport}). {@code .ci/run} insists on it.
     */
    public static Path corpusDir() {
        return corpusDir(System.getProperty(CORPUS_PROPERTY));
    }

    static Path corpusDir(String property) {
        Path p = location(property);
        if (!present(p)) {
            throw new CorpusAbsentException(missing(p));
        }
        return p;
    }

    /** Whether the shared conformance corpus is there (tests that need it are skipped when not). */
    public static boolean corpusPresent() {
        return present(location(System.getProperty(CORPUS_PROPERTY)));
    }

    private static Path location(String property) {
        return Paths.get(property == null ? "../../shared/corpus" : property)
                .toAbsolutePath()
                .normalize();
    }

    private static boolean present(Path p) {
        return Files.isRegularFile(p.resolve("INDEX.json"));
    }

    /** The corpus location as the skip lines show it: {@code ../shared} when it is the pom's default. */
    static String shownCorpusLocation() {
        Path p = location(System.getProperty(CORPUS_PROPERTY));
        Path repoParent = Paths.get(System.getProperty("repo.dir", ".."))
                .toAbsolutePath()
                .normalize()
                .getParent();
        Path shared = p.getParent();
        if (shared == null) {
            return p.toString();
        }
        return repoParent != null && shared.equals(repoParent.resolve("shared")) ? "../shared" : shared.toString();
    }

    /** The message of a missing corpus. */
    static String missing(Path p) {
        return "conformance corpus not found at " + p + " (third-party data beside the repository, not part of"
                + " it; tests that need it are skipped): clone the repository next to shared/ (as CI does) or run"
                + " Maven with -D" + CORPUS_PROPERTY + "=/path/to/shared/corpus";
    }

    /** This repository's test-data ({@code -Drepo.dir}, set by the parent pom). */
    public static Path testDataDir() {
        Path p = Paths.get(System.getProperty("repo.dir", ".."))
                .toAbsolutePath()
                .normalize()
                .resolve("test-data");
        if (!Files.isRegularFile(p.resolve("INDEX.json"))) {
            throw new IllegalStateException("the repository's test-data is not at " + p + " (run Maven from the"
                    + " repository, or set -Drepo.dir)");
        }
        return p;
    }

    /** The shared corpus' good datasets. */
    public static List<Entry> datasets() {
        return entries(corpusDir(), "datasets");
    }

    /** The shared corpus' bad inputs. */
    public static List<Entry> bad() {
        return entries(corpusDir(), "bad");
    }

    /** The project's own test-data. */
    public static List<Entry> testData() {
        return entries(testDataDir(), "datasets");
    }

    /** This repository's Zarr v3 test data ({@code test-data/v3}, its own INDEX.json). */
    public static Path v3Dir() {
        return testDataDir().resolve("v3");
    }

    /** The Zarr v3 good datasets of test-data/v3. */
    public static List<Entry> v3Datasets() {
        return entries(v3Dir(), "datasets");
    }

    /** The Zarr v3 bad inputs of test-data/v3. */
    public static List<Entry> v3Bad() {
        return entries(v3Dir(), "bad");
    }

    /** This repository's data-type test data ({@code test-data/dtypes}, its own INDEX.json). */
    public static Path dtypesDir() {
        return testDataDir().resolve("dtypes");
    }

    /** The datasets of test-data/dtypes (issue 12: every data type, partial open). */
    public static List<Entry> dtypesDatasets() {
        return entries(dtypesDir(), "datasets");
    }

    /** Issue 22's test data: stores written by this autumn's producers ({@code test-data/autumn-2026}). */
    public static Path autumnDir() {
        return testDataDir().resolve("autumn-2026");
    }

    /** The good datasets of test-data/autumn-2026. */
    public static List<Entry> autumnDatasets() {
        return entries(autumnDir(), "datasets");
    }

    /** The bad inputs of test-data/autumn-2026. */
    public static List<Entry> autumnBad() {
        return entries(autumnDir(), "bad");
    }

    /** Issue 23's Icechunk repositories ({@code test-data/icechunk}, made by make.py). */
    public static Path icechunkDir() {
        return testDataDir().resolve("icechunk");
    }

    /** The datasets of test-data/icechunk (one per repository and snapshot selection). */
    public static List<Entry> icechunkDatasets() {
        return entries(icechunkDir(), "datasets");
    }

    /** Every good dataset, shared (when present) and own, that has a netCDF-4 twin. */
    public static List<Entry> withTwins() {
        List<Entry> out = new ArrayList<>();
        for (Entry e : corpusPresent() ? datasets() : List.<Entry>of()) {
            if (e.twin() != null) {
                out.add(e);
            }
        }
        for (Entry e : testData()) {
            if (e.twin() != null) {
                out.add(e);
            }
        }
        return out;
    }

    /**
     * An entry by name: the project's own test-data first (always there), then the shared corpus (a test
     * asking for one of its entries is skipped when it is absent).
     */
    public static Entry byName(String name) {
        for (List<Entry> l : List.of(testData(), v3Datasets(), v3Bad(), dtypesDatasets(), autumnDatasets())) {
            for (Entry e : l) {
                if (e.name().equals(name)) {
                    return e;
                }
            }
        }
        for (List<Entry> l : List.of(datasets(), bad())) {
            for (Entry e : l) {
                if (e.name().equals(name)) {
                    return e;
                }
            }
        }
        throw new IllegalArgumentException("no corpus entry " + name);
    }

    private static List<Entry> entries(Path dir, String section) {
        try {
            JsonNode index =
                    new ObjectMapper().readTree(dir.resolve("INDEX.json").toFile());
            List<Entry> out = new ArrayList<>();
            for (JsonNode n : index.get(section)) {
                out.add(new Entry(
                        n.get("name").asText(),
                        dir.resolve(n.get("path").asText()),
                        n.get("fragment").asText(),
                        dir.resolve(n.get("expected").asText()),
                        n.hasNonNull("twin") ? dir.resolve(n.get("twin").asText()) : null,
                        n.path("category").asText("")));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
