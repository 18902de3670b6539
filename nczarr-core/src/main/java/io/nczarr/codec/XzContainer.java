package io.nczarr.codec;

import io.nczarr.error.CodecException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.zip.CRC32;
import org.tukaani.xz.ArrayCache;
import org.tukaani.xz.DeltaOptions;
import org.tukaani.xz.LZMA2InputStream;
import org.tukaani.xz.UnsupportedOptionsException;

/**
 * A small .xz container reader (hand-written; the LZMA2 and delta decoders are xz-java's). It
 * exists so that the LZMA2 dictionary is never larger than the decoded-size bound: xz-java's
 * XZInputStream allocates the whole dictionary the stream declares (64 MiB for preset 9, up to
 * 1.5 GiB for a hostile header) even for a 4 KB chunk. Handles concatenated streams, stream
 * padding, blocks with [delta,] LZMA2 filter chains and the None/CRC32/CRC64/SHA-256 checks.
 * Anything else returns {@code null} so the caller can fall back to XZInputStream.
 */
final class XzContainer {
    private static final byte[] MAGIC = {(byte) 0xFD, '7', 'z', 'X', 'Z', 0};
    private static final long[] CRC64_TABLE = new long[256];

    static {
        for (int i = 0; i < 256; i++) {
            long c = i;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) != 0 ? (c >>> 1) ^ 0xC96C5795D7870F42L : c >>> 1;
            }
            CRC64_TABLE[i] = c;
        }
    }

    private final byte[] in;
    private int pos;
    private final int limit;
    private byte[] out;
    private int n;

    /** Marker: the stream uses something this reader leaves to XZInputStream. */
    static final class Unsupported extends Exception {
        private static final long serialVersionUID = 1L;

        Unsupported(String what) {
            super(what, null, false, false);
        }
    }

    private XzContainer(byte[] in, int limit) {
        this.in = in;
        this.limit = limit;
        this.out = new byte[Math.max(0, ZlibCodec.initialSize(limit, in.length))];
    }

    /** Decodes all streams; {@code null} if a feature needs the general decoder. */
    static byte[] decode(byte[] in, int limit) throws CodecException {
        XzContainer x = new XzContainer(in, limit);
        try {
            x.streams();
        } catch (Unsupported e) {
            return null;
        } catch (IOException | RuntimeException e) {
            if (e instanceof CodecException) {
                throw (CodecException) e;
            }
            throw new CodecException("lzma: corrupt or truncated .xz data (" + e + ")", e);
        }
        return x.n == x.out.length ? x.out : Arrays.copyOf(x.out, x.n);
    }

    private CodecException corrupt(String what) {
        return new CodecException("lzma: corrupt or truncated .xz data (" + what + ")");
    }

    private void need(int k) throws CodecException {
        if (k < 0 || in.length - pos < k) {
            throw corrupt("unexpected end of data");
        }
    }

    private long varint() throws CodecException {
        long v = 0;
        for (int i = 0; i < 9; i++) {
            need(1);
            int b = in[pos++] & 0xFF;
            v |= (long) (b & 0x7F) << (7 * i);
            if ((b & 0x80) == 0) {
                if (b == 0 && i > 0) {
                    throw corrupt("non-minimal integer");
                }
                return v;
            }
        }
        throw corrupt("integer too long");
    }

    private void checkCrc32(int from, int to) throws CodecException {
        need(4);
        CRC32 c = new CRC32();
        c.update(in, from, to - from);
        if ((int) c.getValue() != CodecSupport.le32(in, pos)) {
            throw corrupt("header CRC32 mismatch");
        }
        pos += 4;
    }

    private void streams() throws IOException, Unsupported {
        boolean first = true;
        while (pos < in.length) {
            if (!first) {
                // stream padding: zero bytes in groups of four
                if (in[pos] == 0) {
                    need(4);
                    if (in[pos + 1] != 0 || in[pos + 2] != 0 || in[pos + 3] != 0) {
                        throw corrupt("bad stream padding");
                    }
                    pos += 4;
                    continue;
                }
            }
            stream();
            first = false;
        }
        if (first) {
            throw corrupt("empty input");
        }
    }

    private void stream() throws IOException, Unsupported {
        need(12);
        if (!Arrays.equals(in, pos, pos + 6, MAGIC, 0, 6)) {
            throw corrupt("not an .xz stream");
        }
        int flagsAt = pos + 6;
        if (in[flagsAt] != 0 || (in[flagsAt + 1] & 0xF0) != 0) {
            throw new Unsupported("stream flags");
        }
        int check = in[flagsAt + 1] & 0x0F;
        pos += 8;
        checkCrc32(flagsAt, flagsAt + 2);
        int checkSize = check == 0 ? 0 : check == 1 ? 4 : check == 4 ? 8 : check == 10 ? 32 : -1;
        if (checkSize < 0) {
            throw new Unsupported("check type " + check);
        }
        long records = 0;
        while (true) {
            need(1);
            if (in[pos] == 0) {
                break; // index indicator
            }
            block(check, checkSize);
            records++;
        }
        // index: indicator, record count, records, padding, CRC32
        int indexStart = pos;
        pos++;
        long count = varint();
        if (count != records) {
            throw corrupt("index record count");
        }
        for (long r = 0; r < count; r++) {
            varint();
            varint();
        }
        while ((pos - indexStart) % 4 != 0) {
            need(1);
            if (in[pos++] != 0) {
                throw corrupt("index padding");
            }
        }
        checkCrc32(indexStart, pos);
        // footer: CRC32, backward size, flags, "YZ"
        need(12);
        if (in[pos + 10] != 'Y'
                || in[pos + 11] != 'Z'
                || in[pos + 8] != in[flagsAt]
                || in[pos + 9] != in[flagsAt + 1]) {
            throw corrupt("stream footer");
        }
        pos += 12;
    }

    private void block(int check, int checkSize) throws IOException, Unsupported {
        int hdrStart = pos;
        int hdrSize = ((in[pos] & 0xFF) + 1) * 4;
        need(hdrSize);
        int hdrEnd = hdrStart + hdrSize - 4;
        pos++;
        int flags = in[pos++] & 0xFF;
        if ((flags & 0x3C) != 0) {
            throw corrupt("reserved block flags");
        }
        int nfilters = (flags & 0x03) + 1;
        long csize = (flags & 0x40) != 0 ? varint() : -1;
        long usize = (flags & 0x80) != 0 ? varint() : -1;
        long[] ids = new long[nfilters];
        byte[][] props = new byte[nfilters][];
        for (int f = 0; f < nfilters; f++) {
            ids[f] = varint();
            long ps = varint();
            if (ps > hdrEnd - pos) {
                throw corrupt("filter properties");
            }
            props[f] = Arrays.copyOfRange(in, pos, pos + (int) ps);
            pos += (int) ps;
        }
        if (pos > hdrEnd) {
            throw corrupt("block header");
        }
        for (int p = pos; p < hdrEnd; p++) {
            if (in[p] != 0) {
                throw corrupt("block header padding");
            }
        }
        pos = hdrEnd;
        checkCrc32(hdrStart, hdrEnd);
        if (usize > limit - n && usize >= 0) {
            throw CodecSupport.tooLarge("lzma", n + usize, limit);
        }
        // filter chain: [delta,] LZMA2
        if (ids[nfilters - 1] != LzmaCodec.FILTER_LZMA2 || props[nfilters - 1].length != 1) {
            throw new Unsupported("filter chain");
        }
        for (int f = 0; f < nfilters - 1; f++) {
            if (ids[f] != LzmaCodec.FILTER_DELTA || props[f].length != 1) {
                throw new Unsupported("filter " + ids[f]);
            }
        }
        int dp = props[nfilters - 1][0] & 0xFF;
        if (dp > 40) {
            throw corrupt("LZMA2 dictionary size");
        }
        long dict = dp == 40 ? 0xFFFFFFFFL : (2L | (dp & 1)) << (dp / 2 + 11);
        int room = limit - n;
        int dictSize = (int) Math.min(dict, Math.max(4096L, (room + 4095L) & ~4095L));
        int dataStart = pos;
        ByteArrayInputStream src = new ByteArrayInputStream(in, pos, in.length - pos);
        InputStream s = new LZMA2InputStream(src, dictSize);
        for (int f = nfilters - 2; f >= 0; f--) {
            try {
                s = new DeltaOptions((props[f][0] & 0xFF) + 1).getInputStream(s, ArrayCache.getDummyCache());
            } catch (UnsupportedOptionsException e) {
                throw corrupt("delta filter");
            }
        }
        int blockOut = n;
        while (true) {
            if (n == out.length) {
                if (n >= limit) {
                    if (s.read() >= 0) {
                        throw new CodecException("lzma: decoded data exceeds the expected " + limit + " bytes");
                    }
                    break;
                }
                out = Arrays.copyOf(out, (int) Math.min(limit, Math.max(16L, 2L * out.length)));
            }
            int k = s.read(out, n, out.length - n);
            if (k < 0) {
                break;
            }
            n += k;
        }
        pos = in.length - src.available();
        long used = pos - dataStart;
        if ((csize >= 0 && csize != used) || (usize >= 0 && usize != n - blockOut)) {
            throw corrupt("block sizes do not match its header");
        }
        while ((pos - hdrStart) % 4 != 0) {
            need(1);
            if (in[pos++] != 0) {
                throw corrupt("block padding");
            }
        }
        need(checkSize);
        if (!checkOk(check, blockOut, n - blockOut, pos)) {
            throw new CodecException("lzma: .xz integrity check failed (corrupt data)");
        }
        pos += checkSize;
    }

    private boolean checkOk(int check, int off, int len, int at) {
        switch (check) {
            case 0:
                return true;
            case 1: {
                CRC32 c = new CRC32();
                c.update(out, off, len);
                return (int) c.getValue() == CodecSupport.le32(in, at);
            }
            case 4: {
                long crc = -1L;
                for (int i = off; i < off + len; i++) {
                    crc = CRC64_TABLE[(int) ((crc ^ out[i]) & 0xFF)] ^ (crc >>> 8);
                }
                crc = ~crc;
                long stored = (CodecSupport.le32(in, at) & 0xFFFFFFFFL) | ((long) CodecSupport.le32(in, at + 4) << 32);
                return crc == stored;
            }
            default: {
                try {
                    MessageDigest md = MessageDigest.getInstance("SHA-256");
                    md.update(out, off, len);
                    return Arrays.equals(md.digest(), 0, 32, in, at, at + 32);
                } catch (NoSuchAlgorithmException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
    }
}
