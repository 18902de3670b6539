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
final class Checksum32Codec implements Codec {

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

    static final class Factory implements CodecFactory {
        private final String id;
        private final Supplier<Checksum> algorithm;
        private final boolean defaultAtEnd;

        Factory(String id, Supplier<Checksum> algorithm, boolean defaultAtEnd) {
            this.id = id;
            this.algorithm = algorithm;
            this.defaultAtEnd = defaultAtEnd;
        }

        static Factory crc32() {
            return new Factory("crc32", CRC32::new, false);
        }

        static Factory adler32() {
            return new Factory("adler32", Adler32::new, false);
        }

        static Factory crc32c() {
            return new Factory("crc32c", CRC32C::new, true);
        }

        @Override
        public String id() {
            return id;
        }

        @Override
        public Codec create(CodecConfig config) throws CodecException {
            String loc = config.stringParam("location", defaultAtEnd ? "end" : "start");
            if (!loc.equals("start") && !loc.equals("end")) {
                throw new CodecException("codec '" + id + "': location must be 'start' or 'end', not '" + loc + "'");
            }
            return new Checksum32Codec(id, algorithm, loc.equals("end"));
        }
    }
}
