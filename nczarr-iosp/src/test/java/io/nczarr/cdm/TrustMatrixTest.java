package io.nczarr.cdm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.nczarr.error.TargetRefusedException;
import io.nczarr.open.NcZarrOptions;
import io.nczarr.source.TrustSettings;
import io.nczarr.testkit.Corpus;
import io.nczarr.testkit.http.RangeHttpServer;
import io.nczarr.testkit.s3.LocalS3;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.nc2.Dimension;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFileWriter;
import ucar.nc2.Variable;

/**
 * Issue 21 trust matrix: document location (local file, HTTP on 127.0.0.1, S3 on loopback) x target kind x
 * document kind (kerchunk JSON, CF-1.13 aggregation, CFA-0.4, CFA-0.5; the aggregation files are
 * test-data/trust/*_slot.nc with the fragment URI written into their slot) → the variable's values, or a
 * {@link TargetRefusedException} naming the option that would allow it (none for FIFOs and devices). Every
 * case runs within a few seconds: a FIFO is never opened; the link-local address is refused before any
 * connection. "Other host" is a second server on 127.0.0.2 (a distinct origin on loopback).
 */
class TrustMatrixTest {
    enum Location {
        LOCAL,
        HTTP,
        S3
    }

    enum Target {
        LOCAL_INSIDE,
        LOCAL_OUTSIDE,
        FIFO,
        DEVICE,
        OTHER_HOST,
        LOOPBACK_HOST,
        LINK_LOCAL,
        SAME_ORIGIN,
        ALLOW_LISTED
    }

    enum Doc {
        KERCHUNK,
        CF113,
        CFA04,
        CFA05
    }

    private static final String READ = "read";
    private static final String BUCKET = "trust";

    @TempDir
    static Path tmp;

    private static Path docs;
    private static Path outside;
    private static RangeHttpServer http;
    private static RangeHttpServer other;
    private static LocalS3 s3;
    private static NcZarrOptions options;
    private static final Map<String, Integer> tally = new TreeMap<>();

    @BeforeAll
    static void start() throws Exception {
        docs = Files.createDirectories(tmp.resolve("docs"));
        outside = Files.createDirectories(tmp.resolve("outside"));
        byte[] bin = ints();
        for (Path d : List.of(docs, outside)) {
            Files.write(d.resolve("data.bin"), bin);
            fragment(d.resolve("data.nc"));
        }
        assertEquals(
                0,
                new ProcessBuilder("mkfifo", docs.resolve("fifo").toString())
                        .start()
                        .waitFor());
        http = RangeHttpServer.start();
        other = RangeHttpServer.startOn("127.0.0.2");
        for (String f : List.of("data.bin", "data.nc")) {
            http.put("/d/" + f, docs.resolve(f));
            other.put("/o/" + f, docs.resolve(f));
        }
        s3 = LocalS3.get();
        s3.server.createBucket(BUCKET);
        for (String f : List.of("data.bin", "data.nc")) {
            s3.server.put(BUCKET, "d/" + f, Files.readAllBytes(docs.resolve(f)));
        }
        options = NcZarrOptions.builder().build();
    }

    @AfterAll
    static void stop() {
        http.close();
        other.close();
        options.close();
        System.out.println("TrustMatrixTest outcomes: " + tally);
    }

    private static byte[] ints() {
        ByteBuffer b = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 1; i <= 4; i++) {
            b.putInt(i);
        }
        return b.array();
    }

    /** {@code int v(x=4)} = 1 2 3 4, netCDF-3. */
    private static void fragment(Path p) throws Exception {
        NetcdfFileWriter w = NetcdfFileWriter.createNew(NetcdfFileWriter.Version.netcdf3, p.toString());
        Dimension x = w.addDimension(null, "x", 4);
        Variable v = w.addVariable(null, "v", DataType.INT, List.of(x));
        w.create();
        w.write(v, Array.factory(new int[] {1, 2, 3, 4}));
        w.close();
    }

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (Doc d : Doc.values()) {
            for (Location l : Location.values()) {
                for (Target t : Target.values()) {
                    out.add(Arguments.of(d, l, t));
                }
            }
        }
        return out.stream();
    }

    /** What each case must give: {@link #READ}, or the refusal's option name ("" for none). */
    static String expected(Location l, Target t) {
        switch (t) {
            case LOCAL_INSIDE:
                return l == Location.LOCAL ? READ : TrustSettings.ALLOW;
            case LOCAL_OUTSIDE:
                return l == Location.LOCAL ? TrustSettings.LOCAL_ROOTS : TrustSettings.ALLOW;
            case FIFO:
            case DEVICE:
                return ""; // not a regular file: refused even where the allow list reaches it
            case LINK_LOCAL:
                return TrustSettings.ALLOW;
            default:
                return READ; // other host and loopback host: documents on loopback reach loopback
        }
    }

    /** The target URI the document names. */
    private static String target(Doc d, Target t) {
        String f = d == Doc.KERCHUNK ? "data.bin" : "data.nc";
        switch (t) {
            case LOCAL_INSIDE:
                return docs.resolve(f).toUri().toString();
            case LOCAL_OUTSIDE:
            case ALLOW_LISTED:
                return outside.resolve(f).toUri().toString();
            case FIFO:
                return docs.resolve("fifo").toUri().toString();
            case DEVICE:
                return "file:///dev/zero";
            case OTHER_HOST:
                return other.url("/o/" + f);
            case LOOPBACK_HOST:
                return "http://localhost:" + http.uri("/").getPort() + "/d/" + f;
            case LINK_LOCAL:
                return "http://169.254.169.254/latest/" + f;
            default:
                return f; // relative: beside the document
        }
    }

    /** The fragment key widening trust for the case (given with the user's URL), or "". */
    private static String allow(Target t) {
        switch (t) {
            case FIFO:
                return TrustSettings.ALLOW + "=" + docs.toUri();
            case DEVICE:
                return TrustSettings.ALLOW + "=file:///dev/";
            case ALLOW_LISTED:
                return TrustSettings.ALLOW + "=" + outside.toUri();
            default:
                return "";
        }
    }

    private static byte[] document(Doc d, String target) throws Exception {
        if (d == Doc.KERCHUNK) {
            String zarray = "{\\\"zarr_format\\\":2,\\\"shape\\\":[4],\\\"chunks\\\":[4],\\\"dtype\\\":\\\"<i4\\\","
                    + "\\\"compressor\\\":null,\\\"fill_value\\\":0,\\\"filters\\\":null,\\\"order\\\":\\\"C\\\"}";
            String json = "{\"version\":1,\"refs\":{\".zgroup\":\"{\\\"zarr_format\\\":2}\","
                    + "\"v/.zarray\":\"" + zarray + "\","
                    + "\"v/.zattrs\":\"{\\\"_ARRAY_DIMENSIONS\\\":[\\\"x\\\"]}\","
                    + "\"v/0\":[\"" + target + "\",0,16]}}";
            return json.getBytes(StandardCharsets.UTF_8);
        }
        String name = d == Doc.CF113 ? "cf113" : d == Doc.CFA04 ? "cfa04" : "cfa05";
        byte[] b = Files.readAllBytes(Corpus.testDataDir().resolve("trust").resolve(name + "_slot.nc"));
        byte[] slot = "TRUSTSLOT".getBytes(StandardCharsets.US_ASCII);
        int at = indexOf(b, slot);
        byte[] t = target.getBytes(StandardCharsets.US_ASCII);
        assertTrue(t.length <= 400, target);
        for (int i = 0; i < 400; i++) {
            b[at + i] = i < t.length ? t[i] : (byte) ' ';
        }
        return b;
    }

    private static int indexOf(byte[] b, byte[] s) {
        outer:
        for (int i = 0; i + s.length <= b.length; i++) {
            for (int j = 0; j < s.length; j++) {
                if (b[i + j] != s[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new IllegalStateException("no slot");
    }

    /** Places the document and returns the URL the user opens. */
    private static String place(Doc d, Location l, Target t) throws Exception {
        String name = d + "_" + t + (d == Doc.KERCHUNK ? ".json" : ".nc");
        byte[] doc = document(d, target(d, t));
        String mode = d == Doc.KERCHUNK ? "kerchunk" : "bytes";
        String extra = allow(t).isEmpty() ? "" : "&" + allow(t);
        switch (l) {
            case LOCAL: {
                Path p = Files.write(docs.resolve(name), doc);
                return p.toUri()
                        + (d == Doc.KERCHUNK
                                ? "#mode=kerchunk" + extra
                                : extra.isEmpty() ? "" : "#" + extra.substring(1));
            }
            case HTTP:
                http.put("/d/" + name, doc);
                return http.url("/d/" + name) + "#mode=" + mode + extra;
            default:
                s3.server.put(BUCKET, "d/" + name, doc);
                return s3.signed.endpoint() + "/" + BUCKET + "/d/" + name + "#mode=" + mode + ",s3&aws.profile="
                        + LocalS3.PROFILE + extra;
        }
    }

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @MethodSource("cases")
    void matrix(Doc d, Location l, Target t) throws Exception {
        String url = place(d, l, t);
        String want = expected(l, t);
        String got = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> outcome(url));
        synchronized (tally) {
            tally.merge(want.equals(READ) ? "read" : "refused", 1, Integer::sum);
        }
        assertEquals(want, got, d + " " + l + " -> " + t + " (" + url + ")");
    }

    private static String outcome(String url) throws Exception {
        try (NetcdfFile nc = NcZarrFiles.open(url, options)) {
            Array a = nc.findVariable("v").read();
            assertEquals("1 2 3 4", a.toString().trim(), url);
            return READ;
        } catch (TargetRefusedException e) {
            checkMessage(e, url);
            return e.option() == null ? "" : e.option().replaceAll("=.*", "");
        } catch (java.io.IOException e) {
            for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
                if (c instanceof TargetRefusedException r) {
                    checkMessage(r, url);
                    return r.option() == null ? "" : r.option().replaceAll("=.*", "");
                }
            }
            fail(url + ": " + e, e);
            return null;
        }
    }

    private static void checkMessage(TargetRefusedException e, String url) {
        String m = e.getMessage();
        assertTrue(m.contains("refused target"), m);
        assertTrue(e.dataset() != null && !e.dataset().isEmpty(), "names the document: " + m);
        if (e.option() != null) {
            assertTrue(m.contains(e.option().replaceAll("=.*", "")), m);
        }
    }

    /** Finding 2: a remote aggregation's fragment that is a kerchunk reference cannot reach a local file. */
    @Test
    void aLocalTargetThroughARemoteAggregationsReferenceIsRefused() throws Exception {
        http.put(
                "/d/chain.json",
                document(Doc.KERCHUNK, docs.resolve("data.bin").toUri().toString()));
        http.put("/d/chain_agg.nc", document(Doc.CFA04, "chain.json#mode=kerchunk"));
        assertEquals(TrustSettings.ALLOW, outcome(http.url("/d/chain_agg.nc") + "#mode=bytes"));
        // the same reference opened by the user from the same server: still a remote document
        assertEquals(TrustSettings.ALLOW, outcome(http.url("/d/chain.json") + "#mode=kerchunk"));
    }
}
