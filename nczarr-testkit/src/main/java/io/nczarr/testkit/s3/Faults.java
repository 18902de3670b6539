package io.nczarr.testkit.s3;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/**
 * How {@link CountingProxy} relays a server's answer wrongly, as a {@link CountingProxy.Fault}
 * says. Each answer ends the connection (the caller closes it), so no later request inherits its
 * bytes.
 */
final class Faults {
    /** Long enough for the client to read what was sent before the reset arrives and drops it. */
    private static final Duration BEFORE_RESET = Duration.ofMillis(100);

    private Faults() {}

    /**
     * Sends {@code head} and {@code body} (a whole 2xx answer with a Content-Length) to the client as
     * {@code f} says.
     */
    static void answer(CountingProxy.Fault f, byte[] head, byte[] body, Socket client)
            throws IOException, InterruptedException {
        OutputStream out = client.getOutputStream();
        int cut = (int) Math.max(0, Math.min(body.length, f.bytes()));
        switch (f.kind()) {
            case DELAY_HEADERS -> {
                sleep(f.pause());
                send(out, head, body, body.length);
            }
            case DRIP -> {
                send(out, head, body, 0);
                for (byte b : body) {
                    sleep(f.pause());
                    out.write(b);
                    out.flush();
                }
            }
            case RESET_BODY -> {
                send(out, head, body, cut);
                sleep(BEFORE_RESET);
                client.setSoLinger(true, 0);
            }
            case TRUNCATE_BODY -> send(out, head, body, cut);
            case LENGTH_DELTA -> send(out, withContentLength(head, body.length + f.bytes()), body, body.length);
            default -> throw new IllegalArgumentException("not a relayed fault: " + f);
        }
    }

    private static void send(OutputStream out, byte[] head, byte[] body, int n) throws IOException {
        out.write(head);
        out.write(body, 0, n);
        out.flush();
    }

    private static void sleep(Duration d) throws InterruptedException {
        Thread.sleep(d.toMillis());
    }

    /** The head with its Content-Length header set to {@code n}. */
    static byte[] withContentLength(byte[] head, long n) {
        String[] lines = new String(head, StandardCharsets.ISO_8859_1).split("\r\n", -1);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                line = "Content-Length: " + Math.max(0, n);
            }
            b.append(line);
            if (i < lines.length - 1) {
                b.append("\r\n");
            }
        }
        return b.toString().getBytes(StandardCharsets.ISO_8859_1);
    }
}
