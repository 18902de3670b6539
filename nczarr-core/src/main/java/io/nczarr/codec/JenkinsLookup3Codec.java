package io.nczarr.codec;

import io.nczarr.error.CodecException;
import java.util.Arrays;

/**
 * numcodecs {@code jenkins_lookup3}: Bob Jenkins' lookup3 {@code hashlittle} of the data, stored as
 * 4 little-endian bytes after it; checked, then removed.
 */
final class JenkinsLookup3Codec implements BytesBytesCodec {

    private final int initval;

    JenkinsLookup3Codec(int initval) {
        this.initval = initval;
    }

    static JenkinsLookup3Codec create(CodecConfig config) throws CodecException {
        if (config.params().hasNonNull("prefix")) {
            throw new CodecException("codec 'jenkins_lookup3': a prefix is not supported");
        }
        return new JenkinsLookup3Codec(config.intParam("initval", 0));
    }

    @Override
    public long maxEncodedBytes(long decodedBytes) {
        return decodedBytes + 4;
    }

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        if (encoded.length < 4) {
            throw new CodecException("jenkins_lookup3: data is truncated (" + encoded.length + " bytes, no checksum)");
        }
        int n = encoded.length - 4;
        if (n > maxDecodedBytes) {
            throw CodecSupport.tooLarge("jenkins_lookup3", n, maxDecodedBytes);
        }
        if (hash(encoded, n, initval) != CodecSupport.le32(encoded, n)) {
            throw new CodecException("jenkins_lookup3 checksum mismatch");
        }
        return Arrays.copyOf(encoded, n);
    }

    /** lookup3's hashlittle over {@code k[0..length)}, byte by byte (same result as its aligned paths). */
    static int hash(byte[] k, int length, int initval) {
        int a = 0xdeadbeef + length + initval;
        int b = a;
        int c = a;
        int i = 0;
        while (length > 12) {
            a += word(k, i);
            b += word(k, i + 4);
            c += word(k, i + 8);
            a -= c;
            a ^= Integer.rotateLeft(c, 4);
            c += b;
            b -= a;
            b ^= Integer.rotateLeft(a, 6);
            a += c;
            c -= b;
            c ^= Integer.rotateLeft(b, 8);
            b += a;
            a -= c;
            a ^= Integer.rotateLeft(c, 16);
            c += b;
            b -= a;
            b ^= Integer.rotateLeft(a, 19);
            a += c;
            c -= b;
            c ^= Integer.rotateLeft(b, 4);
            b += a;
            length -= 12;
            i += 12;
        }
        if (length == 0) {
            return c;
        }
        // the tail: the remaining bytes, zero padded, into a, b, c
        int[] abc = new int[3];
        for (int j = 0; j < length; j++) {
            abc[j / 4] += (k[i + j] & 0xff) << (8 * (j % 4));
        }
        a += abc[0];
        b += abc[1];
        c += abc[2];
        c ^= b;
        c -= Integer.rotateLeft(b, 14);
        a ^= c;
        a -= Integer.rotateLeft(c, 11);
        b ^= a;
        b -= Integer.rotateLeft(a, 25);
        c ^= b;
        c -= Integer.rotateLeft(b, 16);
        a ^= c;
        a -= Integer.rotateLeft(c, 4);
        b ^= a;
        b -= Integer.rotateLeft(a, 14);
        c ^= b;
        c -= Integer.rotateLeft(b, 24);
        return c;
    }

    private static int word(byte[] k, int i) {
        return (k[i] & 0xff) | (k[i + 1] & 0xff) << 8 | (k[i + 2] & 0xff) << 16 | (k[i + 3] & 0xff) << 24;
    }
}
