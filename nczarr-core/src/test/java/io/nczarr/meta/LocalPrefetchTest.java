package io.nczarr.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.nczarr.error.MetadataException;
import io.nczarr.model.Attr;
import io.nczarr.model.DatasetModel;
import io.nczarr.model.VarModel;
import io.nczarr.store.MemoryStore;
import io.nczarr.url.DatasetUrl;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A local group of many arrays is read with its objects prefetched on a pool: same model, same errors, no hang. */
@Timeout(60)
class LocalPrefetchTest {
    private static final ExecutorService POOL = Executors.newFixedThreadPool(2);

    @AfterAll
    static void stop() {
        POOL.shutdownNow();
    }

    private static Map<String, byte[]> group(int arrays) {
        Map<String, byte[]> o = new HashMap<>();
        o.put(".zgroup", bytes("{\"zarr_format\": 2}"));
        o.put(".zattrs", bytes("{\"title\": \"many\"}"));
        for (int i = 0; i < arrays; i++) {
            String a = String.format("a%03d", i);
            o.put(
                    a + "/.zarray",
                    bytes("{\"zarr_format\": 2, \"shape\": [" + (i + 1) + "], \"chunks\": [4],"
                            + " \"dtype\": \"<f4\", \"compressor\": null, \"fill_value\": 0.0, \"filters\": null,"
                            + " \"order\": \"C\"}"));
            if (i % 3 != 0) {
                o.put(a + "/.zattrs", bytes("{\"_ARRAY_DIMENSIONS\": [\"n" + i + "\"], \"k\": " + i + "}"));
            }
        }
        return o;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> summary(DatasetModel m) {
        List<String> lines = new ArrayList<>();
        lines.add(attributes(m.root().attributes()));
        lines.add(m.root().dimensions().toString());
        for (VarModel v : m.root().variables()) {
            lines.add(v.name() + " " + Arrays.toString(v.shape()) + " " + v.dimensions() + " "
                    + attributes(v.attributes()));
        }
        return lines;
    }

    private static String attributes(List<Attr> attrs) {
        StringBuilder s = new StringBuilder();
        for (Attr a : attrs) {
            s.append(a.name()).append(' ').append(a.type()).append(' ');
            s.append(Arrays.deepToString(new Object[] {a.value()})).append(';');
        }
        return s.toString();
    }

    private static DatasetModel read(Map<String, byte[]> objects, Executor prefetcher) throws Exception {
        return MetadataReader.read(new MemoryStore("mem://many", objects), DatasetUrl.Format.AUTO, true, prefetcher);
    }

    @Test
    void theModelIsTheSameWithAndWithoutPrefetch() throws Exception {
        Map<String, byte[]> objects = group(120);
        List<String> serial = summary(read(objects, null));
        assertEquals(2 + 120, serial.size());
        for (int round = 0; round < 5; round++) {
            assertEquals(serial, summary(read(objects, POOL)));
        }
    }

    @Test
    void aPoolThatNeverRunsItsTasksDoesNotHangTheOpen() throws Exception {
        Map<String, byte[]> objects = group(60);
        List<Runnable> never = new ArrayList<>();
        assertEquals(summary(read(objects, null)), summary(read(objects, never::add)));
        assertEquals(120, never.size()); // both objects of every array were announced
    }

    @Test
    void aBrokenObjectFailsTheOpenTheSameWay() throws Exception {
        Map<String, byte[]> objects = group(80);
        objects.put("a041/.zarray", bytes("{\"zarr_format\": 2, \"shape\": [1], "));
        MetadataException serial = assertThrows(MetadataException.class, () -> read(objects, null));
        for (int round = 0; round < 5; round++) {
            MetadataException parallel = assertThrows(MetadataException.class, () -> read(objects, POOL));
            assertEquals(serial.getMessage(), parallel.getMessage());
        }
    }
}
