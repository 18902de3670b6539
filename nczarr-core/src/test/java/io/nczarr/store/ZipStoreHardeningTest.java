package io.nczarr.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.LimitExceededException;
import io.nczarr.error.StoreException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Zip archives that lie: every lie is a clear, non-retryable error naming the entry, never a large allocation. */
class ZipStoreHardeningTest {
    @TempDir
    Path tmp;

    private static final byte[] DATA = "0123456789".repeat(100).getBytes(StandardCharsets.US_ASCII);

    private Path zip(RawZip.Entry... entries) throws IOException {
        return RawZip.write(tmp.resolve("t.zip"), List.of(entries));
    }

    private static RawZip.Entry zgroup() {
        return RawZip.Entry.text(".zgroup", "{\"zarr_format\": 2}");
    }

    private static void assertCorrupt(StoreException e, String... words) {
        assertFalse(e.isRetryable(), e.getMessage());
        for (String w : words) {
            assertTrue(e.getMessage().contains(w), () -> "'" + w + "' missing from: " + e.getMessage());
        }
    }

    @Test
    void anHonestArchiveReads() throws IOException {
        Path z = zip(zgroup(), RawZip.Entry.deflated("v/0", DATA), RawZip.Entry.stored("v/1", DATA));
        try (ZipStore s = new ZipStore(z)) {
            assertArrayEquals(DATA, s.get("v/0").orElseThrow());
            assertArrayEquals(DATA, s.get("v/1").orElseThrow());
            assertEquals(List.of("0", "1"), s.list("v"));
        }
    }

    @Test
    void anEntryThatInflatesPastItsDeclaredSizeIsCorrupt() throws IOException {
        Path z = zip(zgroup(), RawZip.Entry.deflated("v/0", DATA).withSize(10));
        try (ZipStore s = new ZipStore(z)) {
            StoreException e = assertThrows(StoreException.class, () -> s.get("v/0"));
            assertCorrupt(e, "v/0", "inflates past its declared size of 10 bytes");
            assertEquals("v/0", e.key());
        }
    }

    @Test
    void anEntryShorterThanDeclaredIsTruncated() throws IOException {
        Path z = zip(zgroup(), RawZip.Entry.deflated("v/0", DATA).withSize(DATA.length + 5));
        try (ZipStore s = new ZipStore(z)) {
            StoreException e = assertThrows(StoreException.class, () -> s.get("v/0"));
            assertCorrupt(e, "v/0", "truncated");
        }
    }

    @Test
    void aWrongCrcIsCorrupt() throws IOException {
        RawZip.Entry good = RawZip.Entry.deflated("v/0", DATA);
        Path z = zip(zgroup(), good.withCrc(good.crc() ^ 1));
        try (ZipStore s = new ZipStore(z)) {
            StoreException e = assertThrows(StoreException.class, () -> s.get("v/0"));
            assertCorrupt(e, "v/0", "CRC-32");
        }
    }

    @Test
    void duplicateNamesAreRefusedAtOpen() throws IOException {
        Path z = zip(zgroup(), RawZip.Entry.deflated("v/0", DATA), RawZip.Entry.deflated("v/0", new byte[10]));
        StoreException e = assertThrows(StoreException.class, () -> new ZipStore(z));
        assertCorrupt(e, "'v/0'", "more than once");
    }

    @Test
    void duplicateNamesInTheNetcdfLayoutAreRefusedToo() throws IOException {
        Path z = zip(
                RawZip.Entry.stored("ds/", new byte[0]),
                RawZip.Entry.text("ds/.zgroup", "{\"zarr_format\": 2}"),
                RawZip.Entry.deflated("ds/v/0", DATA),
                RawZip.Entry.deflated("ds/v/0", DATA));
        StoreException e = assertThrows(StoreException.class, () -> new ZipStore(z));
        assertCorrupt(e, "'ds/v/0'");
    }

    @Test
    void aLocalHeaderOffsetPastTheEndIsAClearError() throws IOException {
        Path z = zip(zgroup(), RawZip.Entry.deflated("v/0", DATA).withLocalOffset(0x7000_0000L));
        StoreException e = assertThrows(StoreException.class, () -> {
            try (ZipStore s = new ZipStore(z)) {
                s.get("v/0");
            }
        });
        assertCorrupt(e, "v/0");
        assertTrue(e.getMessage().contains("past the end") || e.getMessage().contains("LOC"), e.getMessage());
    }

    @Test
    void aLocalHeaderOffsetIntoOtherDataIsAClearError() throws IOException {
        Path z = zip(zgroup(), RawZip.Entry.deflated("v/0", DATA).withLocalOffset(7));
        StoreException e = assertThrows(StoreException.class, () -> {
            try (ZipStore s = new ZipStore(z)) {
                s.get("v/0");
            }
        });
        assertCorrupt(e, "v/0");
    }

    @Test
    void aDeclaredSizeOverTheLimitIsRefusedBeforeInflating() throws IOException {
        // declares 1 GiB but holds 1000 bytes: refused on the declaration alone
        Path z = zip(zgroup(), RawZip.Entry.deflated("v/0", DATA).withSize(1L << 30));
        try (ZipStore s = new ZipStore(z, 1 << 20)) {
            LimitExceededException e = assertThrows(LimitExceededException.class, () -> s.get("v/0"));
            assertTrue(e.getMessage().contains("zip entry 'v/0'"), e.getMessage());
            assertTrue(e.getMessage().contains("1073741824 bytes"), e.getMessage());
            assertEquals(MemoryLimits.MAX_OBJECT_BYTES, e.property());
            assertEquals(1 << 20, e.limit());
            assertEquals("v/0", e.key());
        }
    }

    @Test
    void aCallersLimitIsCheckedAgainstTheDeclaredSize() throws IOException {
        Path z = zip(zgroup(), RawZip.Entry.deflated("v/.zattrs", DATA));
        try (ZipStore s = new ZipStore(z)) {
            ByteLimit small = new ByteLimit(MemoryLimits.MAX_METADATA_BYTES, 100);
            LimitExceededException e = assertThrows(LimitExceededException.class, () -> s.get("v/.zattrs", small));
            assertEquals(MemoryLimits.MAX_METADATA_BYTES, e.property());
            assertArrayEquals(
                    DATA,
                    s.get("v/.zattrs", new ByteLimit(MemoryLimits.MAX_METADATA_BYTES, 1000))
                            .orElseThrow());
        }
    }
}
