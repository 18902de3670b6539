package io.nczarr.store.kerchunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.nczarr.error.StoreException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Issue 22: VirtualiZarr 2.8's Parquet references (kerchunk's refs_to_dataframe) keep xarray's bare {@code NaN}
 * tokens ({@code "_FillValue": NaN}) in {@code .zmetadata}, as its JSON references do; the folder opened with
 * "not JSON: Non-standard token 'NaN'" before. The tokens are handed on as tokens (never as the strings "NaN",
 * which a pure-Zarr {@code _FillValue} would read as base64).
 */
class ParquetZmetadataTokensTest {

    static ParquetReferences.Layout parse(String json) throws StoreException {
        return ParquetReferences.parse(json.getBytes(StandardCharsets.UTF_8), "mem://refs.parq");
    }

    @Test
    void bareNonFiniteTokensAreReadAndHandedOnAsTokens() throws StoreException {
        ParquetReferences.Layout l = parse("{\"metadata\": {\".zgroup\": {\"zarr_format\": 2},"
                + " \"t/.zarray\": {\"zarr_format\": 2, \"shape\": [4], \"chunks\": [2], \"dtype\": \"<f8\","
                + " \"fill_value\": null, \"order\": \"C\", \"compressor\": null, \"filters\": null},"
                + " \"t/.zattrs\": {\"_FillValue\": NaN, \"valid_max\": Infinity, \"valid_min\": -Infinity,"
                + " \"_ARRAY_DIMENSIONS\": [\"t\"]}}, \"record_size\": 2}");
        assertEquals(
                "{\"_FillValue\":NaN,\"valid_max\":Infinity,\"valid_min\":-Infinity,\"_ARRAY_DIMENSIONS\":[\"t\"]}",
                new String(l.metadata().get("t/.zattrs"), StandardCharsets.UTF_8));
        assertEquals(2, l.recordSize());
        assertEquals(2L, l.grids().get("t")[0]);
    }

    @Test
    void otherNonJsonStillFailsNamingZmetadata() {
        StoreException e = assertThrows(
                StoreException.class,
                () -> parse("{\"metadata\": {\".zgroup\": {\"zarr_format\": 2}}, \"record_size\": 2,}"));
        assertEquals(true, e.getMessage().contains(".zmetadata"), e.getMessage());
    }
}
