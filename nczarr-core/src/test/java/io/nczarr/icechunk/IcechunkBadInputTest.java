package io.nczarr.icechunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.github.luben.zstd.ZstdInputStream;
import io.nczarr.error.MetadataException;
import io.nczarr.error.NcZarrException;
import io.nczarr.error.StoreException;
import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.store.Store;
import io.nczarr.testkit.Corpus;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged repositories: each a clear {@link NcZarrException} naming the repository and the object, never an
 * exception of the FlatBuffers or zstd runtime. Includes a bounded, seeded fuzz of the repo info, snapshot
 * and manifest payloads (bytes changed, truncated).
 */
class IcechunkBadInputTest {
    static final String[] KEYS = {
        "zarr.json",
        "temp/zarr.json",
        "temp/c/0/0/0",
        "temp/c/1/0/0",
        "x/c/0",
        "count/c/3/0",
        "split/c/5/0",
        "split/c/7/0",
        "sub/deep/big/c/0/0",
        "sub/deep/big/c/1/0",
        "added/c/0"
    };

    @TempDir
    Path tmp;

    Path repo;
    String main;

    @BeforeEach
    void copy() throws Exception {
        Path src = Corpus.icechunkDir().resolve("native.icechunk");
        repo = tmp.resolve("native.icechunk");
        try (Stream<Path> s = Files.walk(src)) {
            for (Path p : s.toList()) {
                Path d = repo.resolve(src.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(d);
                } else {
                    Files.copy(p, d, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        main = IcechunkStoreTest.refs().get("branches").get("main").asText();
    }

    Store open() throws Exception {
        return IcechunkStoreTest.open(repo, "");
    }

    /** Opens and reads every key of {@link #KEYS}. */
    void exercise() throws Exception {
        try (Store s = open()) {
            for (String k : KEYS) {
                s.get(k);
            }
            s.list("");
            s.list("sub/deep");
        }
    }

    static byte[] payload(byte[] obj) throws IOException {
        try (InputStream in = new ZstdInputStream(new ByteArrayInputStream(obj, 39, obj.length - 39))) {
            return in.readAllBytes();
        }
    }

    /** The object with this payload, uncompressed (compression byte 0). */
    static byte[] withPayload(byte[] obj, byte[] payload) {
        byte[] out = Arrays.copyOf(obj, 39 + payload.length);
        out[38] = 0;
        System.arraycopy(payload, 0, out, 39, payload.length);
        return out;
    }

    <T extends Throwable> T fails(Class<T> type, String... mentions) {
        T e = assertThrows(type, this::exercise);
        for (String m : mentions) {
            assertTrue(e.getMessage().contains(m), "'" + m + "' in: " + e.getMessage());
        }
        assertTrue(e.getMessage().contains("native.icechunk"), e.getMessage());
        return e;
    }

    @Test
    void uncompressedPayloadsRead() throws Exception {
        Path r = repo.resolve("repo");
        byte[] obj = Files.readAllBytes(r);
        Files.write(r, withPayload(obj, payload(obj)));
        exercise();
    }

    @Test
    void truncatedOrTamperedHeader() throws Exception {
        Path r = repo.resolve("repo");
        byte[] obj = Files.readAllBytes(r);
        Files.write(r, Arrays.copyOf(obj, 20));
        fails(MetadataException.class, "repo", "39-byte header");
        byte[] magic = obj.clone();
        magic[3] = 'X';
        Files.write(r, magic);
        fails(MetadataException.class, "repo", "magic");
        byte[] spec = obj.clone();
        spec[36] = 9;
        Files.write(r, spec);
        fails(UnsupportedFeatureException.class, "repo", "spec version 9");
        byte[] comp = obj.clone();
        comp[38] = 7;
        Files.write(r, comp);
        fails(UnsupportedFeatureException.class, "repo", "compression");
        Files.write(r, Arrays.copyOf(obj, obj.length - 10));
        fails(MetadataException.class, "repo", "zstd");
        Files.copy(repo.resolve("snapshots/" + main), r, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        fails(MetadataException.class, "repo", "type 1 where type 6");
    }

    @Test
    void missingObjects() throws Exception {
        Files.delete(repo.resolve("snapshots/" + main));
        fails(MetadataException.class, "snapshots/" + main, "missing snapshot");
        copy();
        try (Stream<Path> s = Files.list(repo.resolve("chunks"))) {
            for (Path p : s.toList()) {
                Files.delete(p);
            }
        }
        StoreException e = fails(StoreException.class, "sub/deep/big", "chunks/", "does not exist");
        assertEquals("sub/deep/big/c/1/0", e.key()); // c/0/0 is inline on main (a constant block)
        copy();
        try (Stream<Path> s = Files.list(repo.resolve("manifests"))) {
            for (Path p : s.toList()) {
                Files.delete(p);
            }
        }
        fails(MetadataException.class, "missing manifest");
        Files.delete(repo.resolve("repo"));
        fails(StoreException.class, "no repo object");
    }

    @Test
    void seededFuzzOfPayloads() throws Exception {
        List<Path> objects =
                List.of(repo.resolve("repo"), repo.resolve("snapshots/" + main), firstManifestOf("sub/deep/big/c/1/0"));
        Random rnd = new Random(23);
        int errors = 0;
        for (Path obj : objects) {
            byte[] original = Files.readAllBytes(obj);
            byte[] payload = payload(original);
            for (int i = 0; i < 100; i++) {
                byte[] p = payload.clone();
                if (i % 5 == 4) {
                    p = Arrays.copyOf(p, rnd.nextInt(p.length));
                } else {
                    for (int n = 1 + rnd.nextInt(4); n > 0; n--) {
                        p[rnd.nextInt(p.length)] = (byte) rnd.nextInt(256);
                    }
                }
                Files.write(obj, withPayload(original, p));
                try {
                    exercise();
                } catch (NcZarrException e) {
                    errors++;
                    assertTrue(e.getMessage().contains("native.icechunk"), e.getMessage());
                } catch (IOException | RuntimeException e) {
                    fail(obj.getFileName() + " iteration " + i + ": " + e, e);
                }
            }
            Files.write(obj, original);
        }
        assertTrue(errors > 60, "the fuzz found " + errors + " errors");
    }

    private Path firstManifestOf(String key) throws Exception {
        try (Store s = open();
                Stream<Path> m = Files.list(repo.resolve("manifests"))) {
            s.get(key).orElseThrow();
            for (Path p : m.toList()) {
                Path moved = tmp.resolve("moved");
                Files.move(p, moved);
                boolean needed;
                try (Store s2 = open()) {
                    s2.get(key);
                    needed = false;
                } catch (MetadataException e) {
                    needed = true;
                }
                Files.move(moved, p);
                if (needed) {
                    return p;
                }
            }
        }
        throw new AssertionError("no manifest holds " + key);
    }
}
