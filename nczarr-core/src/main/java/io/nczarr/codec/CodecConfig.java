package io.nczarr.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.nczarr.error.CodecException;

/**
 * A codec entry as written in {@code .zarray} ({@code {"id": "zlib", "level": 1}}) together with
 * the dtype of the array it belongs to (some filters, e.g. shuffle without elementsize, need it).
 *
 * @param id the numcodecs id
 * @param params the whole JSON object of the entry
 * @param arrayDtype the array's Zarr dtype string, e.g. {@code "<f8"}
 */
public record CodecConfig(String id, JsonNode params, String arrayDtype) {

    public CodecConfig {
        if (params == null) {
            params = JsonNodeFactory.instance.objectNode();
        }
    }

    /**
     * An integer parameter; netcdf-c up to 4.9.3 writes them as JSON strings ({@code "level":"5"}),
     * so both forms are accepted.
     */
    public int intParam(String name, int defaultValue) throws CodecException {
        JsonNode n = params.get(name);
        if (n == null || n.isNull()) {
            return defaultValue;
        }
        if (n.isIntegralNumber() && n.canConvertToInt()) {
            return n.intValue();
        }
        if (n.isTextual()) {
            try {
                return Integer.parseInt(n.textValue().trim());
            } catch (NumberFormatException e) {
                // fall through to the error below
            }
        }
        throw new CodecException("codec '" + id + "': parameter '" + name + "' is not an integer: " + n);
    }

    /**
     * Refuses a parameter this codec does not know (besides {@code id}, and {@code name}/{@code
     * configuration} keys of a v3 entry): ignoring it could decode into wrong values silently.
     */
    public void requireOnly(String... known) throws CodecException {
        java.util.Set<String> ok = new java.util.HashSet<>(java.util.List.of(known));
        ok.add("id");
        for (java.util.Iterator<String> it = params.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!ok.contains(k)) {
                throw new CodecException("codec '" + id + "': unknown parameter '" + k + "' (known: "
                        + String.join(", ", known) + "); refusing to guess what it changes");
            }
        }
    }

    /** A string parameter, or {@code defaultValue} when absent. */
    public String stringParam(String name, String defaultValue) {
        JsonNode n = params.get(name);
        return n == null || n.isNull() ? defaultValue : n.asText();
    }

    /** A floating-point parameter (number or numeric string). */
    public double doubleParam(String name, double defaultValue) throws CodecException {
        JsonNode n = params.get(name);
        if (n == null || n.isNull()) {
            return defaultValue;
        }
        if (n.isNumber()) {
            return n.doubleValue();
        }
        if (n.isTextual()) {
            try {
                return Double.parseDouble(n.textValue().trim());
            } catch (NumberFormatException e) {
                // fall through
            }
        }
        throw new CodecException("codec '" + id + "': parameter '" + name + "' is not a number: " + n);
    }
}
