package io.nczarr.store;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Writes zip files field by field, so that tests can make what no zip library writes: sizes and CRCs
 * that lie, duplicate names, local header offsets that point nowhere, entries whose data is given
 * already compressed (a bomb made without inflating it first).
 */
public final class RawZip {
    private RawZip() {}

    public static final int STORED = 0;
    public static final int DEFLATED = 8;

    /**
     * One entry as the zip directory describes it.
     *
     * @param data the bytes as stored (deflated data for {@link #DEFLATED})
     * @param size the uncompressed size the headers declare
     * @param crc the CRC-32 the headers declare
     * @param localOffset where the directory says the local header is; {@code -1}: where it really is
     */
    public record Entry(String name, int method, byte[] data, long size, long crc, long localOffset) {

        /** {@code content} deflated, with its true size and CRC. */
        public static Entry deflated(String name, byte[] content) {
            return new Entry(name, DEFLATED, deflate(content), content.length, RawZip.crc(content), -1);
        }

        public static Entry stored(String name, byte[] content) {
            return new Entry(name, STORED, content.clone(), content.length, RawZip.crc(content), -1);
        }

        public static Entry text(String name, String content) {
            return deflated(name, content.getBytes(StandardCharsets.UTF_8));
        }

        public Entry withSize(long n) {
            return new Entry(name, method, data, n, crc, localOffset);
        }

        public Entry withCrc(long c) {
            return new Entry(name, method, data, size, c, localOffset);
        }

        public Entry withLocalOffset(long offset) {
            return new Entry(name, method, data, size, crc, offset);
        }
    }

    /** Raw deflate (no zlib header), as zip entries hold it. */
    public static byte[] deflate(byte[] content) {
        Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        try {
            d.setInput(content);
            d.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            while (!d.finished()) {
                out.write(buf, 0, d.deflate(buf));
            }
            return out.toByteArray();
        } finally {
            d.end();
        }
    }

    public static long crc(byte[] content) {
        CRC32 c = new CRC32();
        c.update(content);
        return c.getValue();
    }

    public static Path write(Path file, List<Entry> entries) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            write(out, entries);
        }
        return file;
    }

    public static void write(OutputStream out, List<Entry> entries) throws IOException {
        long pos = 0;
        List<Long> offsets = new ArrayList<>();
        for (Entry e : entries) {
            offsets.add(pos);
            byte[] name = e.name().getBytes(StandardCharsets.UTF_8);
            ByteBuffer h = le(30 + name.length);
            h.putInt(0x04034b50).putShort((short) 20).putShort((short) 0x0800).putShort((short) e.method());
            h.putShort((short) 0).putShort((short) 0x5021); // 2020-01-01 00:00
            h.putInt((int) e.crc()).putInt(e.data().length).putInt((int) e.size());
            h.putShort((short) name.length).putShort((short) 0).put(name);
            out.write(h.array());
            out.write(e.data());
            pos += h.capacity() + e.data().length;
        }
        long cenStart = pos;
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            byte[] name = e.name().getBytes(StandardCharsets.UTF_8);
            ByteBuffer c = le(46 + name.length);
            c.putInt(0x02014b50).putShort((short) 20).putShort((short) 20).putShort((short) 0x0800);
            c.putShort((short) e.method()).putShort((short) 0).putShort((short) 0x5021);
            c.putInt((int) e.crc()).putInt(e.data().length).putInt((int) e.size());
            c.putShort((short) name.length).putShort((short) 0).putShort((short) 0);
            c.putShort((short) 0).putShort((short) 0).putInt(0);
            c.putInt((int) (e.localOffset() >= 0 ? e.localOffset() : offsets.get(i)));
            c.put(name);
            out.write(c.array());
            pos += c.capacity();
        }
        ByteBuffer end = le(22);
        end.putInt(0x06054b50).putShort((short) 0).putShort((short) 0);
        end.putShort((short) entries.size()).putShort((short) entries.size());
        end.putInt((int) (pos - cenStart)).putInt((int) cenStart).putShort((short) 0);
        out.write(end.array());
    }

    private static ByteBuffer le(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }
}
