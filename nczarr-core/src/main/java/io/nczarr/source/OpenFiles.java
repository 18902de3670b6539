package io.nczarr.source;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The local files a reference store reads ranges of, open at most {@code max} at a time: the least recently
 * used idle channel is closed when another is needed (a channel being read is never closed under its reader;
 * it closes when its last reader is done). Callers check the file kind before (opening a FIFO would block).
 * Thread-safe.
 */
public final class OpenFiles implements Closeable {
    /** The most local target files open at once, by default. */
    public static final int DEFAULT_MAX = 64;

    private final int max;
    private final LinkedHashMap<Path, Handle> open = new LinkedHashMap<>(16, 0.75f, true);
    private boolean closed;
    private long opened;

    private static final class Handle {
        final FileChannel channel;
        int users;
        boolean evicted;

        Handle(FileChannel channel) {
            this.channel = channel;
        }
    }

    public OpenFiles(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be positive");
        }
        this.max = max;
    }

    /** A reader of one file: {@link #size} and {@link #read}, then {@link #close}. */
    public interface Lease extends Closeable {
        long size() throws IOException;

        /** Reads {@code dst} full from {@code position}; false when the file ends first. */
        boolean read(ByteBuffer dst, long position) throws IOException;

        @Override
        void close();
    }

    /** Leases the open channel of {@code p}, opening it (and closing the oldest idle one beyond the bound). */
    public Lease lease(Path p) throws IOException {
        Handle h;
        List<Handle> toClose = new ArrayList<>();
        synchronized (this) {
            if (closed) {
                throw new IOException("closed");
            }
            h = open.get(p);
            if (h == null) {
                h = new Handle(FileChannel.open(p, StandardOpenOption.READ));
                opened++;
                open.put(p, h);
                Iterator<Map.Entry<Path, Handle>> it = open.entrySet().iterator();
                while (open.size() > max && it.hasNext()) {
                    Handle old = it.next().getValue();
                    if (old != h) {
                        it.remove();
                        old.evicted = true;
                        if (old.users == 0) {
                            toClose.add(old);
                        }
                    }
                }
            }
            h.users++;
        }
        toClose.forEach(OpenFiles::quietClose);
        Handle leased = h;
        return new Lease() {
            private boolean done;

            @Override
            public long size() throws IOException {
                return leased.channel.size();
            }

            @Override
            public boolean read(ByteBuffer dst, long position) throws IOException {
                long at = position;
                while (dst.hasRemaining()) {
                    int n = leased.channel.read(dst, at);
                    if (n < 0) {
                        return false;
                    }
                    at += n;
                }
                return true;
            }

            @Override
            public void close() {
                boolean last;
                synchronized (OpenFiles.this) {
                    if (done) {
                        return;
                    }
                    done = true;
                    leased.users--;
                    last = leased.users == 0 && leased.evicted;
                }
                if (last) {
                    quietClose(leased);
                }
            }
        };
    }

    /** {@code {files opened so far, files open now}} (tests). */
    public synchronized long[] counts() {
        return new long[] {opened, open.size()};
    }

    private static void quietClose(Handle h) {
        try {
            h.channel.close();
        } catch (IOException e) {
            // read-only: nothing is lost
        }
    }

    @Override
    public void close() {
        List<Handle> all;
        synchronized (this) {
            closed = true;
            all = new ArrayList<>(open.values());
            open.clear();
            for (Handle h : all) {
                h.evicted = true;
            }
            all.removeIf(h -> h.users > 0);
        }
        all.forEach(OpenFiles::quietClose);
    }
}
