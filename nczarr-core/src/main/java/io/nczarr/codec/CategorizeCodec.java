package io.nczarr.codec;

import com.fasterxml.jackson.databind.JsonNode;
import io.nczarr.dtype.NumpyDtype;
import io.nczarr.error.CodecException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * numcodecs {@code categorize}: the stored integers ({@code astype}) are 1-based indexes into
 * {@code labels}; 0 (or any unknown code) is the empty string. The output is the array in
 * {@code dtype} layout: {@code <Un}/{@code >Un} fixed UTF-32 (labels truncated to n code points,
 * zero padded, as numpy assigns them), {@code |Sn} fixed bytes (UTF-8, truncated), or for
 * {@code |O} the numcodecs vlen-utf8 layout (int32 count, then int32 length + UTF-8 per item) so
 * the chunk reader parses it like a vlen-utf8 chunk.
 */
final class CategorizeCodec implements ArrayArrayCodec {

    private final NumpyDtype dtype;
    private final Elements astype;
    private final byte[][] encodedLabels; // per label, in the output element layout
    private final byte[][] utf8Labels;

    CategorizeCodec(NumpyDtype dtype, NumpyDtype astype, List<String> labels) {
        this.dtype = dtype;
        this.astype = new Elements(astype);
        this.encodedLabels = new byte[labels.size()][];
        this.utf8Labels = new byte[labels.size()][];
        for (int i = 0; i < labels.size(); i++) {
            String l = labels.get(i);
            utf8Labels[i] = l.getBytes(StandardCharsets.UTF_8);
            if (dtype.kind() == 'U') {
                byte[] e = new byte[dtype.itemsize()];
                int[] cps = l.codePoints().toArray();
                for (int c = 0; c < Math.min(cps.length, dtype.length()); c++) {
                    int cp = cps[c];
                    for (int k = 0; k < 4; k++) {
                        int shift = dtype.bigEndian() ? 8 * (3 - k) : 8 * k;
                        e[4 * c + k] = (byte) ((cp >>> shift) & 0xff);
                    }
                }
                encodedLabels[i] = e;
            } else if (dtype.kind() == 'S') {
                byte[] e = new byte[dtype.itemsize()];
                System.arraycopy(utf8Labels[i], 0, e, 0, Math.min(e.length, utf8Labels[i].length));
                encodedLabels[i] = e;
            }
        }
    }

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        int n = astype.count("categorize", encoded.length);
        if (dtype.kind() == 'O') {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] four = new byte[4];
            CodecSupport.putLe32(four, 0, n);
            out.writeBytes(four);
            long total = 4;
            for (int i = 0; i < n; i++) {
                long code = astype.getLong(encoded, i);
                byte[] l = code >= 1 && code <= utf8Labels.length ? utf8Labels[(int) code - 1] : new byte[0];
                total += 4 + l.length;
                if (total > maxDecodedBytes) {
                    throw CodecSupport.tooLarge("categorize", total, maxDecodedBytes);
                }
                CodecSupport.putLe32(four, 0, l.length);
                out.writeBytes(four);
                out.writeBytes(l);
            }
            return out.toByteArray();
        }
        long outLen = (long) n * dtype.itemsize();
        if (outLen > maxDecodedBytes) {
            throw CodecSupport.tooLarge("categorize", outLen, maxDecodedBytes);
        }
        byte[] out = new byte[(int) outLen];
        int w = dtype.itemsize();
        for (int i = 0; i < n; i++) {
            long code = astype.getLong(encoded, i);
            if (code >= 1 && code <= encodedLabels.length) {
                System.arraycopy(encodedLabels[(int) code - 1], 0, out, i * w, w);
            }
        }
        return out;
    }

    static CategorizeCodec create(CodecConfig config) throws CodecException {
        NumpyDtype dtype = CodecSupport.dtypeParam(config, "dtype");
        if (dtype.kind() != 'U' && dtype.kind() != 'S' && dtype.kind() != 'O') {
            throw new CodecException(
                    "codec 'categorize': dtype must be a string dtype (U, S or O), not " + dtype.str());
        }
        NumpyDtype astype = CodecSupport.dtype(config, config.stringParam("astype", "|u1"));
        if (!astype.isInteger()) {
            throw new CodecException("codec 'categorize': astype must be an integer dtype, not " + astype.str());
        }
        JsonNode ls = config.params().get("labels");
        if (ls == null || !ls.isArray()) {
            throw new CodecException("codec 'categorize': 'labels' must be a list");
        }
        List<String> labels = new ArrayList<>();
        for (JsonNode l : ls) {
            labels.add(l.isNull() ? "" : l.asText());
        }
        return new CategorizeCodec(dtype, astype, labels);
    }

    @Override
    public ChunkSpec encodedSpec(ChunkSpec decoded) {
        return decoded.as(astype.dtype());
    }
}
