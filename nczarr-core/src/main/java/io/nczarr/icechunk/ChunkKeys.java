package io.nczarr.icechunk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * An array's chunk key encoding (its {@code zarr.json}): {@code default} ({@code c/1/2}, or {@code c.1.2} with
 * separator {@code .}; {@code c} for a scalar) or {@code v2} ({@code 1.2}; {@code 0} for a scalar). Turns the
 * key below the array back into the chunk index Icechunk's manifests are keyed by.
 */
final class ChunkKeys {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final boolean v2;
    private final String separator;
    private final int ndim;

    private ChunkKeys(boolean v2, String separator, int ndim) {
        this.v2 = v2;
        this.separator = separator;
        this.ndim = ndim;
    }

    /** The encoding {@code zarrJson} declares (the default encoding when it declares none or is unreadable). */
    static ChunkKeys of(byte[] zarrJson, int ndim) {
        boolean v2 = false;
        String sep = "/";
        try {
            JsonNode enc = JSON.readTree(zarrJson).path("chunk_key_encoding");
            v2 = "v2".equals(enc.path("name").asText("default"));
            sep = enc.path("configuration").path("separator").asText(v2 ? "." : "/");
        } catch (IOException | RuntimeException e) {
            // the metadata reader reports an unreadable zarr.json; keys are then never asked for
        }
        return new ChunkKeys(v2, sep, ndim);
    }

    /** The chunk index of {@code rest} (the key below the array), or null when it names no chunk. */
    long[] index(String rest) {
        String digits;
        if (v2) {
            digits = rest;
        } else {
            if (!rest.startsWith("c")) {
                return null;
            }
            if (rest.equals("c")) {
                return ndim == 0 ? new long[0] : null;
            }
            if (!rest.startsWith("c" + separator)) {
                return null;
            }
            digits = rest.substring(1 + separator.length());
        }
        if (ndim == 0) {
            return v2 && rest.equals("0") ? new long[0] : null;
        }
        String[] parts = digits.split(java.util.regex.Pattern.quote(separator), -1);
        if (parts.length != ndim) {
            return null;
        }
        long[] idx = new long[ndim];
        for (int d = 0; d < ndim; d++) {
            String p = parts[d];
            if (p.isEmpty() || p.length() > 10 || !p.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
                return null;
            }
            idx[d] = Long.parseLong(p);
            if (idx[d] > 0xffffffffL) {
                return null;
            }
        }
        return idx;
    }
}
