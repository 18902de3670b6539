package io.nczarr.codec;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.nczarr.codec.CodecContractTest.Sample;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Random;
import net.jpountz.lz4.LZ4Factory;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream;

/** Samples of {@link CodecContractTest} made here (seeded), for codecs without a numcodecs fixture. */
final class ContractSamples {
    private ContractSamples() {}

    private static final ObjectMapper JSON = new ObjectMapper();

    /** scale_offset on float64: decode = v / 4 + 1.5 (exact in binary). */
    static Sample scaleOffset() throws IOException {
        int n = 500;
        java.nio.ByteBuffer enc = java.nio.ByteBuffer.allocate(8 * n).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        java.nio.ByteBuffer dec = java.nio.ByteBuffer.allocate(8 * n).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        Random r = new Random(22);
        for (int i = 0; i < n; i++) {
            double v = r.nextInt(100000) - 50000;
            enc.putDouble(v);
            dec.putDouble(v / 4 + 1.5);
        }
        return new Sample(
                JSON.readTree("{\"id\":\"scale_offset\",\"scale\":4,\"offset\":1.5}"),
                "<f8",
                enc.array(),
                8 * n,
                TestSupport.sha256(dec.array()));
    }

    /** cast_value: float64 stored as uint16 values. */
    static Sample castValue() throws IOException {
        int n = 700;
        java.nio.ByteBuffer enc = java.nio.ByteBuffer.allocate(2 * n).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        java.nio.ByteBuffer dec = java.nio.ByteBuffer.allocate(8 * n).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        Random r = new Random(23);
        for (int i = 0; i < n; i++) {
            int v = r.nextInt(65536);
            enc.putShort((short) v);
            dec.putDouble(v);
        }
        return new Sample(
                JSON.readTree("{\"id\":\"cast_value\",\"data_type\":\"uint16\"}"),
                "<f8",
                enc.array(),
                8 * n,
                TestSupport.sha256(dec.array()));
    }

    /** bitround decodes as the identity: any float32 data is its own encoding. */
    static Sample bitround() throws IOException {
        byte[] data = new byte[4000];
        new Random(10).nextBytes(data);
        return new Sample(
                JSON.readTree("{\"id\":\"bitround\",\"keepbits\":10}"),
                "<f4",
                data,
                data.length,
                TestSupport.sha256(data));
    }

    private static byte[] data(int n, long seed) {
        // compressible: runs of small values with some noise
        Random r = new Random(seed);
        byte[] d = new byte[n];
        for (int i = 0; i < n; i++) {
            d[i] = (byte) (r.nextInt(8) == 0 ? r.nextInt(256) : (i / 16) % 7);
        }
        return d;
    }

    /** imagecodecs LZF with its size header: literal runs and back references (encoded here, greedily). */
    static Sample lzf() throws IOException {
        byte[] d = data(3000, 41);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(new byte[] {(byte) d.length, (byte) (d.length >>> 8), 0, 0});
        int i = 0;
        int litStart = 0;
        while (i < d.length) {
            int best = 0;
            int dist = 0;
            for (int back = 1; back <= Math.min(i, 8191); back++) {
                int n = 0;
                while (i + n < d.length && n < 264 && d[i + n] == d[i - back + n]) {
                    n++;
                }
                if (n > best) {
                    best = n;
                    dist = back;
                }
            }
            if (best >= 3) {
                flushLiterals(out, d, litStart, i);
                int len = best - 2;
                int off = dist - 1;
                if (len < 7) {
                    out.write((len << 5) | (off >>> 8));
                } else {
                    out.write((7 << 5) | (off >>> 8));
                    out.write(len - 7);
                }
                out.write(off & 0xFF);
                i += best;
                litStart = i;
            } else {
                i++;
            }
        }
        flushLiterals(out, d, litStart, d.length);
        return new Sample(
                JSON.readTree("{\"id\":\"imagecodecs_lzf\"}"),
                "|u1",
                out.toByteArray(),
                d.length,
                TestSupport.sha256(d));
    }

    private static void flushLiterals(ByteArrayOutputStream out, byte[] d, int from, int to) {
        for (int p = from; p < to; p += 32) {
            int n = Math.min(32, to - p);
            out.write(n - 1);
            out.write(d, p, n);
        }
    }

    /** HDF5's LZ4 filter layout: sizes big endian, blocks of 1000 bytes, one stored raw. */
    static Sample lz4h5() throws IOException {
        byte[] d = data(3500, 42);
        int block = 1000;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writeBe(out, d.length, 8);
        writeBe(out, block, 4);
        for (int o = 0, k = 0; o < d.length; o += block, k++) {
            int n = Math.min(block, d.length - o);
            byte[] c =
                    LZ4Factory.fastestInstance().fastCompressor().compress(java.util.Arrays.copyOfRange(d, o, o + n));
            if (k == 1 || c.length >= n) {
                writeBe(out, n, 4);
                out.write(d, o, n);
            } else {
                writeBe(out, c.length, 4);
                out.write(c);
            }
        }
        return new Sample(
                JSON.readTree("{\"id\":\"imagecodecs_lz4h5\"}"),
                "|u1",
                out.toByteArray(),
                d.length,
                TestSupport.sha256(d));
    }

    private static void writeBe(ByteArrayOutputStream out, long v, int n) {
        for (int i = n - 1; i >= 0; i--) {
            out.write((int) (v >>> (8 * i)));
        }
    }

    static Sample bz2() throws IOException {
        byte[] d = data(5000, 43);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (BZip2CompressorOutputStream bz = new BZip2CompressorOutputStream(out)) {
            bz.write(d);
        }
        return new Sample(
                JSON.readTree("{\"id\":\"imagecodecs_bz2\",\"level\":9}"),
                "|u1",
                out.toByteArray(),
                d.length,
                TestSupport.sha256(d));
    }
}
