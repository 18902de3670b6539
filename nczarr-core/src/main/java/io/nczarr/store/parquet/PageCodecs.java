package io.nczarr.store.parquet;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.zip.GZIPInputStream;
import org.xerial.snappy.Snappy;

/**
 * The page compression codecs of Parquet that reference files use: UNCOMPRESSED, SNAPPY (raw blocks), GZIP
 * and ZSTD, with the libraries the project ships. The decoded size is the page header's, checked by the caller
 * against the memory budget before this allocates it; a stream that decodes to another size is malformed.
 */
final class PageCodecs {
    static final int UNCOMPRESSED = 0;
    static final int SNAPPY = 1;
    static final int GZIP = 2;
    static final int ZSTD = 6;

    private PageCodecs() {}

    static String name(int codec) {
        switch (codec) {
            case 0:
                return "UNCOMPRESSED";
            case 1:
                return "SNAPPY";
            case 2:
                return "GZIP";
            case 3:
                return "LZO";
            case 4:
                return "BROTLI";
            case 5:
                return "LZ4";
            case 6:
                return "ZSTD";
            case 7:
                return "LZ4_RAW";
            default:
                return "codec " + codec;
        }
    }

    static boolean supported(int codec) {
        return codec == UNCOMPRESSED || codec == SNAPPY || codec == GZIP || codec == ZSTD;
    }

    /** {@code src[off, off + len)} decoded into exactly {@code size} bytes. */
    static byte[] decode(int codec, byte[] src, int off, int len, int size) throws ParquetFormatException {
        try {
            switch (codec) {
                case UNCOMPRESSED: {
                    if (len != size) {
                        throw new ParquetFormatException(
                                "uncompressed page of " + len + " bytes declares " + size + " bytes");
                    }
                    return java.util.Arrays.copyOfRange(src, off, off + len);
                }
                case SNAPPY: {
                    int n = Snappy.uncompressedLength(src, off, len);
                    if (n != size) {
                        throw sizeMismatch(codec, n, size);
                    }
                    byte[] out = new byte[size];
                    int got = Snappy.uncompress(src, off, len, out, 0);
                    if (got != size) {
                        throw sizeMismatch(codec, got, size);
                    }
                    return out;
                }
                case GZIP: {
                    byte[] out = new byte[size];
                    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(src, off, len))) {
                        int got = in.readNBytes(out, 0, size);
                        if (got != size || in.read() >= 0) {
                            throw new ParquetFormatException("GZIP page does not decode to its " + size + " bytes");
                        }
                    }
                    return out;
                }
                case ZSTD: {
                    byte[] out = new byte[size];
                    long got = Zstd.decompressByteArray(out, 0, size, src, off, len);
                    if (got != size) {
                        throw sizeMismatch(codec, got, size);
                    }
                    return out;
                }
                default:
                    throw new ParquetFormatException("unsupported page codec " + name(codec));
            }
        } catch (IOException | RuntimeException e) {
            throw new ParquetFormatException("corrupt " + name(codec) + " page: " + e.getMessage(), e);
        }
    }

    private static ParquetFormatException sizeMismatch(int codec, long got, int size) {
        return new ParquetFormatException(name(codec) + " page decodes to " + got + " bytes, its header says " + size);
    }
}
