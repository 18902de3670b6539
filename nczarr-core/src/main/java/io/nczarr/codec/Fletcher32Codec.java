package io.nczarr.codec;

import io.nczarr.error.CodecException;

/**
 * {@code fletcher32}: the data followed by a 4-byte little-endian checksum, as written by
 * netcdf-c/HDF5's fletcher32 filter and by numcodecs (whose released codec uses the HDF5
 * algorithm: 16-bit big-endian words, 360-word reduction blocks, an odd last byte as the high
 * byte of a word). Like HDF5, the byte-swapped form written by HDF5 before 1.6.3 is also
 * accepted. Mismatch: {@code CodecException("fletcher32 checksum mismatch")}.
 */
final class Fletcher32Codec implements BytesBytesCodec {

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        if (encoded.length < 4) {
            throw new CodecException("fletcher32: data is truncated (" + encoded.length + " bytes, no checksum)");
        }
        int n = encoded.length - 4;
        if (n > maxDecodedBytes) {
            throw CodecSupport.tooLarge("fletcher32", n, maxDecodedBytes);
        }
        int stored = CodecSupport.le32(encoded, n);
        int sum = checksum(encoded, 0, n);
        if (stored != sum) {
            int reversed = ((sum & 0x00FF00FF) << 8) | ((sum >>> 8) & 0x00FF00FF);
            if (stored != reversed) {
                throw new CodecException("fletcher32 checksum mismatch (stored 0x" + Integer.toHexString(stored)
                        + ", computed 0x" + Integer.toHexString(sum) + ")");
            }
        }
        return java.util.Arrays.copyOf(encoded, n);
    }

    @Override
    public long maxEncodedBytes(long decodedBytes) {
        return decodedBytes + 4;
    }

    /** HDF5's H5_checksum_fletcher32. */
    static int checksum(byte[] data, int off, int len) {
        long sum1 = 0;
        long sum2 = 0;
        int words = len / 2;
        int p = off;
        while (words > 0) {
            int t = Math.min(words, 360);
            words -= t;
            for (int k = 0; k < t; k++) {
                sum1 += ((data[p] & 0xFF) << 8) | (data[p + 1] & 0xFF);
                p += 2;
                sum2 += sum1;
            }
            sum1 = (sum1 & 0xFFFF) + (sum1 >>> 16);
            sum2 = (sum2 & 0xFFFF) + (sum2 >>> 16);
        }
        if ((len & 1) != 0) {
            sum1 += (data[p] & 0xFF) << 8;
            sum2 += sum1;
            sum1 = (sum1 & 0xFFFF) + (sum1 >>> 16);
            sum2 = (sum2 & 0xFFFF) + (sum2 >>> 16);
        }
        sum1 = (sum1 & 0xFFFF) + (sum1 >>> 16);
        sum2 = (sum2 & 0xFFFF) + (sum2 >>> 16);
        return (int) ((sum2 << 16) | sum1);
    }
}
