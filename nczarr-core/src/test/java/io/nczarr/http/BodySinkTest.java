package io.nczarr.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.StoreException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import org.junit.jupiter.api.Test;

/** {@link BodySink}s fed as the JDK client feeds them: bounded, exact, and silent once aborted. */
class BodySinkTest {

    /** The client's side of a subscription: records demand and cancellation. */
    private static final class Subscription implements Flow.Subscription {
        long requested;
        boolean cancelled;

        @Override
        public void request(long n) {
            requested += n;
        }

        @Override
        public void cancel() {
            cancelled = true;
        }
    }

    private static Subscription subscribe(BodySink sink) {
        Subscription s = new Subscription();
        sink.onSubscribe(s);
        return s;
    }

    private static List<ByteBuffer> bytes(int from, int count) {
        byte[] b = new byte[count];
        for (int i = 0; i < count; i++) {
            b[i] = (byte) (from + i);
        }
        return List.of(ByteBuffer.wrap(b));
    }

    private static StoreException failure(BodySink sink) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> sink.done.get());
        return assertInstanceOf(StoreException.class, e.getCause());
    }

    @Test
    void intoArrayTakesExactlyTheAnnouncedBytes() throws Exception {
        RequestStats stats = new RequestStats();
        byte[] buf = new byte[12];
        BodySink.IntoArray sink = new BodySink.IntoArray(stats, buf, 1, 10);
        Subscription s = subscribe(sink);
        assertEquals(Long.MAX_VALUE, s.requested);
        sink.onNext(bytes(0, 4));
        sink.onNext(bytes(4, 6));
        sink.onComplete();
        sink.done.get();
        assertEquals(10, sink.count());
        assertArrayEquals(new byte[] {0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0}, buf);
        assertEquals(10, stats.bytes());
    }

    @Test
    void moreThanAnnouncedBreaksTheProtocolAndWritesNothingBeyond() {
        byte[] buf = new byte[8];
        BodySink.IntoArray sink = new BodySink.IntoArray(new RequestStats(), buf, 0, 4);
        Subscription s = subscribe(sink);
        sink.onNext(bytes(1, 3));
        sink.onNext(bytes(4, 3));
        StoreException e = failure(sink);
        assertFalse(e.isRetryable());
        assertTrue(e.getMessage().contains("more than the 4 bytes"), e.getMessage());
        assertTrue(s.cancelled, "the download is stopped");
        assertArrayEquals(new byte[] {1, 2, 3, 0, 0, 0, 0, 0}, buf);
    }

    @Test
    void aBodyCutShortIsRetryable() {
        BodySink.IntoArray sink = new BodySink.IntoArray(new RequestStats(), new byte[5], 0, 5);
        subscribe(sink);
        sink.onNext(bytes(0, 3));
        sink.onComplete();
        StoreException e = failure(sink);
        assertTrue(e.isRetryable());
        assertEquals("truncated response: 3 of 5 bytes received", e.getMessage());
    }

    @Test
    void nothingIsWrittenAfterAbort() {
        byte[] buf = new byte[4];
        BodySink.IntoArray sink = new BodySink.IntoArray(new RequestStats(), buf, 0, 4);
        Subscription s = subscribe(sink);
        sink.abort();
        sink.onNext(bytes(1, 4));
        sink.onComplete();
        assertTrue(s.cancelled);
        assertThrows(CancellationException.class, () -> sink.done.get());
        assertArrayEquals(new byte[4], buf);
    }

    @Test
    void wholeObjectGrowsUpToItsLimitWhenTheLengthIsUnknown() throws Exception {
        BodySink.WholeObject sink = new BodySink.WholeObject(new RequestStats(), -1, 200_000, "too large");
        subscribe(sink);
        for (int i = 0; i < 3; i++) {
            sink.onNext(bytes(i, 50_000));
        }
        sink.onComplete();
        sink.done.get();
        assertEquals(150_000, sink.data().length);
        assertEquals(2, sink.data()[100_000]);
    }

    @Test
    void wholeObjectRefusesToOutgrowItsLimitOrItsContentLength() {
        BodySink.WholeObject unknown = new BodySink.WholeObject(new RequestStats(), -1, 1000, "too large");
        Subscription s = subscribe(unknown);
        unknown.onNext(bytes(0, 600));
        unknown.onNext(bytes(0, 600));
        assertEquals("too large", failure(unknown).getMessage());
        assertTrue(s.cancelled);

        BodySink.WholeObject declared = new BodySink.WholeObject(new RequestStats(), 10, 1000, "too large");
        subscribe(declared);
        declared.onNext(bytes(0, 11));
        assertEquals(
                "the server sent more than its Content-Length 10",
                failure(declared).getMessage());

        BodySink.WholeObject shorter = new BodySink.WholeObject(new RequestStats(), 10, 1000, "too large");
        subscribe(shorter);
        shorter.onNext(bytes(0, 9));
        shorter.onComplete();
        assertTrue(failure(shorter).isRetryable());
    }

    @Test
    void errorTextKeepsTheStartOfTheBodyOnly() throws Exception {
        RequestStats stats = new RequestStats();
        BodySink.ErrorText sink = new BodySink.ErrorText(stats);
        Subscription s = subscribe(sink);
        byte[] page = "<Error><Code>SlowDown</Code></Error>".repeat(100).getBytes(StandardCharsets.UTF_8);
        sink.onNext(List.of(ByteBuffer.wrap(page)));
        sink.done.get();
        assertTrue(s.cancelled, "the rest of the body is not downloaded");
        assertEquals(BodySink.ErrorText.LIMIT, sink.text().length());
        assertEquals(new String(Arrays.copyOf(page, BodySink.ErrorText.LIMIT), StandardCharsets.UTF_8), sink.text());
        assertEquals(page.length, stats.bytes());
    }

    @Test
    void refusedFailsBeforeAnyByteIsRequested() {
        StoreException why = new StoreException("no", false);
        BodySink.Refused sink = new BodySink.Refused(why);
        Subscription s = subscribe(sink);
        assertTrue(s.cancelled);
        assertEquals(0, s.requested);
        assertSame(why, failure(sink));
    }

    @Test
    void discardStopsAtTheFirstBytes() throws Exception {
        BodySink.Discard sink = new BodySink.Discard();
        Subscription s = subscribe(sink);
        sink.onNext(bytes(0, 10));
        sink.done.get();
        assertTrue(s.cancelled);
    }

    @Test
    void aTransportErrorFailsTheBody() {
        BodySink.IntoArray sink = new BodySink.IntoArray(new RequestStats(), new byte[4], 0, 4);
        subscribe(sink);
        IOException reset = new IOException("connection reset");
        sink.onError(reset);
        ExecutionException e = assertThrows(ExecutionException.class, () -> sink.done.get());
        assertSame(reset, e.getCause());
    }
}
