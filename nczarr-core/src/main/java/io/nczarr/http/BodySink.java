package io.nczarr.http;

import io.nczarr.error.StoreException;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Where the body of one response goes, chosen when its headers arrive. Every sink is bounded: it
 * never holds more than the caller's array, the whole-object limit or {@link ErrorText#LIMIT}, and
 * stops the download as soon as it has what it needs. {@link #abort()} guarantees that nothing is
 * written into the caller's array after it returns (the caller may reuse the array at once).
 *
 * <p>A sink fails with a {@link StoreException} without dataset (the coordinator adds it):
 * retryable for a body cut short, not retryable for a body that breaks the protocol.
 */
public abstract class BodySink implements HttpResponse.BodySubscriber<Void> {
    /** Completes when the body is consumed, or with the failure. */
    final CompletableFuture<Void> done = new CompletableFuture<>();

    private Flow.Subscription subscription;
    private boolean stopped;

    @Override
    public synchronized void onSubscribe(Flow.Subscription s) {
        if (stopped) {
            s.cancel();
            return;
        }
        subscription = s;
        start();
        if (!stopped) {
            s.request(Long.MAX_VALUE);
        }
    }

    /** Called once subscribed; may {@link #finish} or {@link #fail} at once. */
    void start() {}

    @Override
    public synchronized void onNext(List<ByteBuffer> items) {
        if (stopped) {
            return;
        }
        try {
            for (ByteBuffer b : items) {
                if (stopped) {
                    return;
                }
                consume(b);
            }
        } catch (IOException e) {
            fail(e);
        }
    }

    /** Takes one buffer; may {@link #finish} early (ends the download). */
    abstract void consume(ByteBuffer b) throws IOException;

    /** The body ended normally: validate and complete. */
    abstract void complete();

    @Override
    public synchronized void onError(Throwable t) {
        if (!stopped) {
            stopped = true;
            done.completeExceptionally(t);
        }
    }

    @Override
    public synchronized void onComplete() {
        if (!stopped) {
            stopped = true;
            complete();
        }
    }

    /** Stops early with success: the rest of the body is not downloaded. */
    synchronized void finish() {
        stop();
        done.complete(null);
    }

    synchronized void fail(IOException e) {
        stop();
        done.completeExceptionally(e);
    }

    /** Stops for good: the request timed out or was interrupted. */
    synchronized void abort() {
        stop();
        done.cancel(false);
    }

    private void stop() {
        stopped = true;
        if (subscription != null) {
            subscription.cancel();
        }
    }

    @Override
    public CompletionStage<Void> getBody() {
        return done;
    }

    public static StoreException protocolError(String detail) {
        return new StoreException(detail, false);
    }

    public static StoreException truncated(long got, long expected) {
        return new StoreException("truncated response: " + got + " of " + expected + " bytes received", true);
    }

    /** 206: exactly {@code count} bytes into the caller's array. */
    public static final class IntoArray extends BodySink {
        private final RequestStats stats;
        private final byte[] buf;
        private final int off;
        private final int count;
        private int got;

        public IntoArray(RequestStats stats, byte[] buf, int off, int count) {
            this.stats = stats;
            this.buf = buf;
            this.off = off;
            this.count = count;
        }

        /** The bytes stored, once the body completed. */
        public int count() {
            return count;
        }

        @Override
        void consume(ByteBuffer b) throws IOException {
            int n = b.remaining();
            stats.countBytes(n);
            if (n > count - got) {
                throw protocolError("the server sent more than the " + count + " bytes its Content-Range announced");
            }
            b.get(buf, off + got, n);
            got += n;
        }

        @Override
        void complete() {
            if (got == count) {
                done.complete(null);
            } else {
                done.completeExceptionally(truncated(got, count));
            }
        }
    }

    /** 200 to a ranged GET (the server ignored Range): keep the whole object, up to a limit. */
    public static final class WholeObject extends BodySink {
        private static final int FIRST_CAPACITY = 64 * 1024;
        private final RequestStats stats;
        private final long declared;
        private final long limit;
        private final String tooLarge;
        private byte[] data;
        private int got;

        /**
         * @param declared the Content-Length, or -1 (then the body is counted while streaming)
         * @param tooLarge the message when the body outgrows {@code limit}
         */
        public WholeObject(RequestStats stats, long declared, long limit, String tooLarge) {
            this.stats = stats;
            this.declared = declared;
            this.limit = limit;
            this.tooLarge = tooLarge;
            this.data = new byte[(int) (declared >= 0 ? declared : Math.min(limit, FIRST_CAPACITY))];
        }

        @Override
        void consume(ByteBuffer b) throws IOException {
            int n = b.remaining();
            stats.countBytes(n);
            long need = (long) got + n;
            if (need > limit || (declared >= 0 && need > declared)) {
                throw protocolError(
                        declared >= 0 && need > declared
                                ? "the server sent more than its Content-Length " + declared
                                : tooLarge);
            }
            if (need > data.length) {
                data = Arrays.copyOf(data, (int) Math.min(limit, Math.max(need, 2L * data.length)));
            }
            b.get(data, got, n);
            got += n;
        }

        @Override
        void complete() {
            if (declared >= 0 && got != declared) {
                done.completeExceptionally(truncated(got, declared));
            } else {
                done.complete(null);
            }
        }

        /** The object, once the body completed. */
        public byte[] data() {
            return got == data.length ? data : Arrays.copyOf(data, got);
        }
    }

    /** A response refused when its headers arrive: the body is never read. */
    public static final class Refused extends BodySink {
        private final IOException error;

        public Refused(IOException error) {
            this.error = error;
        }

        @Override
        void start() {
            fail(error);
        }

        @Override
        void consume(ByteBuffer b) {}

        @Override
        void complete() {
            done.completeExceptionally(error);
        }
    }

    /** A body not worth reading (416, HEAD): the download is stopped at its first bytes. */
    public static final class Discard extends BodySink {
        @Override
        void consume(ByteBuffer b) {
            finish();
        }

        @Override
        void complete() {
            done.complete(null);
        }
    }

    /** Error statuses: keep the start of the body for the message, drop the rest. */
    public static final class ErrorText extends BodySink {
        /** Enough for S3's XML error code or an HTML page's title. */
        public static final int LIMIT = 2048;

        private final RequestStats stats;
        private final byte[] head = new byte[LIMIT];
        private int got;

        public ErrorText(RequestStats stats) {
            this.stats = stats;
        }

        @Override
        void consume(ByteBuffer b) {
            int n = Math.min(b.remaining(), head.length - got);
            stats.countBytes(b.remaining());
            b.get(head, got, n);
            got += n;
            if (got == head.length) {
                finish();
            }
        }

        @Override
        void complete() {
            done.complete(null);
        }

        public synchronized String text() {
            return new String(head, 0, got, StandardCharsets.UTF_8);
        }
    }
}
