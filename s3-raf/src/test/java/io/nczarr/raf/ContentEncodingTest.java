package io.nczarr.raf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.StoreException;
import io.nczarr.testkit.http.RangeHttpServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 21 finding 6 in {@code #mode=bytes}: a server that answers a ranged GET with an encoded body (200 or
 * 206, {@code Content-Encoding: gzip}) is an error, never data; every GET asks for {@code identity}.
 */
class ContentEncodingTest {
    @Test
    void anEncodedAnswerIsRefusedWhetherRangedOrWhole() throws Exception {
        byte[] data = new byte[4096];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 7);
        }
        try (RangeHttpServer server = RangeHttpServer.start()) {
            server.put("/x.nc", data);
            for (boolean ignoreRange : List.of(false, true)) {
                server.reset();
                server.ignoreRange(ignoreRange).contentEncoding("gzip");
                HttpRangeSource s = HttpRangeSource.open(server.uri("/x.nc"), ByteRangeConfig.defaults());
                StoreException e = assertThrows(StoreException.class, () -> s.read(100, new byte[16], 0, 16));
                assertTrue(e.getMessage().contains("Content-Encoding: gzip"), e.getMessage());
                s.close();
            }
            server.reset();
            HttpRangeSource ok = HttpRangeSource.open(server.uri("/x.nc"), ByteRangeConfig.defaults());
            byte[] b = new byte[16];
            assertEquals(16, ok.read(100, b, 0, 16));
            assertEquals(data[100], b[0]);
            ok.close();
            for (Map<String, List<String>> h : server.requestHeaders()) {
                if (h.containsKey("range")) {
                    assertEquals(List.of("identity"), h.get("accept-encoding"), h.toString());
                }
            }
        }
    }
}
