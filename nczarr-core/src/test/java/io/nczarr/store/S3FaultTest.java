package io.nczarr.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.nczarr.error.StoreException;
import io.nczarr.model.GroupModel;
import io.nczarr.model.VarModel;
import io.nczarr.open.Datasets;
import io.nczarr.open.NcZarrOptions;
import io.nczarr.open.OpenDataset;
import io.nczarr.s3.S3Tuning;
import io.nczarr.testkit.Corpus;
import io.nczarr.testkit.s3.CountingProxy;
import io.nczarr.testkit.s3.CountingProxy.Fault;
import io.nczarr.testkit.s3.CountingProxy.FaultRule;
import io.nczarr.testkit.s3.LocalS3;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Faulty networks between the S3 store and a real loopback S3 server: for each kind of fault the
 * read either retries and returns exactly the values of the unfaulted read, or fails with a
 * {@link StoreException} naming the object's URL within the request deadline. Never fill values,
 * never wrong values, never a hang. Small deadlines (fragment keys) keep the class fast.
 */
class S3FaultTest {

    static final String BUCKET = "faults";
    static final String KEY = "data/sample.file";
    static final int MAX_ATTEMPTS = 3;
    static final long ATTEMPT_MS = 800;
    static final long REQUEST_MS = 2500;
    /** Scheduling on a busy two-core machine: the error must come within the deadline plus this. */
    static final long SLACK_MS = 5000;

    static final String TUNING = "&nczarr.s3.maxAttempts=" + MAX_ATTEMPTS + "&nczarr.s3.retryBaseDelayMs=10"
            + "&nczarr.s3.attemptTimeoutMs=" + ATTEMPT_MS + "&nczarr.s3.requestTimeoutMs=" + REQUEST_MS;

    /** A chunk key's last path segment: {@code 0}, {@code 1.0.2}. */
    static final Pattern CHUNK = Pattern.compile(".*/\\d+(\\.\\d+)*");

    static final String BROKEN_CHUNK = "/" + BUCKET + "/" + KEY + "/precip/0.0.1";

    enum Outcome {
        RETRIED_AND_CORRECT,
        CLEAN_ERROR
    }

    static final Map<Outcome, AtomicInteger> OUTCOMES = new ConcurrentHashMap<>();
    static long started;

    static CountingProxy proxy;
    static NcZarrOptions options;
    static Map<String, Object> expected;

    @BeforeAll
    static void start() throws IOException {
        started = System.nanoTime();
        LocalS3 s3 = LocalS3.get();
        Path sample = Corpus.testDataDir().resolve("sample.file");
        s3.upload(sample, BUCKET, KEY);
        // a relay of its own: the faults of this class never reach other tests' relays
        proxy = CountingProxy.start(s3.server.endpoint());
        options = NcZarrOptions.builder().build();
        try (OpenDataset ds = Datasets.open(Datasets.parse(sample.toUri() + "#mode=nczarr,file"), options)) {
            expected = readAll(ds);
        }
        // the unfaulted read through the relay: the same values (and a warm client for the timings below)
        try (OpenDataset ds = Datasets.open(Datasets.parse(url(TUNING)), options)) {
            assertSameValues(expected, readAll(ds));
        }
    }

    @AfterAll
    static void stop() {
        options.close();
        proxy.close();
        long ms = (System.nanoTime() - started) / 1_000_000;
        System.out.println("S3 fault outcomes: " + new TreeMap<>(OUTCOMES) + ", anything else: 0, in " + ms + " ms");
    }

    @BeforeEach
    void reset() {
        proxy.faults(null);
        proxy.reset();
    }

    /** One fault kind and where it strikes. */
    record Scenario(
            String name,
            FaultRule rule,
            String fragment,
            Outcome expect,
            boolean retryable,
            int minGets,
            int maxGets,
            String says) {
        Scenario with(String moreFragment) {
            return new Scenario(name, rule, fragment + moreFragment, expect, retryable, minGets, maxGets, says);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Scenario> scenarios() {
        Predicate<String> precipChunks =
                p -> p.contains("/precip/") && CHUNK.matcher(p).matches();
        Predicate<String> anyObject = p -> true;
        Predicate<String> broken = p -> p.equals(BROKEN_CHUNK);
        int n = MAX_ATTEMPTS;
        Fault late = Fault.delayHeaders(Duration.ofSeconds(70));
        Fault drip = Fault.drip(Duration.ofSeconds(2));
        String deadline = "no time left for another within " + S3Tuning.REQUEST_TIMEOUT_MS + "=" + REQUEST_MS;
        return Stream.of(
                // transient: once (or twice) per object, then the server's own answer
                ok(
                        "503 SlowDown, then success (every object)",
                        firstTimes(1, anyObject, Fault.status(503, "SlowDown"))),
                ok("500 twice, then success", firstTimes(2, precipChunks, Fault.status(500, "InternalError"))),
                ok("connection reset before the answer", firstTimes(1, anyObject, Fault.RESET)),
                ok("reset mid-body after 8 bytes", firstTimes(1, precipChunks, Fault.resetAfter(8))),
                ok("body truncated, Content-Length lies", firstTimes(1, precipChunks, Fault.truncateAfter(5))),
                ok("Content-Length 7 too large", firstTimes(1, precipChunks, Fault.lengthDelta(7))),
                ok("Content-Length 4 too small", firstTimes(1, precipChunks, Fault.lengthDelta(-4))),
                ok("headers 70 s late", firstTimes(1, precipChunks, Fault.delayHeaders(Duration.ofSeconds(70)))),
                ok("body dripped 1 byte / 2 s", firstTimes(1, precipChunks, Fault.drip(Duration.ofSeconds(2)))),
                ok(
                        "body dripped 1 byte / 150 ms (under the socket timeout)",
                        firstTimes(1, precipChunks, Fault.drip(Duration.ofMillis(150)))),
                // persistent on one chunk: an error naming it, never fill
                err("403 on one chunk", always(broken, Fault.status(403, "AccessDenied")), false, 1, 1, "HTTP 403"),
                err("400 on one chunk", always(broken, Fault.status(400, "InvalidRequest")), false, 1, 1, "HTTP 400"),
                err("503, always", always(broken, Fault.status(503, "ServiceUnavailable")), true, n, n, "HTTP 503"),
                err("reset mid-body, always", always(broken, Fault.resetAfter(8)), true, n, n, "reading the body"),
                err("body truncated, always", always(broken, Fault.truncateAfter(5)), true, n, n, "reading the body"),
                err("Content-Length too small, always", always(broken, Fault.lengthDelta(-4)), true, n, n, "disagrees"),
                err("headers 70 s late, always", always(broken, late), true, 2, n, "timed out"),
                err("headers 70 s late, always, 10 attempts allowed", always(broken, late), true, 2, 4, deadline)
                        .with("&nczarr.s3.maxAttempts=10"),
                err("body dripped 1 byte / 2 s, always", always(broken, drip), true, 2, n, "timed out"));
    }

    static Scenario ok(String name, FaultRule rule) {
        return new Scenario(name, rule, TUNING, Outcome.RETRIED_AND_CORRECT, true, 0, Integer.MAX_VALUE, null);
    }

    static Scenario err(String name, FaultRule rule, boolean retryable, int minGets, int maxGets, String says) {
        return new Scenario(name, rule, TUNING, Outcome.CLEAN_ERROR, retryable, minGets, maxGets, says);
    }

    /** The fault on the first {@code times} requests of each matching path, then the server's answers. */
    static FaultRule firstTimes(int times, Predicate<String> paths, Fault fault) {
        Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
        return new Recording(r -> paths.test(r.path())
                        && seen.computeIfAbsent(r.path(), k -> new AtomicInteger())
                                        .incrementAndGet()
                                <= times
                ? fault
                : null);
    }

    static FaultRule always(Predicate<String> paths, Fault fault) {
        return new Recording(r -> paths.test(r.path()) ? fault : null);
    }

    /** Remembers which paths a rule struck. */
    static final class Recording implements FaultRule {
        final FaultRule rule;
        final Set<String> struck = ConcurrentHashMap.newKeySet();

        Recording(FaultRule rule) {
            this.rule = rule;
        }

        @Override
        public Fault apply(CountingProxy.Request r) {
            Fault f = rule.apply(r);
            if (f != null) {
                struck.add(r.path());
            }
            return f;
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    @Timeout(30)
    void faultIsRetriedOrAClearError(Scenario s) {
        proxy.faults(s.rule());
        String url = url(s.fragment());
        long t0 = System.nanoTime();
        Map<String, Object> got = null;
        IOException failure = null;
        try (OpenDataset ds = Datasets.open(Datasets.parse(url), options)) {
            got = readAll(ds);
        } catch (IOException e) {
            failure = e;
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        Set<String> struck = ((Recording) s.rule()).struck;
        assertFalse(struck.isEmpty(), "the fault never struck");
        if (s.expect() == Outcome.RETRIED_AND_CORRECT) {
            if (failure != null) {
                fail("expected a retried, correct read; got " + failure, failure);
            }
            assertSameValues(expected, got);
            for (String p : struck) {
                assertTrue(gets(p) >= 2, p + " was struck but not asked again: " + gets(p));
            }
            // every request ends by its own deadline; the read as a whole only must not hang
            assertTrue(ms < 4 * REQUEST_MS, "took " + ms + " ms");
        } else {
            if (failure == null) {
                fail("expected an error, got values"
                        + (sameValues(expected, got) ? " (correct ones)" : " (WRONG ones)"));
            }
            assertCleanError(s, failure, ms);
        }
        OUTCOMES.computeIfAbsent(s.expect(), k -> new AtomicInteger()).incrementAndGet();
    }

    static void assertCleanError(Scenario s, IOException e, long ms) {
        String m = String.valueOf(e.getMessage());
        assertTrue(e instanceof StoreException, "not a StoreException: " + e);
        assertEquals(s.retryable(), ((StoreException) e).isRetryable(), m);
        assertTrue(m.contains(s.says()), "says '" + s.says() + "': " + m);
        String dataset = proxy.endpoint() + "/" + BUCKET + "/" + KEY;
        assertTrue(m.startsWith(dataset + ": precip/0.0.1: "), "names the dataset and the object key: " + m);
        assertEquals(m.indexOf(dataset), m.lastIndexOf(dataset), "says the URL once: " + m);
        assertTrue(m.contains("precip"), "names the variable: " + m);
        for (String secret : LocalS3Secrets.all()) {
            assertFalse(m.contains(secret), "shows a secret: " + m);
        }
        assertTrue(ms < REQUEST_MS + SLACK_MS, "error after " + ms + " ms: " + m);
        long n = gets(BROKEN_CHUNK);
        assertTrue(n >= s.minGets() && n <= s.maxGets(), n + " GETs of the chunk: " + m);
    }

    static String url(String fragment) {
        return proxy.endpoint() + "/" + BUCKET + "/" + KEY + "#mode=nczarr,s3&aws.profile=" + LocalS3.PROFILE
                + fragment;
    }

    static long gets(String path) {
        return proxy.requests().stream().filter(r -> r.path().equals(path)).count();
    }

    /** Every variable's values by full name. */
    static Map<String, Object> readAll(OpenDataset ds) throws IOException {
        Map<String, Object> out = new TreeMap<>();
        collect(ds, ds.model().root(), out);
        return out;
    }

    private static void collect(OpenDataset ds, GroupModel g, Map<String, Object> out) throws IOException {
        for (VarModel v : g.variables()) {
            out.put(g.path() + "/" + v.name(), ds.reader(v).readAll());
        }
        for (GroupModel c : g.groups()) {
            collect(ds, c, out);
        }
    }

    static boolean sameValues(Map<String, Object> a, Map<String, Object> b) {
        if (!a.keySet().equals(b.keySet())) {
            return false;
        }
        for (String k : a.keySet()) {
            if (!Objects.deepEquals(a.get(k), b.get(k))) {
                return false;
            }
        }
        return true;
    }

    static void assertSameValues(Map<String, Object> want, Map<String, Object> got) {
        assertEquals(want.keySet(), got.keySet());
        for (String k : want.keySet()) {
            assertTrue(Objects.deepEquals(want.get(k), got.get(k)), "values of " + k);
        }
    }
}
