package io.nczarr.codec;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/** numcodecs {@code gzip}: one gzip member (RFC 1952). */
final class GzipCodec implements Codec {

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(encoded), 8192)) {
            BoundedOutput out = new BoundedOutput("gzip", maxDecodedBytes, maxDecodedBytes);
            while (true) {
                byte[] buf = out.buffer();
                int n = in.read(buf, out.size(), buf.length - out.size());
                if (n < 0) {
                    return out.toArray();
                }
                out.advance(n);
            }
        } catch (CodecException e) {
            throw e;
        } catch (ZipException | java.io.EOFException e) {
            throw new CodecException("gzip: corrupt or truncated data (" + e.getMessage() + ")", e);
        } catch (IOException e) {
            throw new CodecException("gzip: " + e.getMessage(), e);
        }
    }

    static final class Factory implements CodecFactory {
        @Override
        public String id() {
            return "gzip";
        }

        @Override
        public Codec create(CodecConfig config) {
            return new GzipCodec();
        }
    }
}
