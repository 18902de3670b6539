package io.nczarr.codec;

import com.fasterxml.jackson.databind.JsonNode;
import io.nczarr.error.CodecException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.tukaani.xz.DeltaOptions;
import org.tukaani.xz.LZMA2InputStream;
import org.tukaani.xz.LZMAInputStream;
import org.tukaani.xz.UnsupportedOptionsException;
import org.tukaani.xz.XZInputStream;

/**
 * numcodecs {@code lzma} (Python's lzma module), via org.tukaani:xz.
 * <ul>
 * <li>format 1 (FORMAT_XZ, the default) and 0 (FORMAT_AUTO): .xz streams (concatenated allowed);
 * AUTO also accepts the legacy .lzma ("alone") format</li>
 * <li>format 2 (FORMAT_ALONE): legacy .lzma</li>
 * <li>format 3 (FORMAT_RAW): a raw filter chain from {@code filters}: LZMA2 (id 33), LZMA1
 * (id 0x4000000000000001), optionally preceded by a delta filter (id 3)</li>
 * </ul>
 * Memory: a dictionary is never larger than the decoded-size bound (a dictionary bigger than the
 * whole output is never used): .xz streams go through {@link XzContainer}; only .xz streams with
 * filters other than delta/LZMA2 fall back to xz-java's XZInputStream, which allocates the
 * dictionary the stream declares, capped at {@link #XZ_MEMORY_LIMIT_KIB} (enough for preset 9).
 */
final class LzmaCodec implements BytesBytesCodec {

    static final long FILTER_LZMA1 = 0x4000000000000001L;
    static final long FILTER_LZMA2 = 0x21L;
    static final long FILTER_DELTA = 0x03L;
    static final int XZ_MEMORY_LIMIT_KIB = 80 * 1024;
    private static final int[] PRESET_DICT = {
        1 << 18, 1 << 20, 1 << 21, 1 << 22, 1 << 22, 1 << 23, 1 << 23, 1 << 24, 1 << 25, 1 << 26
    };

    private final int format;
    private final List<Filter> filters;

    private record Filter(long id, int dictSize, int lc, int lp, int pb, int dist) {}

    LzmaCodec(int format, List<Filter> filters) {
        this.format = format;
        this.filters = filters;
    }

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        if ((format == 1 || format == 0) && encoded.length >= 6 && (encoded[0] & 0xFF) == 0xFD && encoded[1] == '7') {
            byte[] r = XzContainer.decode(encoded, maxDecodedBytes);
            if (r != null) {
                return r;
            }
        }
        InputStream raw = new ByteArrayInputStream(encoded);
        InputStream in;
        try {
            switch (format) {
                case 0:
                    if (encoded.length >= 6 && (encoded[0] & 0xFF) == 0xFD && encoded[1] == '7') {
                        in = new XZInputStream(raw, XZ_MEMORY_LIMIT_KIB);
                    } else {
                        in = alone(raw, maxDecodedBytes);
                    }
                    break;
                case 1:
                    in = new XZInputStream(raw, XZ_MEMORY_LIMIT_KIB);
                    break;
                case 2:
                    in = alone(raw, maxDecodedBytes);
                    break;
                case 3:
                    in = rawChain(raw, maxDecodedBytes);
                    break;
                default:
                    throw new CodecException("lzma: unsupported format " + format);
            }
        } catch (CodecException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw new CodecException("lzma: corrupt or truncated data (" + e.getMessage() + ")", e);
        }
        return CodecSupport.drain("lzma", in, maxDecodedBytes, (long) encoded.length * 4);
    }

    private static int capDict(int dictSize, int limit) {
        // Round up to 4 KiB; xz-java needs at least 4 KiB, and a smaller dictionary than the
        // encoder's is equivalent while it holds the whole output.
        long cap = Math.max(4096L, (limit + 4095L) & ~4095L);
        return (int) Math.min(dictSize, cap);
    }

    private static InputStream alone(InputStream raw, int limit) throws IOException, CodecException {
        // .lzma header: props byte, 4-byte dict size, 8-byte uncompressed size (-1 = unknown)
        byte[] hdr = raw.readNBytes(13);
        if (hdr.length < 13) {
            throw new CodecException("lzma: .lzma header is truncated");
        }
        int props = hdr[0] & 0xFF;
        long dict = CodecSupport.le32(hdr, 1) & 0xFFFFFFFFL;
        long usize = (CodecSupport.le32(hdr, 5) & 0xFFFFFFFFL) | ((long) CodecSupport.le32(hdr, 9) << 32);
        if (usize > limit) {
            throw CodecSupport.tooLarge("lzma", usize, limit);
        }
        if (props > (4 * 5 + 4) * 9 + 8) {
            throw new CodecException("lzma: invalid .lzma properties byte " + props);
        }
        int dictSize = capDict((int) Math.min(dict, Integer.MAX_VALUE - 16), limit);
        return new LZMAInputStream(raw, usize, (byte) props, dictSize);
    }

    private InputStream rawChain(InputStream raw, int limit) throws IOException, CodecException {
        if (filters.isEmpty()) {
            throw new CodecException("lzma: raw format needs a filter chain");
        }
        Filter last = filters.get(filters.size() - 1);
        InputStream in;
        if (last.id == FILTER_LZMA2) {
            in = new LZMA2InputStream(raw, capDict(last.dictSize, limit));
        } else if (last.id == FILTER_LZMA1) {
            in = new LZMAInputStream(raw, -1, last.lc, last.lp, last.pb, capDict(last.dictSize, limit), null);
        } else {
            throw new CodecException("lzma: the last raw filter must be LZMA1 or LZMA2, not id " + last.id);
        }
        for (int k = filters.size() - 2; k >= 0; k--) {
            Filter f = filters.get(k);
            if (f.id == FILTER_DELTA) {
                try {
                    in = new DeltaOptions(f.dist).getInputStream(in, org.tukaani.xz.ArrayCache.getDummyCache());
                } catch (UnsupportedOptionsException e) {
                    throw new CodecException("lzma: bad delta filter distance " + f.dist);
                }
            } else {
                throw new CodecException("lzma: unsupported raw filter id " + f.id);
            }
        }
        return in;
    }

    static LzmaCodec create(CodecConfig config) throws CodecException {
        int format = config.intParam("format", 1);
        if (format < 0 || format > 3) {
            throw new CodecException("codec 'lzma': unknown format " + format);
        }
        List<Filter> filters = new ArrayList<>();
        JsonNode fs = config.params().get("filters");
        if (fs != null && !fs.isNull()) {
            if (!fs.isArray()) {
                throw new CodecException("codec 'lzma': 'filters' must be a list");
            }
            for (JsonNode f : fs) {
                filters.add(filter(f));
            }
        }
        if (format == 3 && filters.isEmpty()) {
            throw new CodecException("codec 'lzma': format 3 (raw) needs 'filters'");
        }
        return new LzmaCodec(format, List.copyOf(filters));
    }

    private static Filter filter(JsonNode f) throws CodecException {
        CodecConfig c = new CodecConfig("lzma", f, null);
        JsonNode idNode = f.get("id");
        if (idNode == null || !idNode.canConvertToLong()) {
            throw new CodecException("codec 'lzma': filter without a numeric id: " + f);
        }
        long id = idNode.longValue();
        int preset = c.intParam("preset", 6) & 0x1F; // the EXTREME flag does not change the dictionary
        if (preset > 9) {
            throw new CodecException("codec 'lzma': bad preset " + preset);
        }
        int dict = c.intParam("dict_size", PRESET_DICT[preset]);
        if (dict < 4096 && (id == FILTER_LZMA1 || id == FILTER_LZMA2)) {
            dict = 4096;
        }
        int lc = c.intParam("lc", 3);
        int lp = c.intParam("lp", 0);
        int pb = c.intParam("pb", 2);
        int dist = c.intParam("dist", 1);
        return new Filter(id, dict, lc, lp, pb, dist);
    }
}
