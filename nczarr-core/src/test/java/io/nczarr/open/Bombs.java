package io.nczarr.open;

import io.nczarr.store.RawZip;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.Adler32;
import java.util.zip.CRC32;
import java.util.zip.Checksum;
import java.util.zip.Deflater;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream;

/**
 * Decompression bombs and absurd declarations, small on disk and quick to make: a gibibyte of zeros
 * deflates to about a megabyte, made from one deflated mebibyte repeated (deflate blocks ending in a
 * sync flush can be concatenated, as bzip2 streams can), so nothing large is ever compressed or held.
 */
final class Bombs {
    private Bombs() {}

    static final long MIB = 1L << 20;
    static final long GIB = 1L << 30;

    /** Raw deflate of {@code mebibytes} MiB of {@code value}: one flushed MiB, repeated, then a final empty block. */
    static byte[] deflateRepeated(byte value, int mebibytes) {
        byte[] segment = flushed(filled(value));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < mebibytes; i++) {
            out.writeBytes(segment);
        }
        out.writeBytes(finished());
        return out.toByteArray();
    }

    /**
     * {@code data} deflated by a fresh deflater and sync-flushed: byte aligned, not final, and referring
     * to nothing before it, so copies of it can follow each other.
     */
    private static byte[] flushed(byte[] data) {
        Deflater d = new Deflater(Deflater.BEST_COMPRESSION, true);
        try {
            d.setInput(data);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[64 << 10];
            int n;
            do {
                n = d.deflate(buf, 0, buf.length, Deflater.SYNC_FLUSH);
                out.write(buf, 0, n);
            } while (n == buf.length);
            return out.toByteArray();
        } finally {
            d.end();
        }
    }

    /** The final, empty deflate block that ends a stream. */
    private static byte[] finished() {
        Deflater d = new Deflater(Deflater.BEST_COMPRESSION, true);
        try {
            d.finish();
            byte[] buf = new byte[64];
            return Arrays.copyOf(buf, d.deflate(buf));
        } finally {
            d.end();
        }
    }

    private static final java.util.Map<String, byte[]> MADE = new java.util.concurrent.ConcurrentHashMap<>();

    /** {@link #deflateRepeated}, made once per process (several bombs share one). */
    static byte[] deflatedOnce(byte value, int mebibytes) {
        return MADE.computeIfAbsent(value + "x" + mebibytes, k -> deflateRepeated(value, mebibytes));
    }

    /** The zlib stream (numcodecs {@code zlib}) of {@code mebibytes} MiB of zeros. */
    static byte[] zlibZeros(int mebibytes) {
        byte[] raw = deflatedOnce((byte) 0, mebibytes);
        long adler = checksum(new Adler32(), (byte) 0, mebibytes);
        ByteBuffer b = ByteBuffer.allocate(2 + raw.length + 4);
        b.put((byte) 0x78).put((byte) 0xDA).put(raw).putInt((int) adler);
        return b.array();
    }

    /** A bzip2 of {@code mebibytes} MiB of zeros (a multiple of 40): 40 MiB compressed once, its stream repeated. */
    static byte[] bz2Zeros(int mebibytes) throws IOException {
        ByteArrayOutputStream one = new ByteArrayOutputStream();
        try (BZip2CompressorOutputStream bz = new BZip2CompressorOutputStream(one)) {
            byte[] unit = filled((byte) 0);
            for (int i = 0; i < 40; i++) {
                bz.write(unit);
            }
        }
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (int i = 0; i < mebibytes / 40; i++) {
            one.writeTo(all);
        }
        return all.toByteArray();
    }

    /** The checksum of {@code mebibytes} MiB of {@code value}. */
    static long checksum(Checksum c, byte value, int mebibytes) {
        byte[] unit = filled(value);
        for (int i = 0; i < mebibytes; i++) {
            c.update(unit, 0, unit.length);
        }
        return c.getValue();
    }

    /** A zip entry holding {@code mebibytes} MiB of {@code value}, declaring that size (or the one given). */
    static RawZip.Entry zipBomb(String name, byte value, int mebibytes, long declaredSize) {
        long crc = checksum(new CRC32(), value, mebibytes);
        return new RawZip.Entry(name, RawZip.DEFLATED, deflatedOnce(value, mebibytes), declaredSize, crc, -1);
    }

    private static byte[] filled(byte value) {
        byte[] b = new byte[(int) MIB];
        Arrays.fill(b, value);
        return b;
    }

    static final String ZGROUP = "{\"zarr_format\": 2}";

    /** A {@code .zarray} of one int64 ({@code dtype}) dimension. */
    static String zarray(long length, long chunk, String dtype, String compressor) {
        return "{\"zarr_format\": 2, \"shape\": [" + length + "], \"chunks\": [" + chunk + "], \"dtype\": \"" + dtype
                + "\", \"compressor\": " + compressor + ", \"fill_value\": 0, \"order\": \"C\", \"filters\": null}";
    }

    /** A directory store holding one variable {@code v} and its chunk {@code v/0} (none if {@code chunk0} is null). */
    static Path directory(Path dir, String zarray, byte[] chunk0) throws IOException {
        Files.createDirectories(dir.resolve("v"));
        Files.writeString(dir.resolve(".zgroup"), ZGROUP);
        Files.writeString(dir.resolve("v/.zarray"), zarray);
        if (chunk0 != null) {
            Files.write(dir.resolve("v/0"), chunk0);
        }
        return dir;
    }

    /** A zip store holding {@code .zgroup} and the given entries. */
    static Path zip(Path file, RawZip.Entry... entries) throws IOException {
        RawZip.Entry[] all = new RawZip.Entry[entries.length + 1];
        all[0] = RawZip.Entry.text(".zgroup", ZGROUP);
        System.arraycopy(entries, 0, all, 1, entries.length);
        return RawZip.write(file, List.of(all));
    }

    /**
     * A Zarr v3 zip store of {@code arrays} arrays {@code a00000, ...}, each {@code zarr.json} with an attribute of
     * {@code attributeChars} characters; the entries share one deflated body, so the zip is small and quick.
     */
    static Path manyArraysV3Zip(Path file, int arrays, int attributeChars) throws IOException {
        String node = "{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": [4], \"data_type\": \"int8\","
                + " \"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": [4]}},"
                + " \"chunk_key_encoding\": {\"name\": \"default\"}, \"fill_value\": 0,"
                + " \"codecs\": [{\"name\": \"bytes\"}], \"attributes\": {\"note\": \"" + "x".repeat(attributeChars)
                + "\"}}";
        byte[] content = utf8(node);
        byte[] deflated = RawZip.deflate(content);
        long crc = RawZip.crc(content);
        List<RawZip.Entry> entries = new java.util.ArrayList<>();
        entries.add(RawZip.Entry.text("zarr.json", "{\"zarr_format\": 3, \"node_type\": \"group\"}"));
        for (int i = 0; i < arrays; i++) {
            entries.add(new RawZip.Entry(
                    String.format(java.util.Locale.ROOT, "a%05d/zarr.json", i),
                    RawZip.DEFLATED,
                    deflated,
                    content.length,
                    crc,
                    -1));
        }
        return RawZip.write(file, entries);
    }

    /** The {@code refs} every kerchunk bomb has: a group and an int8 variable {@code v} of 2^22 elements. */
    private static final String KERCHUNK_META = "\".zgroup\": \"{\\\"zarr_format\\\": 2}\", \"v/.zarray\": "
            + "{\"zarr_format\": 2, \"shape\": [4194304], \"chunks\": [1], \"dtype\": \"|i1\", \"compressor\": null,"
            + " \"fill_value\": 0, \"order\": \"C\", \"filters\": null}";

    /** 341 bytes of kerchunk: a gen of 2048 x 2048 references to one file (without the shared metadata). */
    static final String GEN_4M =
            "{\"version\": 1, \"templates\": {\"u\": \"data.bin\"}, \"gen\": [{\"key\": \"v/{{i*2048+j}}\","
                    + " \"url\": \"{{u}}\", \"offset\": \"{{i*2048+j}}\", \"length\": \"1\", \"dimensions\": {\"i\": {\"stop\": 2048},"
                    + " \"j\": {\"stop\": 2048}}}], \"refs\": {" + KERCHUNK_META + "}}";

    static Path kerchunk(Path file, String json) throws IOException {
        Files.writeString(file, json);
        return file;
    }

    /** A template of {@code templateChars} characters in {@code refs} distinct target URLs. */
    static Path kerchunkTemplate(Path file, int templateChars, int refs) throws IOException {
        StringBuilder b = new StringBuilder(templateChars + refs * 40);
        b.append("{\"version\": 1, \"templates\": {\"u\": \"").append("d".repeat(templateChars));
        b.append("\"}, \"refs\": {").append(KERCHUNK_META);
        for (int i = 0; i < refs; i++) {
            b.append(", \"v/").append(i).append("\": [\"{{u}}/").append(i).append("\", 0, 1]");
        }
        return kerchunk(file, b.append("}}").toString());
    }

    /** A version 0 reference file of {@code refs} references of one byte each. */
    static Path kerchunkRefs(Path file, int refs) throws IOException {
        try (java.io.Writer w = Files.newBufferedWriter(file)) {
            w.write("{" + KERCHUNK_META);
            for (int i = 0; i < refs; i++) {
                w.write(", \"v/" + i + "\": [\"d\", " + i + ", 1]");
            }
            w.write("}");
        }
        return file;
    }

    /**
     * A Zarr v3 directory store with one int8 array {@code v} of one shard of {@code innerChunks} one-element
     * inner chunks, its shard a sparse file as long as its index (16 bytes per inner chunk, and a crc32c).
     */
    static Path hugeShardIndex(Path dir, int innerChunks) throws IOException {
        Files.createDirectories(dir.resolve("v/c"));
        Files.writeString(dir.resolve("zarr.json"), "{\"zarr_format\": 3, \"node_type\": \"group\"}");
        Files.writeString(
                dir.resolve("v/zarr.json"),
                "{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": [" + innerChunks
                        + "], \"data_type\": \"int8\","
                        + " \"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": ["
                        + innerChunks
                        + "]}}, \"chunk_key_encoding\": {\"name\": \"default\"}, \"fill_value\": 0, \"codecs\":"
                        + " [{\"name\": \"sharding_indexed\", \"configuration\": {\"chunk_shape\": [1],"
                        + " \"codecs\": [{\"name\": \"bytes\"}], \"index_codecs\": [{\"name\": \"bytes\","
                        + " \"configuration\": {\"endian\": \"little\"}}, {\"name\": \"crc32c\"}]}}]}");
        try (RandomAccessFile f = new RandomAccessFile(dir.resolve("v/c/0").toFile(), "rw")) {
            f.setLength(16L * innerChunks + 4);
        }
        return dir;
    }

    /** A directory store whose root {@code .zattrs} is a sparse file of {@code bytes} bytes. */
    static Path hugeZattrs(Path dir, long bytes) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(".zgroup"), ZGROUP);
        try (RandomAccessFile f = new RandomAccessFile(dir.resolve(".zattrs").toFile(), "rw")) {
            f.setLength(bytes);
        }
        return dir;
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
