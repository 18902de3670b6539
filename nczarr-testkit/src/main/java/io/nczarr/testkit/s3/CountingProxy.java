package io.nczarr.testkit.s3;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback HTTP/1.1 relay in front of an S3 server that sees every request as the server
 * does: it counts requests by kind (object GET, LIST, HEAD, other) and response bytes, can add
 * a fixed latency per request (a stand-in for a network round trip), and can answer chosen
 * requests itself with an error status or a connection reset, or relay the server's answer
 * wrongly: late, dripped, cut short, or under a wrong Content-Length (fault injection, see
 * {@link Fault}). Requests and
 * responses are relayed byte for byte, so signatures (which cover the Host header) stay valid.
 * For tests and benchmarks only; bodies are framed by Content-Length or chunked encoding, and
 * {@code Expect: 100-continue} is not supported (upload through the server, not the relay).
 */
public final class CountingProxy implements Closeable {

    /** What the relay saw of one request. */
    public record Request(String method, String path, String query) {
        /** {@code GET}, {@code LIST}, {@code HEAD} or the method. */
        public String kind() {
            if (method.equals("GET")) {
                String q = query == null ? "" : query;
                boolean bucketLevel = path.indexOf('/', 1) < 0 || path.indexOf('/', 1) == path.length() - 1;
                return q.contains("list-type=") || bucketLevel ? "LIST" : "GET";
            }
            return method;
        }

        @Override
        public String toString() {
            return method + " " + path + (query == null ? "" : "?" + query);
        }
    }

    /**
     * How to answer a request instead of relaying it faithfully: with an error status or a reset of its
     * own (the server never sees the request), or by relaying the server's answer to a GET wrongly:
     * headers late, body dripped, cut by a reset or a close, or under a wrong {@code Content-Length}.
     * Answers other than a 2xx with a {@code Content-Length} body are relayed as they are.
     *
     * @param kind what goes wrong
     * @param status the status of {@link Kind#STATUS}
     * @param code the S3 error code of {@link Kind#STATUS}
     * @param bytes body bytes sent before a cut, or what {@link Kind#LENGTH_DELTA} adds to Content-Length
     * @param pause the delay of {@link Kind#DELAY_HEADERS}, or between the bytes of {@link Kind#DRIP}
     */
    public record Fault(Kind kind, int status, String code, long bytes, Duration pause) {
        /** What goes wrong. */
        public enum Kind {
            /** An error status with an S3 error body, from the relay. */
            STATUS,
            /** The connection is reset before any answer. */
            RESET,
            /** The server's answer, held back for {@code pause} before its headers. */
            DELAY_HEADERS,
            /** The server's answer, its body one byte every {@code pause}. */
            DRIP,
            /** The headers and the first {@code bytes} body bytes, then a reset. */
            RESET_BODY,
            /** The headers (with the true Content-Length) and the first {@code bytes} body bytes, then a close. */
            TRUNCATE_BODY,
            /** The whole body under a Content-Length off by {@code bytes}, then a close. */
            LENGTH_DELTA
        }

        /** Close the connection without an answer (with a TCP reset). */
        public static final Fault RESET = new Fault(Kind.RESET, 0, "reset", 0, Duration.ZERO);

        /** A status fault ({@code status} 0: {@link #RESET}), as before the other kinds existed. */
        public Fault(int status, String code) {
            this(status == 0 ? Kind.RESET : Kind.STATUS, status, code, 0, Duration.ZERO);
        }

        public static Fault status(int status, String code) {
            return new Fault(status, code);
        }

        public static Fault delayHeaders(Duration pause) {
            return new Fault(Kind.DELAY_HEADERS, 0, "delay", 0, pause);
        }

        public static Fault drip(Duration perByte) {
            return new Fault(Kind.DRIP, 0, "drip", 0, perByte);
        }

        public static Fault resetAfter(long bytes) {
            return new Fault(Kind.RESET_BODY, 0, "reset-body", bytes, Duration.ZERO);
        }

        public static Fault truncateAfter(long bytes) {
            return new Fault(Kind.TRUNCATE_BODY, 0, "truncate", bytes, Duration.ZERO);
        }

        public static Fault lengthDelta(long delta) {
            return new Fault(Kind.LENGTH_DELTA, 0, "length", delta, Duration.ZERO);
        }

        /** Answered by the relay alone; the server never sees the request. */
        boolean answersItself() {
            return kind == Kind.STATUS || kind == Kind.RESET;
        }
    }

    /** Chooses a fault for a request; {@code null} = relay it. */
    public interface FaultRule {
        Fault apply(Request r);
    }

    /** Request counts by kind, and response body bytes. */
    public record Counts(long get, long list, long head, long other, long responseBytes) {
        public long total() {
            return get + list + head + other;
        }

        @Override
        public String toString() {
            return total() + " requests (" + get + " GET, " + list + " LIST, " + head + " HEAD, " + other + " other), "
                    + responseBytes + " response bytes";
        }
    }

    private final URI target;
    private final ServerSocket server;
    private final ExecutorService threads;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicLong get = new AtomicLong();
    private final AtomicLong list = new AtomicLong();
    private final AtomicLong head = new AtomicLong();
    private final AtomicLong other = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();
    private final List<Request> log = new ArrayList<>();
    private final Object lock = new Object();
    private volatile long latencyNanos;
    private volatile FaultRule faults;
    private volatile boolean closed;

    private CountingProxy(URI target, ServerSocket server) {
        this.target = target;
        this.server = server;
        this.threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "counting-proxy");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts a relay on 127.0.0.1 (free port) to {@code target} ({@code http://host:port}). */
    public static CountingProxy start(URI target) throws IOException {
        ServerSocket ss = new ServerSocket();
        ss.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        CountingProxy p = new CountingProxy(target, ss);
        p.threads.execute(p::acceptLoop);
        return p;
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getLocalPort());
    }

    /** Adds this delay before relaying each request (0 = none). */
    public void latency(Duration d) {
        latencyNanos = d.toNanos();
    }

    public void faults(FaultRule rule) {
        faults = rule;
    }

    public Counts counts() {
        return new Counts(get.get(), list.get(), head.get(), other.get(), bytes.get());
    }

    /** The most requests that were being answered at the same time since the last reset. */
    public int maxInFlight() {
        return maxInFlight.get();
    }

    /** The requests seen so far, in arrival order. */
    public List<Request> requests() {
        synchronized (lock) {
            return List.copyOf(log);
        }
    }

    /** Forgets counts and the request log. */
    public void reset() {
        synchronized (lock) {
            get.set(0);
            list.set(0);
            head.set(0);
            other.set(0);
            bytes.set(0);
            maxInFlight.set(0);
            log.clear();
        }
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket s = server.accept();
                open.add(s);
                threads.execute(() -> serve(s));
            } catch (IOException e) {
                if (!closed) {
                    continue;
                }
                return;
            }
        }
    }

    private void serve(Socket client) {
        Socket[] backend = new Socket[1];
        try (client) {
            client.setTcpNoDelay(true);
            InputStream cin = client.getInputStream();
            while (!closed) {
                byte[] headBytes = readHead(cin);
                if (headBytes == null) {
                    return;
                }
                Head h = Head.parse(headBytes);
                String[] line = h.firstLine().split(" ");
                if (line.length < 3) {
                    return;
                }
                String tgt = line[1];
                int q = tgt.indexOf('?');
                Request r = new Request(
                        line[0].toUpperCase(Locale.ROOT),
                        q < 0 ? tgt : tgt.substring(0, q),
                        q < 0 ? null : tgt.substring(q + 1));
                record(r);
                maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                try {
                    if (!answer(r, h, headBytes, client, backend)) {
                        return;
                    }
                } finally {
                    inFlight.decrementAndGet();
                }
            }
        } catch (IOException e) {
            // a client or the server went away: end this connection
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            open.remove(client);
            if (backend[0] != null) {
                open.remove(backend[0]);
                try {
                    backend[0].close();
                } catch (IOException e) {
                    // closing
                }
            }
        }
    }

    /** Answers one request (relayed, or a fault); false when the connection must end. */
    private boolean answer(Request r, Head h, byte[] headBytes, Socket client, Socket[] backend)
            throws IOException, InterruptedException {
        InputStream cin = client.getInputStream();
        OutputStream cout = client.getOutputStream();
        long delay = latencyNanos;
        if (delay > 0) {
            Thread.sleep(delay / 1_000_000, (int) (delay % 1_000_000));
        }
        FaultRule rule = faults;
        Fault f = rule == null ? null : rule.apply(r);
        if (f != null && f.answersItself()) {
            relayBody(h, cin, OutputStream.nullOutputStream());
            if (f.kind() == Fault.Kind.RESET) {
                client.setSoLinger(true, 0);
                return false;
            }
            writeError(cout, f);
            return true;
        }
        if (backend[0] == null) {
            backend[0] = new Socket(target.getHost(), target.getPort());
            backend[0].setTcpNoDelay(true);
            open.add(backend[0]);
        }
        OutputStream bout = backend[0].getOutputStream();
        InputStream bin = backend[0].getInputStream();
        bout.write(headBytes);
        relayBody(h, cin, bout);
        bout.flush();
        Head resp;
        byte[] respHead;
        do {
            respHead = readHead(bin);
            if (respHead == null) {
                return false;
            }
            resp = Head.parse(respHead);
            if (resp.status() / 100 == 1) {
                cout.write(respHead);
            }
        } while (resp.status() / 100 == 1);
        int status = resp.status();
        boolean hasBody = !(r.method().equals("HEAD") || status == 204 || status == 304);
        if (f != null && hasBody && status / 100 == 2 && resp.contentLength() >= 0 && !resp.chunked()) {
            byte[] body = bin.readNBytes((int) resp.contentLength());
            bytes.addAndGet(body.length);
            Faults.answer(f, respHead, body, client);
            return false;
        }
        cout.write(respHead);
        long n;
        if (!hasBody) {
            n = 0;
        } else if (resp.contentLength() >= 0 || resp.chunked()) {
            n = relayBody(resp, bin, cout);
        } else {
            n = bin.transferTo(cout);
            cout.flush();
            bytes.addAndGet(n);
            return false;
        }
        cout.flush();
        bytes.addAndGet(n);
        return !(h.close() || resp.close());
    }

    private void record(Request r) {
        synchronized (lock) {
            switch (r.kind()) {
                case "GET" -> get.incrementAndGet();
                case "LIST" -> list.incrementAndGet();
                case "HEAD" -> head.incrementAndGet();
                default -> other.incrementAndGet();
            }
            if (log.size() < 1_000_000) {
                log.add(r);
            }
        }
    }

    private static void writeError(OutputStream out, Fault f) throws IOException {
        byte[] body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>" + f.code()
                        + "</Code><Message>injected by CountingProxy</Message></Error>")
                .getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.1 " + f.status() + " " + f.code() + "\r\nContent-Type: application/xml\r\n"
                + "Content-Length: " + body.length + "\r\n\r\n";
        out.write(head.getBytes(StandardCharsets.ISO_8859_1));
        out.write(body);
        out.flush();
    }

    /** Reads up to and including the blank line; {@code null} at a clean end of stream. */
    private static byte[] readHead(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream(512);
        int state = 0;
        while (true) {
            int c = in.read();
            if (c < 0) {
                if (b.size() == 0) {
                    return null;
                }
                throw new EOFException("connection closed inside an HTTP head");
            }
            b.write(c);
            state = switch (state) {
                case 0, 2 -> c == '\r' ? state + 1 : 0;
                case 1, 3 -> c == '\n' ? state + 1 : (c == '\r' ? 1 : 0);
                default -> 0;
            };
            if (state == 4) {
                return b.toByteArray();
            }
            if (b.size() > 65536) {
                throw new IOException("HTTP head too long");
            }
        }
    }

    /** Copies a body framed as the head says; returns the body bytes copied. */
    private static long relayBody(Head h, InputStream in, OutputStream out) throws IOException {
        if (h.chunked) {
            return relayChunked(in, out);
        }
        long n = Math.max(0, h.contentLength);
        byte[] buf = new byte[16384];
        long left = n;
        while (left > 0) {
            int r = in.read(buf, 0, (int) Math.min(buf.length, left));
            if (r < 0) {
                throw new EOFException("body ended early");
            }
            out.write(buf, 0, r);
            left -= r;
        }
        return n;
    }

    private static long relayChunked(InputStream in, OutputStream out) throws IOException {
        long total = 0;
        while (true) {
            String sizeLine = readLine(in);
            out.write((sizeLine + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            int semi = sizeLine.indexOf(';');
            long size = Long.parseLong((semi < 0 ? sizeLine : sizeLine.substring(0, semi)).trim(), 16);
            if (size == 0) {
                // trailers up to the blank line
                String t;
                do {
                    t = readLine(in);
                    out.write((t + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                } while (!t.isEmpty());
                return total;
            }
            byte[] data = in.readNBytes((int) size);
            if (data.length < size) {
                throw new EOFException("chunk ended early");
            }
            out.write(data);
            total += size;
            String crlf = readLine(in);
            out.write((crlf + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0) {
            if (c == '\n') {
                int len = sb.length();
                return len > 0 && sb.charAt(len - 1) == '\r' ? sb.substring(0, len - 1) : sb.toString();
            }
            sb.append((char) c);
        }
        throw new EOFException("connection closed inside a line");
    }

    /** The parts of a request or response head the relay needs. */
    private record Head(String firstLine, long contentLength, boolean chunked, boolean close) {
        static Head parse(byte[] head) {
            String[] lines = new String(head, StandardCharsets.ISO_8859_1).split("\r\n");
            long len = -1;
            boolean chunked = false;
            boolean close = false;
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                if (colon <= 0) {
                    continue;
                }
                String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
                String value = lines[i].substring(colon + 1).trim().toLowerCase(Locale.ROOT);
                switch (name) {
                    case "content-length" -> len = Long.parseLong(value);
                    case "transfer-encoding" -> chunked = value.contains("chunked");
                    case "connection" -> close = value.contains("close");
                    default -> {}
                }
            }
            return new Head(lines[0], len, chunked, close);
        }

        int status() {
            String[] p = firstLine.split(" ");
            return p.length > 1 ? Integer.parseInt(p[1]) : 0;
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            // closing
        }
        for (Socket s : open) {
            try {
                s.close();
            } catch (IOException | RuntimeException e) {
                // closing
            }
        }
        threads.shutdownNow();
    }

    @Override
    public String toString() {
        return "CountingProxy[" + endpoint() + " -> " + target + "]";
    }
}
