package io.nczarr.codec;

import io.nczarr.error.CodecException;
import java.util.Arrays;
import java.util.function.Supplier;
import java.util.zip.Adler32;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;

/**
 * numcodecs {@code crc32}, {@code adler32} and {@code crc32c}: a 4-byte little-endian checksum
 * before the data ({@code location "start"}, the default of crc32/adler32) or after it
 * ({@code "end"}, the default of crc32c).
 */
final class Checksum32Codec implements BytesBytesCodec {

    private final String id;
    private final Supplier<Checksum> algorithm;
    private final boolean atEnd;

    Checksum32Codec(String id, Supplier<Checksum> algorithm, boolean atEnd) {
        this.id = id;
        this.algorithm = algorithm;
        this.atEnd = atEnd;
    }

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        if (encoded.length < 4) {
            throw new CodecException(id + ": data is truncated (" + encoded.length + " bytes, no checksum)");
        }
        int n = encoded.length - 4;
        if (n > maxDecodedBytes) {
            throw CodecSupport.tooLarge(id, n, maxDecodedBytes);
        }
        int dataOff = atEnd ? 0 : 4;
        int stored = CodecSupport.le32(encoded, atEnd ? n : 0);
        Checksum c = algorithm.get();
        c.update(encoded, dataOff, n);
        if ((int) c.getValue() != stored) {
            throw new CodecException(id + " checksum mismatch");
        }
        return Arrays.copyOfRange(encoded, dataOff, dataOff + n);
    }

    @Override
    public long maxEncodedBytes(long decodedBytes) {
        return decodedBytes + 4;
    }

    static Checksum32Codec crc32(CodecConfig config) throws CodecException {
        return create("crc32", config, CRC32::new, false);
    }

    static Checksum32Codec adler32(CodecConfig config) throws CodecException {
        return create("adler32", config, Adler32::new, false);
    }

    static Checksum32Codec crc32c(CodecConfig config) throws CodecException {
        return create("crc32c", config, CRC32C::new, true);
    }

    private static Checksum32Codec create(
            String id, CodecConfig config, Supplier<Checksum> algorithm, boolean defaultAtEnd) throws CodecException {
        String loc = config.stringParam("location", defaultAtEnd ? "end" : "start");
        if (!loc.equals("start") && !loc.equals("end")) {
            throw new CodecException("codec '" + id + "': location must be 'start' or 'end', not '" + loc + "'");
        }
        return new Checksum32Codec(id, algorithm, loc.equals("end"));
    }
}
