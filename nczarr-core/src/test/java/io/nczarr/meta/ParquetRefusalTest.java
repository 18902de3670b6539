package io.nczarr.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.store.MemoryStore;
import io.nczarr.url.DatasetUrl;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * A kerchunk Parquet reference folder (fsspec's layout: {@code .zmetadata} with {@code record_size},
 * chunk references in {@code <var>/refs.N.parq}) reached as a plain Zarr store is refused, never read as fills;
 * {@code Stores} opens such folders as references before this point.
 */
class ParquetRefusalTest {

    static final String ZMETADATA = "{\"metadata\":{\".zgroup\":{\"zarr_format\":2},"
            + "\"t/.zarray\":{\"zarr_format\":2,\"shape\":[4],\"chunks\":[2],\"dtype\":\"<f8\","
            + "\"fill_value\":0.0,\"order\":\"C\",\"compressor\":null,\"filters\":null},"
            + "\"t/.zattrs\":{\"_ARRAY_DIMENSIONS\":[\"x\"]}},\"record_size\":100000}";

    @Test
    void aParquetReferenceFolderIsRefusedInEveryMode() {
        for (DatasetUrl.Format f : DatasetUrl.Format.values()) {
            MemoryStore s = MemoryStore.builder("mem:refs.parq")
                    .put(".zmetadata", ZMETADATA)
                    .put(".zgroup", "{\"zarr_format\":2}")
                    .put("t/refs.0.parq", new byte[] {'P', 'A', 'R', '1'})
                    .build();
            UnsupportedFeatureException e =
                    assertThrows(UnsupportedFeatureException.class, () -> MetadataReader.read(s, f, true));
            String msg = e.getMessage().toLowerCase(Locale.ROOT);
            assertTrue(msg.contains("open it as references: url#mode=kerchunk"), msg);
            assertTrue(msg.contains("mem:refs.parq"), msg);
            assertEquals("Parquet references", e.feature());
        }
    }

    @Test
    void consolidatedMetadataWithoutRecordSizeStillOpens() throws Exception {
        MemoryStore s = MemoryStore.builder("mem:plain")
                .put(".zmetadata", ZMETADATA.replace(",\"record_size\":100000", ""))
                .build();
        assertEquals(
                1,
                MetadataReader.read(s, DatasetUrl.Format.ZARR, true)
                        .root()
                        .variables()
                        .size());
    }
}
