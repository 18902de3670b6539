package io.nczarr.cdm;

import io.nczarr.open.NcZarrOptions;
import io.nczarr.store.Store;
import io.nczarr.store.Stores;
import io.nczarr.testkit.Corpus;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The real datasets the fuzz tests start from: every good dataset of the shared corpus and of the
 * repository's test-data, each copied whole (metadata and chunks) into memory, whatever store it
 * lives in (directory or zip).
 */
final class FuzzSeeds {
    private FuzzSeeds() {}

    /** One dataset in memory, with the metadata conventions its URL asks for. */
    record Seed(String name, DatasetUrl.Format format, boolean xarray, NavigableMap<String, byte[]> objects) {

        @Override
        public String toString() {
            return name;
        }
    }

    private static List<Seed> all;

    /** Every seed, loaded once per test JVM. */
    static synchronized List<Seed> all() {
        if (all == null) {
            List<Seed> seeds = new ArrayList<>();
            List<Corpus.Entry> entries = new ArrayList<>(Corpus.datasets());
            entries.addAll(Corpus.testData());
            for (Corpus.Entry e : entries) {
                seeds.add(load(e));
            }
            all = Collections.unmodifiableList(seeds);
        }
        return all;
    }

    static Seed byName(String name) {
        return all().stream()
                .filter(s -> s.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no seed " + name));
    }

    private static Seed load(Corpus.Entry e) {
        DatasetUrl url = DatasetUrl.parse(e.url());
        try (Store store = Stores.open(url, NcZarrOptions.shared().storeResources())) {
            NavigableMap<String, byte[]> objects = new TreeMap<>();
            copy(store, "", objects);
            return new Seed(
                    e.name(), url.format(), url.useXarrayDimensions(), Collections.unmodifiableNavigableMap(objects));
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot load seed " + e.name(), ex);
        }
    }

    /** Copies every object below {@code prefix}, walking the listing. */
    private static void copy(Store store, String prefix, Map<String, byte[]> into) throws IOException {
        for (String name : store.list(prefix)) {
            String key = prefix.isEmpty() ? name : prefix + "/" + name;
            Optional<byte[]> bytes = store.get(key);
            if (bytes.isPresent()) {
                into.put(key, bytes.get());
            } else {
                copy(store, key, into);
            }
        }
    }
}
