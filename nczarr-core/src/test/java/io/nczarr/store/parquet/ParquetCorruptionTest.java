package io.nczarr.store.parquet;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.LimitExceededException;
import io.nczarr.error.NcZarrException;
import io.nczarr.error.StoreException;
import io.nczarr.store.ByteLimit;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Broken record files: a truncated or tampered footer, offsets and lengths pointing outside the file, absurd
 * sizes, and a seeded fuzz of a few hundred mutations over files of every writer. Each is an {@link
 * NcZarrException} naming the dataset and the file (or a successful decode of other values), never another
 * exception, never a hang, never an allocation of the declared size.
 */
class ParquetCorruptionTest {
    static final ByteLimit LIMIT = ReferenceRecordsTest.LIMIT;

    static byte[] file(String folder, String name) throws IOException {
        return Files.readAllBytes(ReferenceRecordsTest.dir().resolve(folder).resolve(name));
    }

    static StoreException refused(byte[] b) {
        StoreException e =
                assertThrows(StoreException.class, () -> ReferenceRecords.read(b, "ds", "v/refs.0.parq", LIMIT));
        assertTrue(e.getMessage().contains("ds") && e.getMessage().contains("v/refs.0.parq"), e.getMessage());
        assertTrue(e.getMessage().contains("Parquet"), e.getMessage());
        return e;
    }

    @Test
    void truncatedFilesAreRefused() throws IOException {
        byte[] b = file("nc4.pyarrow-zstd-v2.parq", "temp/refs.0.parq");
        for (int n : new int[] {0, 3, 4, 11, 12, b.length / 2, b.length - 9, b.length - 8, b.length - 1}) {
            refused(Arrays.copyOf(b, n));
        }
        // the end cut off, the magic kept: the footer length points before the data
        byte[] cut = Arrays.copyOfRange(b, 0, b.length - 40);
        System.arraycopy(b, b.length - 8, cut, cut.length - 8, 8);
        refused(cut);
    }

    @Test
    void aFooterLengthOutsideTheFileIsRefused() throws IOException {
        byte[] b = file("nc4.fastparquet.parq", "temp/refs.1.parq");
        for (int len : new int[] {-1, 0, 1, b.length, b.length - 11, Integer.MAX_VALUE}) {
            byte[] t = b.clone();
            putLe32(t, t.length - 8, len);
            StoreException e = refused(t);
            assertTrue(e.getMessage().contains("footer") || e.getMessage().contains("Thrift"), e.getMessage());
        }
    }

    @Test
    void aMissingMagicIsRefused() throws IOException {
        byte[] b = file("nc3.fastparquet.parq", "rec/refs.0.parq");
        byte[] t = b.clone();
        t[0] = 'Q';
        assertTrue(refused(t).getMessage().contains("PAR1"));
        t = b.clone();
        t[t.length - 1] = 'Q';
        assertTrue(refused(t).getMessage().contains("PAR1"));
    }

    @Test
    void hugeDeclaredSizesAreRefusedBeforeAllocating() throws IOException {
        byte[] b = file("nc4.pyarrow-snappy-v2.parq", "temp/refs.0.parq");
        // the decoded columns of this file are a few hundred bytes: a 100-byte budget refuses them by name
        LimitExceededException e = assertThrows(
                LimitExceededException.class,
                () -> ReferenceRecords.read(
                        b, "ds", "v/refs.0.parq", new ByteLimit("nczarr.limits.maxObjectBytes", 100)));
        assertTrue(e.getMessage().contains("nczarr.limits.maxObjectBytes"), e.getMessage());
    }

    @Test
    void everyLongFieldSetHugeIsRefusedOrHarmless() throws IOException {
        // each byte of the footer replaced by a 10-byte varint of 2^62: lengths, counts, offsets become absurd
        byte[] b = file("nc4.fastparquet.parq", "temp/refs.0.parq");
        int footer = b.length - 8 - le32(b, b.length - 8);
        byte[] big = {
            (byte) 0x80,
            (byte) 0x80,
            (byte) 0x80,
            (byte) 0x80,
            (byte) 0x80,
            (byte) 0x80,
            (byte) 0x80,
            (byte) 0x80,
            (byte) 0x80,
            0x40
        };
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            for (int at = footer; at < b.length - 8; at++) {
                byte[] t = new byte[b.length + big.length - 1];
                System.arraycopy(b, 0, t, 0, at);
                System.arraycopy(big, 0, t, at, big.length);
                System.arraycopy(b, at + 1, t, at + big.length, b.length - at - 1);
                putLe32(t, t.length - 8, le32(b, b.length - 8) + big.length - 1);
                readOrRefuse(t);
            }
        });
    }

    @Test
    void seededFuzzNeverEscapesAsAnotherException() throws IOException {
        List<byte[]> files = new ArrayList<>();
        for (String folder : new String[] {
            "nc4.fastparquet.parq", "nc4.pyarrow-zstd-v2.parq", "nc4.pyarrow-snappy-v1-plain.parq",
            "nc4.pyarrow-gzip-v1.parq", "nc4.pyarrow-none-v2.parq", "nc4.pyarrow-zstd-v1.parq"
        }) {
            files.add(file(folder, "temp/refs.0.parq"));
            files.add(file(folder, "time/refs.0.parq"));
        }
        Random r = new Random(23);
        assertTimeoutPreemptively(Duration.ofSeconds(25), () -> {
            for (int i = 0; i < 600; i++) {
                byte[] t = files.get(r.nextInt(files.size())).clone();
                int kind = r.nextInt(4);
                int flips = 1 + r.nextInt(4);
                for (int k = 0; k < flips; k++) {
                    int at = r.nextInt(t.length);
                    switch (kind) {
                        case 0 -> t[at] ^= (byte) (1 << r.nextInt(8));
                        case 1 -> t[at] = (byte) r.nextInt(256);
                        case 2 -> t[at] = (byte) 0xff;
                        default -> t = Arrays.copyOf(t, Math.max(0, t.length - 1 - r.nextInt(16)));
                    }
                }
                readOrRefuse(t);
            }
        });
    }

    /** Decodes {@code t}: fine, or an NcZarrException; nothing else may come out. */
    static void readOrRefuse(byte[] t) {
        try {
            ReferenceRecords rec = ReferenceRecords.read(t, "ds", "v/refs.0.parq", LIMIT);
            assertTrue(rec.rows() >= 0);
        } catch (NcZarrException e) {
            assertTrue(e.getMessage().contains("v/refs.0.parq"), e.getMessage());
            assertTrue(e.getCause() == null || !(e.getCause() instanceof RuntimeException), () -> {
                StringBuilder s = new StringBuilder("decoder defect: " + e.getMessage());
                Stream.of(e.getCause().getStackTrace())
                        .limit(8)
                        .forEach(f -> s.append("\n  at ").append(f));
                return s.toString();
            });
        }
    }

    static int le32(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | (b[at + 3] & 0xff) << 24;
    }

    static void putLe32(byte[] b, int at, int v) {
        for (int i = 0; i < 4; i++) {
            b[at + i] = (byte) (v >>> (8 * i));
        }
    }
}
