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
    private Corpus() {
    }

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

    public static Path corpusDir() {
        Path p = Paths.get(System.getProperty("corpus.dir", "../../shared/corpus")).toAbsolutePath().normalize();
        if (!Files.isRegularFile(p.resolve("INDEX.json"))) {
            throw new IllegalStateException("shared corpus not found at " + p
                    + " (set -Dcorpus.dir; CI checks out shared/ beside the repository)");
        }
        return p;
    }

    public static Path testDataDir() {
        Path p = Paths.get(System.getProperty("repo.dir", "..")).toAbsolutePath().normalize().resolve("test-data");
        if (!Files.isRegularFile(p.resolve("INDEX.json"))) {
            throw new IllegalStateException("test-data not found at " + p);
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

    /** Every good dataset, shared and own, that has a netCDF-4 twin. */
    public static List<Entry> withTwins() {
        List<Entry> out = new ArrayList<>();
        for (Entry e : datasets()) {
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

    public static Entry byName(String name) {
        for (List<Entry> l : List.of(datasets(), bad(), testData())) {
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
            JsonNode index = new ObjectMapper().readTree(dir.resolve("INDEX.json").toFile());
            List<Entry> out = new ArrayList<>();
            for (JsonNode n : index.get(section)) {
                out.add(new Entry(n.get("name").asText(), dir.resolve(n.get("path").asText()),
                        n.get("fragment").asText(), dir.resolve(n.get("expected").asText()),
                        n.hasNonNull("twin") ? dir.resolve(n.get("twin").asText()) : null,
                        n.path("category").asText("")));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
