package io.nczarr.icechunk;

import com.github.luben.zstd.ZstdException;
import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import io.nczarr.error.MetadataException;
import io.nczarr.error.NcZarrException;
import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.store.ByteLimit;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The common form of Icechunk's metadata objects (spec 1 and 2): a 39-byte header — the 12 bytes {@code
 * ICE🧊CHUNK}, 24 bytes naming the writer, the spec version, the file type, the compression — then the
 * FlatBuffers payload, zstd-compressed or not. The payload is decompressed within a {@link ByteLimit}.
 */
final class ObjectFormat {
    static final int HEADER = 39;
    static final byte[] MAGIC = "ICE🧊CHUNK".getBytes(StandardCharsets.UTF_8);

    static final int SNAPSHOT = 1;
    static final int MANIFEST = 2;
    static final int TRANSACTION_LOG = 4;
    static final int REPO_INFO = 6;

    /** The spec versions this reader knows (the header's byte). */
    static final int MIN_SPEC = 1;

    static final int MAX_SPEC = 2;

    private ObjectFormat() {}

    /** What the header says. */
    record Header(String writer, int specVersion, int fileType, int compression) {}

    static Header header(byte[] obj, String repository, String object) throws NcZarrException {
        if (obj.length < HEADER) {
            throw new MetadataException(
                    repository,
                    object,
                    "not an Icechunk object: " + obj.length + " bytes, shorter than the 39-byte header");
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (obj[i] != MAGIC[i]) {
                throw new MetadataException(
                        repository, object, "not an Icechunk object: no ICE\uD83E\uDDCACHUNK magic");
            }
        }
        String writer = new String(obj, 12, 24, StandardCharsets.UTF_8).strip();
        Header h = new Header(writer, obj[36] & 0xff, obj[37] & 0xff, obj[38] & 0xff);
        if (h.specVersion() < MIN_SPEC || h.specVersion() > MAX_SPEC) {
            throw new UnsupportedFeatureException(
                    repository,
                    object,
                    null,
                    "Icechunk spec version " + h.specVersion(),
                    "written by '" + writer + "' in Icechunk spec version " + h.specVersion()
                            + "; this reader knows versions " + MIN_SPEC + " to " + MAX_SPEC,
                    null);
        }
        if (h.compression() > 1) {
            throw new UnsupportedFeatureException(
                    repository,
                    object,
                    null,
                    "Icechunk compression " + h.compression(),
                    "unknown compression algorithm " + h.compression() + " (known: 0 none, 1 zstd)",
                    null);
        }
        return h;
    }

    /**
     * The payload of {@code obj}, checked to be of {@code fileType}, decompressed within {@code limit}.
     */
    static FlatBuf payload(byte[] obj, int fileType, String repository, String object, ByteLimit limit)
            throws NcZarrException {
        Header h = header(obj, repository, object);
        if (h.fileType() != fileType) {
            throw new MetadataException(
                    repository,
                    object,
                    "an Icechunk object of type " + h.fileType() + " where type " + fileType + " (" + typeName(fileType)
                            + ") was expected");
        }
        byte[] body;
        if (h.compression() == 0) {
            body = java.util.Arrays.copyOfRange(obj, HEADER, obj.length);
        } else {
            body = unzstd(obj, repository, object, limit);
        }
        return new FlatBuf(body, repository, object);
    }

    private static byte[] unzstd(byte[] obj, String repository, String object, ByteLimit limit) throws NcZarrException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, obj.length * 4));
        byte[] buf = new byte[16384];
        try (InputStream in =
                new ZstdInputStreamNoFinalizer(new ByteArrayInputStream(obj, HEADER, obj.length - HEADER))) {
            int n;
            while ((n = in.read(buf)) > 0) {
                out.write(buf, 0, n);
                if (out.size() > limit.bytes()) {
                    throw limit.exceeded(repository, object, null, "decompressed Icechunk object", out.size());
                }
            }
        } catch (NcZarrException e) {
            throw e;
        } catch (ZstdException | IOException e) {
            throw new MetadataException(
                    repository,
                    object,
                    "corrupt Icechunk object: its zstd payload does not decompress (" + e.getMessage() + ")");
        }
        return out.toByteArray();
    }

    static String typeName(int fileType) {
        switch (fileType) {
            case SNAPSHOT:
                return "snapshot";
            case MANIFEST:
                return "manifest";
            case TRANSACTION_LOG:
                return "transaction log";
            case REPO_INFO:
                return "repo info";
            default:
                return "unknown";
        }
    }
}
