package io.nczarr.open;

import io.nczarr.chunk.ChunkReader;
import io.nczarr.error.ChunkException;
import io.nczarr.error.LimitExceededException;
import io.nczarr.error.NcZarrException;
import io.nczarr.error.StoreException;
import io.nczarr.model.VarModel;
import io.nczarr.store.MemoryLimits;
import io.nczarr.store.RawZip;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Hostile datasets that would exhaust a small heap if any size in them were trusted, and what reading
 * each must end in. {@link #main} runs them in a JVM of its own (see {@code SmallHeapBombTest}), one
 * line per bomb on standard output: {@code BOMB name outcome class property message}, tab separated.
 */
enum BombScenarios {
    /** A chunk declared as 1 GiB (int64 x 2^27), stored as ~1 MB of zlib that really inflates to that. */
    ZLIB_CHUNK_1GIB(Kind.DIRECTORY, Read.TEN, LimitExceededException.class, MemoryLimits.MAX_CHUNK_BYTES) {
        @Override
        void make(Path dataset) throws IOException {
            Bombs.directory(dataset, Bombs.zarray(1L << 27, 1L << 27, "<i8", ZLIB), Bombs.zlibZeros(1024));
        }
    },
    /** A chunk declared as 1 MiB whose zlib inflates to 1 GiB: the codec stops at the declared size. */
    ZLIB_CHUNK_LIES(Kind.DIRECTORY, Read.TEN, ChunkException.class, null) {
        @Override
        void make(Path dataset) throws IOException {
            Bombs.directory(dataset, Bombs.zarray(1L << 17, 1L << 17, "<i8", ZLIB), Bombs.zlibZeros(1024));
        }
    },
    /** A chunk declared as 400 MiB, stored as bz2 of 400 MiB of zeros (a few KB). */
    BZ2_CHUNK_400MIB(Kind.DIRECTORY, Read.TEN, LimitExceededException.class, MemoryLimits.MAX_CHUNK_BYTES) {
        @Override
        void make(Path dataset) throws IOException {
            Bombs.directory(dataset, Bombs.zarray(50L << 20, 50L << 20, "<i8", BZ2), Bombs.bz2Zeros(400));
        }
    },
    /** A chunk declared as 1 MiB whose bz2 inflates to 400 MiB. */
    BZ2_CHUNK_LIES(Kind.DIRECTORY, Read.TEN, ChunkException.class, null) {
        @Override
        void make(Path dataset) throws IOException {
            Bombs.directory(dataset, Bombs.zarray(1L << 17, 1L << 17, "<i8", BZ2), Bombs.bz2Zeros(400));
        }
    },
    /** A zip entry declaring (truthfully) 1 GiB, ~1 MB deflated. */
    ZIP_ENTRY_1GIB(Kind.ZIP, Read.TEN, LimitExceededException.class, MemoryLimits.MAX_OBJECT_BYTES) {
        @Override
        void make(Path dataset) throws IOException {
            Bombs.zip(
                    dataset,
                    RawZip.Entry.text("v/.zarray", Bombs.zarray(1024, 1024, "|i1", "null")),
                    Bombs.zipBomb("v/0", (byte) 0, 1024, Bombs.GIB));
        }
    },
    /** A zip entry declaring 1 KiB that inflates to 1 GiB. */
    ZIP_ENTRY_LIES(Kind.ZIP, Read.TEN, StoreException.class, null) {
        @Override
        void make(Path dataset) throws IOException {
            Bombs.zip(
                    dataset,
                    RawZip.Entry.text("v/.zarray", Bombs.zarray(1024, 1024, "|i1", "null")),
                    Bombs.zipBomb("v/0", (byte) 0, 1024, 1024));
        }
    },
    /** A root {@code .zattrs} zip entry of 900 MiB of spaces: refused before it is inflated or parsed. */
    ZATTRS_900MIB_IN_ZIP(Kind.ZIP, Read.TEN, LimitExceededException.class, MemoryLimits.MAX_METADATA_BYTES) {
        @Override
        void make(Path dataset) throws IOException {
            Bombs.zip(dataset, Bombs.zipBomb(".zattrs", (byte) ' ', 900, 900 * Bombs.MIB));
        }
    },
    /** A root {@code .zattrs} file of 900 MiB (sparse, so it costs no disk). */
    ZATTRS_900MIB_FILE(Kind.DIRECTORY, Read.TEN, LimitExceededException.class, MemoryLimits.MAX_METADATA_BYTES) {
        @Override
        void make(Path dataset) throws IOException {
            Bombs.hugeZattrs(dataset, 900 * Bombs.MIB);
        }
    },
    /** A whole-variable read of int64 x (2^31 - 1) in chunks of one element, all fill. */
    SECTION_2G_ELEMENTS(Kind.DIRECTORY, Read.ALL, LimitExceededException.class, MemoryLimits.MAX_READ_BYTES) {
        @Override
        void make(Path dataset) throws IOException {
            Bombs.directory(dataset, Bombs.zarray(Integer.MAX_VALUE, 1, "<i8", "null"), null);
        }
    },
    /**
     * A Zarr v3 zip store of 20,000 arrays, each with a 16 KiB attribute (compressed to ~100 bytes): the
     * hierarchy does not fit the heap. Prefetch threads and the reader run out of memory; the open must end in
     * the limit's refusal, not wait forever for a prefetch thread that died (issue 21, `nczarr ls` at -Xmx128m).
     */
    METADATA_20K_ARRAYS(Kind.ZIP, Read.TEN, LimitExceededException.class, MemoryLimits.MAX_METADATA_BYTES) {
        @Override
        void make(Path dataset) throws IOException {
            Bombs.manyArraysV3Zip(dataset, 20_000, 16 << 10);
        }
    },
    /**
     * A 341-byte kerchunk file whose {@code gen} expands to the allowed 4,194,304 references: refused from the
     * arithmetic, before one reference (or one range value) is made.
     */
    KERCHUNK_GEN_4M(Kind.KERCHUNK, Read.TEN, LimitExceededException.class, MemoryLimits.MAX_OBJECT_BYTES) {
        @Override
        void make(Path dataset) throws IOException {
            Bombs.kerchunk(dataset, Bombs.GEN_4M);
        }
    },
    /** A 1 MiB template in 100,000 distinct URLs: refused by its filled-in size before the URLs are built. */
    KERCHUNK_TEMPLATE_1MIB(Kind.KERCHUNK, Read.TEN, LimitExceededException.class, MemoryLimits.MAX_OBJECT_BYTES) {
        @Override
        void make(Path dataset) throws IOException {
            Bombs.kerchunkTemplate(dataset, 1 << 20, 100_000);
        }
    },
    /** 1,500,000 {@code refs} entries (~40 MB of JSON, under the object limit): refused while streaming them. */
    KERCHUNK_REFS_1_5M(Kind.KERCHUNK, Read.TEN, LimitExceededException.class, MemoryLimits.MAX_OBJECT_BYTES) {
        @Override
        void make(Path dataset) throws IOException {
            Bombs.kerchunkRefs(dataset, 1_500_000);
        }
    },
    /**
     * A Zarr v3 shard of 2^26 one-element inner chunks: its index is 1 GiB (a sparse file). A one-element read
     * must refuse the index before fetching it, not run out of memory.
     */
    SHARD_INDEX_1GIB(Kind.DIRECTORY, Read.TEN, LimitExceededException.class, MemoryLimits.MAX_CHUNK_BYTES) {
        @Override
        void make(Path dataset) throws IOException {
            Bombs.hugeShardIndex(dataset, 1 << 26);
        }
    },
    /** A whole-variable read of int64 x 2^28 (2 GiB, one Java array could hold it) in chunks of 1024. */
    SECTION_2GIB(Kind.DIRECTORY, Read.ALL, LimitExceededException.class, MemoryLimits.MAX_READ_BYTES) {
        @Override
        void make(Path dataset) throws IOException {
            Bombs.directory(dataset, Bombs.zarray(1L << 28, 1024, "<i8", "null"), null);
        }
    };

    private static final String ZLIB = "{\"id\": \"zlib\", \"level\": 9}";
    private static final String BZ2 = "{\"id\": \"bz2\", \"level\": 9}";

    /** The kind of store the bomb is. */
    enum Kind {
        DIRECTORY,
        ZIP,
        /** A kerchunk reference file, opened with {@code #mode=kerchunk}. */
        KERCHUNK
    }

    /** What is read: ten elements, or the whole variable. */
    enum Read {
        TEN,
        ALL
    }

    private final Kind kind;
    private final Read read;
    /** What reading the bomb must end in. */
    final Class<? extends NcZarrException> expected;
    /** The property a {@link LimitExceededException} must name; {@code null} for other failures. */
    final String property;

    BombScenarios(Kind kind, Read read, Class<? extends NcZarrException> expected, String property) {
        this.kind = kind;
        this.read = read;
        this.expected = expected;
        this.property = property;
    }

    /** Writes the dataset at {@code dataset} (a directory, or a zip file). */
    abstract void make(Path dataset) throws IOException;

    /** Opens the dataset and reads variable {@code v}: ten elements, or all of a variable made of fill. */
    void read(Path dataset) throws IOException {
        try (NcZarrOptions options = NcZarrOptions.builder().build();
                OpenDataset ds = Datasets.open(
                        Datasets.parse(kind == Kind.KERCHUNK ? dataset.toUri() + "#mode=kerchunk" : dataset.toString()),
                        options)) {
            VarModel v = ds.model().root().variables().get(0);
            ChunkReader reader = ds.reader(v);
            if (read == Read.ALL) {
                reader.readAll();
            } else {
                reader.read(new long[] {0}, new int[] {10}, new int[] {1});
            }
        }
    }

    /** Where the dataset of this bomb is below {@code root}. */
    Path dataset(Path root) {
        return root.resolve(name().toLowerCase(java.util.Locale.ROOT)
                + (kind == Kind.ZIP ? ".zip" : kind == Kind.KERCHUNK ? ".json" : ""));
    }

    /** Runs every bomb on the datasets below {@code args[0]}; each line says how it ended. */
    public static void main(String[] args) {
        Path root = Path.of(args[0]);
        for (BombScenarios b : values()) {
            String outcome;
            Throwable thrown = null;
            try {
                b.read(b.dataset(root));
                outcome = "NO_ERROR";
            } catch (Throwable t) {
                thrown = t;
                outcome = hasError(t) ? "ERROR_INSIDE" : "THROWN";
            }
            String property = thrown instanceof LimitExceededException l ? l.property() : "-";
            String message =
                    thrown == null ? "" : String.valueOf(thrown.getMessage()).replace('\n', ' ');
            System.out.println(String.join(
                    "\t",
                    "BOMB",
                    b.name(),
                    outcome,
                    thrown == null ? "-" : thrown.getClass().getName(),
                    property,
                    message));
            System.out.flush();
        }
    }

    /** An {@link Error} (OutOfMemoryError above all) anywhere in the chain, even wrapped in an IOException. */
    private static boolean hasError(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof Error) {
                return true;
            }
        }
        return false;
    }
}
