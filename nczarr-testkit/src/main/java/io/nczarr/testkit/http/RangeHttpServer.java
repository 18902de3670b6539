package io.nczarr.testkit.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A loopback HTTP/1.1 server for byte-range tests and benchmarks (JDK {@code com.sun.net.httpserver}):
 * {@code GET} with {@code Range: bytes=a-b | a- | -n} answers 206 + {@code Content-Range}, 416 past
 * the end, {@code HEAD} tells {@code Content-Length}; objects have a fixed {@code ETag} and {@link
 * #LAST_MODIFIED}, and a failed {@code If-Match} / {@code If-Unmodified-Since} answers 412.
 * Misbehaviours are switchable: ignore Range (200 + whole body), refuse HEAD, force a status
 * (403, 404...), fail the next N GETs with 503, truncate bodies, add latency. It counts requests
 * and body bytes actually written.
 */
public final class RangeHttpServer implements AutoCloseable {
    /** Every object's Last-Modified. */
    public static final String LAST_MODIFIED = "Tue, 15 Nov 1994 08:12:31 GMT";

    private static final Pattern RANGE = Pattern.compile("bytes=(\\d*)-(\\d*)");

    static {
        // TCP_NODELAY, as real servers set it: the JDK server writes headers and body separately, and
        // with Nagle's algorithm against the client's delayed ACK every response would stall ~40 ms.
        // Read once, when the JDK server's configuration class loads: so set before the first server.
        System.setProperty("sun.net.httpserver.nodelay", "true");
    }

    /** Bytes of one object. */
    public interface Content {
        long length();

        void read(long offset, byte[] buf, int len) throws IOException;
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final Map<String, Content> objects = new ConcurrentHashMap<>();

    private volatile boolean ignoreRange;
    private volatile String contentEncoding;
    private final ConcurrentLinkedQueue<Map<String, List<String>>> requestHeaders = new ConcurrentLinkedQueue<>();
    private volatile int headStatus;
    private volatile int forcedStatus;
    private volatile boolean truncate;
    private volatile long latencyMs;
    private final AtomicInteger failNext = new AtomicInteger();

    private final AtomicLong gets = new AtomicLong();
    private final AtomicLong heads = new AtomicLong();
    private final AtomicLong bytesSent = new AtomicLong();
    private final ConcurrentLinkedQueue<String> ranges = new ConcurrentLinkedQueue<>();

    private RangeHttpServer(InetAddress bind) throws IOException {
        server = HttpServer.create(new InetSocketAddress(bind, 0), 64);
        AtomicInteger n = new AtomicInteger();
        executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "range-http-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    /** Starts a server on 127.0.0.1 and a free port. */
    public static RangeHttpServer start() throws IOException {
        return new RangeHttpServer(InetAddress.getLoopbackAddress());
    }

    /**
     * Starts a server on another loopback address ({@code 127.0.0.2}: Linux routes all of 127/8 to the loopback
     * interface), a distinct origin from {@code 127.0.0.1} for tests of what goes to which host.
     */
    public static RangeHttpServer startOn(String loopbackAddress) throws IOException {
        return new RangeHttpServer(InetAddress.getByName(loopbackAddress));
    }

    public URI uri(String path) {
        return URI.create("http://" + server.getAddress().getAddress().getHostAddress() + ":"
                + server.getAddress().getPort() + path);
    }

    public String url(String path) {
        return uri(path).toString();
    }

    public RangeHttpServer put(String path, byte[] data) {
        objects.put(path, new Content() {
            @Override
            public long length() {
                return data.length;
            }

            @Override
            public void read(long offset, byte[] buf, int len) {
                System.arraycopy(data, (int) offset, buf, 0, len);
            }
        });
        return this;
    }

    /** Serves a local file, read per request (fine for large files). */
    public RangeHttpServer put(String path, Path file) {
        objects.put(path, new Content() {
            @Override
            public long length() {
                return file.toFile().length();
            }

            @Override
            public void read(long offset, byte[] buf, int len) throws IOException {
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                    ByteBuffer bb = ByteBuffer.wrap(buf, 0, len);
                    while (bb.hasRemaining()) {
                        if (ch.read(bb, offset + bb.position()) < 0) {
                            throw new IOException("file shorter than expected");
                        }
                    }
                }
            }
        });
        return this;
    }

    /**
     * Serves every regular file below {@code dir} at {@code prefix + "/" + relative path} (a Zarr store on a
     * plain HTTP server: no listing, 404 for the rest).
     */
    public RangeHttpServer putTree(String prefix, Path dir) throws IOException {
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(dir)) {
            for (Path p : (Iterable<Path>) files.filter(java.nio.file.Files::isRegularFile)::iterator) {
                String rel = dir.relativize(p).toString().replace(java.io.File.separatorChar, '/');
                put(prefix + "/" + rel, p);
            }
        }
        return this;
    }

    /** A generated object of any length; byte {@code i} is {@link #syntheticByte(long)}. */
    public RangeHttpServer putSynthetic(String path, long length) {
        objects.put(path, new Content() {
            @Override
            public long length() {
                return length;
            }

            @Override
            public void read(long offset, byte[] buf, int len) {
                for (int i = 0; i < len; i++) {
                    buf[i] = syntheticByte(offset + i);
                }
            }
        });
        return this;
    }

    public static byte syntheticByte(long i) {
        return (byte) (i * 31 + (i >>> 9) + (i >>> 17));
    }

    // behaviours -----------------------------------------------------------------------------

    /** Answer every GET with 200 and the whole body, as a server without range support does. */
    /** Sends {@code Content-Encoding: value} with every object (null: none), whatever the request accepts. */
    public RangeHttpServer contentEncoding(String value) {
        contentEncoding = value;
        return this;
    }

    /** The headers of every request so far (names lower case), oldest first. */
    public List<Map<String, List<String>>> requestHeaders() {
        return new ArrayList<>(requestHeaders);
    }

    public RangeHttpServer ignoreRange(boolean v) {
        ignoreRange = v;
        return this;
    }

    /** Answer HEAD with this status (e.g. 405, 403); 0 = normal. */
    public RangeHttpServer headStatus(int status) {
        headStatus = status;
        return this;
    }

    /** Answer every request with this status (e.g. 403, 404); 0 = normal. */
    public RangeHttpServer forceStatus(int status) {
        forcedStatus = status;
        return this;
    }

    /** Announce the full Content-Length but send only half the body, then close the connection. */
    public RangeHttpServer truncate(boolean v) {
        truncate = v;
        return this;
    }

    /** Delay before every response (a remote store's round trip). */
    public RangeHttpServer latencyMs(long ms) {
        latencyMs = ms;
        return this;
    }

    /** Answer the next {@code n} GETs with 503. */
    public RangeHttpServer failNextGets(int n) {
        failNext.set(n);
        return this;
    }

    /** Normal behaviour again and counters zeroed. */
    public RangeHttpServer reset() {
        ignoreRange = false;
        contentEncoding = null;
        headStatus = 0;
        forcedStatus = 0;
        truncate = false;
        latencyMs = 0;
        failNext.set(0);
        resetCounters();
        return this;
    }

    public void resetCounters() {
        gets.set(0);
        heads.set(0);
        bytesSent.set(0);
        ranges.clear();
        requestHeaders.clear();
    }

    public long gets() {
        return gets.get();
    }

    public long heads() {
        return heads.get();
    }

    /** Body bytes the server managed to write (a cancelled download stops counting). */
    public long bytesSent() {
        return bytesSent.get();
    }

    /** The Range headers received, in order ("-" for a GET without one). */
    public List<String> ranges() {
        return new ArrayList<>(ranges);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    // handler ---------------------------------------------------------------------------------

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            serve(ex);
        } catch (IOException | UncheckedIOException e) {
            // client went away (cancelled download, timeout): nothing to do
        }
    }

    private void serve(HttpExchange ex) throws IOException {
        Map<String, List<String>> headers = new java.util.TreeMap<>();
        ex.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(java.util.Locale.ROOT), new ArrayList<>(v)));
        requestHeaders.add(headers);
        boolean head = ex.getRequestMethod().equalsIgnoreCase("HEAD");
        if (head) {
            heads.incrementAndGet();
        } else {
            gets.incrementAndGet();
            String r = ex.getRequestHeaders().getFirst("Range");
            ranges.add(r == null ? "-" : r);
        }
        long latency = latencyMs;
        if (latency > 0) {
            try {
                Thread.sleep(latency);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        if (forcedStatus != 0) {
            HttpAnswers.text(
                    ex,
                    forcedStatus,
                    forcedStatus == 403
                            ? "<?xml version=\"1.0\"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>"
                            : "<html><head><title>" + forcedStatus + "</title></head><body>error " + forcedStatus
                                    + "</body></html>");
            return;
        }
        if (head && headStatus != 0) {
            ex.sendResponseHeaders(headStatus, -1);
            return;
        }
        if (!head && failNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            HttpAnswers.text(ex, 503, "<Error><Code>SlowDown</Code></Error>");
            return;
        }
        Content c = objects.get(ex.getRequestURI().getPath());
        if (c == null) {
            HttpAnswers.text(ex, 404, "<html><head><title>404 Not Found</title></head></html>");
            return;
        }
        long len = c.length();
        String etag = "\"" + Long.toHexString(len * 2654435761L) + "\"";
        ex.getResponseHeaders().set("ETag", etag);
        ex.getResponseHeaders().set("Last-Modified", LAST_MODIFIED);
        if (HttpAnswers.preconditionFailed(ex.getRequestHeaders(), etag, LAST_MODIFIED)) {
            HttpAnswers.text(ex, 412, "<Error><Code>PreconditionFailed</Code></Error>");
            return;
        }
        if (contentEncoding != null) {
            ex.getResponseHeaders().set("Content-Encoding", contentEncoding);
        }
        if (head) {
            ex.getResponseHeaders().set("Accept-Ranges", "bytes");
            ex.getResponseHeaders().set("Content-Length", Long.toString(len));
            ex.sendResponseHeaders(200, -1);
            return;
        }
        String range = ex.getRequestHeaders().getFirst("Range");
        Matcher m = range == null ? null : RANGE.matcher(range.trim());
        if (ignoreRange
                || m == null
                || !m.matches()
                || (m.group(1).isEmpty() && m.group(2).isEmpty())) {
            sendBody(ex, 200, c, 0, len);
            return;
        }
        long start;
        long end;
        if (m.group(1).isEmpty()) { // suffix: last n bytes
            long n = Long.parseLong(m.group(2));
            start = Math.max(0, len - n);
            end = len - 1;
        } else {
            start = Long.parseLong(m.group(1));
            end = m.group(2).isEmpty() ? len - 1 : Math.min(Long.parseLong(m.group(2)), len - 1);
        }
        if (start >= len || end < start) {
            ex.getResponseHeaders().set("Content-Range", "bytes */" + len);
            ex.sendResponseHeaders(416, -1);
            return;
        }
        ex.getResponseHeaders().set("Content-Range", "bytes " + start + "-" + end + "/" + len);
        sendBody(ex, 206, c, start, end - start + 1);
    }

    private void sendBody(HttpExchange ex, int status, Content c, long start, long count) throws IOException {
        ex.sendResponseHeaders(status, count == 0 ? -1 : count);
        long limit = truncate ? count / 2 : count;
        byte[] buf = new byte[(int) Math.min(64 * 1024, Math.max(1, count))];
        OutputStream out = ex.getResponseBody();
        long done = 0;
        while (done < limit) {
            int n = (int) Math.min(buf.length, limit - done);
            c.read(start + done, buf, n);
            // counted before the write: the client may have the last bytes before write returns
            bytesSent.addAndGet(n);
            out.write(buf, 0, n);
            done += n;
        }
        if (truncate) {
            out.flush();
            // closing the fixed-length stream early makes the JDK server drop the connection
            throw new IOException("truncated on purpose");
        }
        out.close();
    }
}
