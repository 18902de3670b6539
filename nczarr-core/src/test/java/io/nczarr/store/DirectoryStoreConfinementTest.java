package io.nczarr.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.StoreException;
import io.nczarr.s3.AwsEnvironment;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * A directory store reads only regular files inside its root: symbolic links (of the object or of a
 * folder above it) that leave the dataset, FIFOs and devices are refused, clearly and without quoting
 * what they point at, unless links out are explicitly allowed.
 */
class DirectoryStoreConfinementTest {
    /** What the files outside the dataset hold: must never show up in a message. */
    private static final String OUTSIDE_CONTENT = "PLANTED-OUTSIDE-CONTENT";

    @TempDir
    Path tmp;

    private Path ds;
    private Path outside;

    @BeforeEach
    void layout() throws IOException {
        ds = Files.createDirectories(tmp.resolve("ds"));
        Files.writeString(ds.resolve(".zgroup"), "{\"zarr_format\": 2}");
        Files.createDirectories(ds.resolve("v"));
        Files.write(ds.resolve("v/0"), new byte[] {1, 2, 3, 4});
        outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("secret"), OUTSIDE_CONTENT);
        Files.writeString(outside.resolve(".zarray"), OUTSIDE_CONTENT);
    }

    @Test
    void aLinkToAFileOutsideIsRefused() throws IOException {
        Files.createSymbolicLink(ds.resolve("v/1"), outside.resolve("secret"));
        try (DirectoryStore s = new DirectoryStore(ds)) {
            assertRefused(s, "v/1", "outside the dataset");
            assertRefusedRange(s, "v/1");
            assertTrue(s.list("v").contains("1"), "listed (names only), refused when read");
        }
    }

    @Test
    void aLinkedFolderPointingOutsideIsRefused() throws IOException {
        Files.createSymbolicLink(ds.resolve("w"), outside);
        try (DirectoryStore s = new DirectoryStore(ds)) {
            assertRefused(s, "w/.zarray", "outside the dataset");
            assertRefused(s, "w/secret", "outside the dataset");
            StoreException e = assertThrows(StoreException.class, () -> s.list("w"));
            assertEquals("w", e.key());
            assertClean(e);
            assertTrue(s.get("w/nosuch").isEmpty(), "a missing key is still missing");
        }
    }

    @Test
    void aLinkToTheParentOfTheRootIsRefused() throws IOException {
        Files.createSymbolicLink(ds.resolve("up"), Path.of(".."));
        try (DirectoryStore s = new DirectoryStore(ds)) {
            assertRefused(s, "up/outside/secret", "outside the dataset");
            assertThrows(StoreException.class, () -> s.list("up"));
        }
    }

    @Test
    void dotDotInKeysIsRefusedBeforeAnyFileIsTouched() throws IOException {
        try (DirectoryStore s = new DirectoryStore(ds)) {
            for (String key : List.of("../outside/secret", "v/../../outside/secret", "./v/0", "v/./0")) {
                assertThrows(IllegalArgumentException.class, () -> s.get(key), key);
                assertThrows(IllegalArgumentException.class, () -> s.getRange(key, 0, 4), key);
            }
            assertThrows(IllegalArgumentException.class, () -> s.list("../outside"));
        }
    }

    @Test
    void aLinkInsideTheStoreToAnotherFileInsideIsRead() throws IOException {
        Files.createSymbolicLink(ds.resolve("v/1"), ds.resolve("v/0"));
        Files.createSymbolicLink(ds.resolve("alias"), Path.of("v")); // a relative link to a folder inside
        try (DirectoryStore s = new DirectoryStore(ds)) {
            assertArrayEquals(new byte[] {1, 2, 3, 4}, s.get("v/1").orElseThrow());
            assertArrayEquals(new byte[] {2, 3}, s.getRange("v/1", 1, 2).orElseThrow());
            assertArrayEquals(new byte[] {1, 2, 3, 4}, s.get("alias/0").orElseThrow());
            assertEquals(List.of("0", "1"), s.list("alias"));
        }
    }

    @Test
    void aRootReachedThroughALinkIsFine() throws IOException {
        Path link = Files.createSymbolicLink(tmp.resolve("ds-link"), ds);
        try (DirectoryStore s = new DirectoryStore(link)) {
            assertArrayEquals(new byte[] {1, 2, 3, 4}, s.get("v/0").orElseThrow());
        }
    }

    @Test
    void aDanglingLinkIsMissing() throws IOException {
        Files.createSymbolicLink(ds.resolve("v/9"), outside.resolve("nosuch"));
        try (DirectoryStore s = new DirectoryStore(ds)) {
            assertTrue(s.get("v/9").isEmpty());
            assertTrue(s.getRange("v/9", 0, 1).isEmpty());
        }
    }

    @Test
    void aLinkToDevZeroIsAnErrorNotFill() throws IOException {
        Path zero = Path.of("/dev/zero");
        Assumptions.assumeTrue(Files.exists(zero), "no /dev/zero on this system");
        Files.createSymbolicLink(ds.resolve("v/1"), zero);
        try (DirectoryStore s = new DirectoryStore(ds)) {
            assertRefused(s, "v/1", "outside the dataset");
        }
        try (DirectoryStore s = new DirectoryStore(ds, MemoryLimits.defaults().maxObjectBytes(), true)) {
            assertRefused(s, "v/1", "not a regular file");
            assertRefusedRange(s, "v/1");
        }
    }

    @Test
    void aFifoIsRefusedWithoutBlocking() throws Exception {
        Path fifo = ds.resolve("v/1");
        Assumptions.assumeTrue(mkfifo(fifo), "mkfifo is not available here");
        try (DirectoryStore s = new DirectoryStore(ds)) {
            // opening a FIFO without a writer would block forever: the check must come first
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
                assertRefused(s, "v/1", "not a regular file");
                assertRefusedRange(s, "v/1");
            });
        }
    }

    @Test
    void aLinkToAFifoOutsideIsRefusedEvenWhenLinksOutAreAllowed() throws Exception {
        Path fifo = outside.resolve("pipe");
        Assumptions.assumeTrue(mkfifo(fifo), "mkfifo is not available here");
        Files.createSymbolicLink(ds.resolve("v/1"), fifo);
        try (DirectoryStore s = new DirectoryStore(ds, MemoryLimits.defaults().maxObjectBytes(), true)) {
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertRefused(s, "v/1", "not a regular file"));
        }
    }

    @Test
    void aFifoGivenAsTheDatasetIsRefusedWithoutBlocking() throws Exception {
        Path fifo = tmp.resolve("pipe");
        Assumptions.assumeTrue(mkfifo(fifo), "mkfifo is not available here");
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            StoreException e =
                    assertThrows(StoreException.class, () -> TestStores.open(DatasetUrl.parse(fifo.toString())));
            assertTrue(e.getMessage().contains("not a directory"), e.getMessage());
            assertThrows(StoreException.class, () -> TestStores.open(DatasetUrl.parse(fifo + "#mode=zarr,zip")));
        });
    }

    @Test
    void aFolderWhereAnObjectIsAskedForIsNotAnObject() throws IOException {
        try (DirectoryStore s = new DirectoryStore(ds)) {
            assertTrue(s.get("v").isEmpty());
            assertTrue(s.get("").isEmpty());
        }
    }

    @Test
    void linksOutAreFollowedWhenAllowed() throws IOException {
        Files.createSymbolicLink(ds.resolve("v/1"), outside.resolve("secret"));
        Files.createSymbolicLink(ds.resolve("w"), outside);
        try (DirectoryStore s = new DirectoryStore(ds, MemoryLimits.defaults().maxObjectBytes(), true)) {
            assertEquals(OUTSIDE_CONTENT, new String(s.get("v/1").orElseThrow(), StandardCharsets.UTF_8));
            assertEquals(OUTSIDE_CONTENT, new String(s.get("w/secret").orElseThrow(), StandardCharsets.UTF_8));
            assertEquals(List.of(".zarray", "secret"), s.list("w"));
        }
    }

    @Test
    void theOptionReachesDirectoryStoresThroughTheResources() throws IOException {
        Files.createSymbolicLink(ds.resolve("v/1"), outside.resolve("secret"));
        DatasetUrl url = DatasetUrl.parse(ds.toUri() + "#mode=zarr,file");
        StoreResources confined =
                new StoreResources(TestStores.S3_CLIENTS, AwsEnvironment.system(), MemoryLimits.defaults());
        try (Store s = Stores.open(url, confined)) {
            assertRefused(s, "v/1", "outside the dataset");
        }
        StoreResources open =
                new StoreResources(TestStores.S3_CLIENTS, AwsEnvironment.system(), MemoryLimits.defaults(), true);
        try (Store s = Stores.open(url, open)) {
            assertTrue(s.get("v/1").isPresent());
        }
    }

    // ---------------------------------------------------------------------------------------------

    private void assertRefused(Store s, String key, String why) {
        StoreException e = assertThrows(StoreException.class, () -> s.get(key), key);
        assertEquals(key, e.key());
        assertEquals(s.location(), e.dataset());
        assertFalse(e.isRetryable());
        assertTrue(e.getMessage().contains(why), e.getMessage());
        assertClean(e);
    }

    private void assertRefusedRange(Store s, String key) {
        Executable read = () -> s.getRange(key, 0, 16);
        StoreException e = assertThrows(StoreException.class, read, key);
        assertEquals(key, e.key());
        assertClean(e);
    }

    /** Names neither the target nor its content. */
    private void assertClean(StoreException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = String.valueOf(t.getMessage());
            assertFalse(m.contains(OUTSIDE_CONTENT), m);
            assertFalse(m.contains(outside.toString()) || m.contains("/dev/zero"), m);
        }
        assertNull(e.getCause(), "a refusal, not a failure");
    }

    /** Makes a FIFO with the system's {@code mkfifo}; false when there is none. */
    private static boolean mkfifo(Path at) throws InterruptedException {
        try {
            Process p = new ProcessBuilder("mkfifo", at.toString())
                    .redirectErrorStream(true)
                    .start();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 && Files.exists(at);
        } catch (IOException e) {
            return false;
        }
    }
}
