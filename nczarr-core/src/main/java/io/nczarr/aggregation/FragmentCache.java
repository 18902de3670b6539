package io.nczarr.aggregation;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fragment files an aggregation dataset has open: at most {@code max} idle ones (least recently used closed
 * first; a file being read is never closed under its reader), all closed with the dataset. Two readers of one
 * fragment share one open.
 */
public final class FragmentCache implements AutoCloseable {
    /** Opens one resolved fragment. */
    public interface Opener {
        FragmentFile open(FragmentUris.Resolved fragment) throws IOException;
    }

    /** One open (or opening) fragment file; {@link #file()} opens it on first use. */
    public final class Handle {
        private final FragmentUris.Resolved fragment;
        private FragmentFile file;
        private int users;

        Handle(FragmentUris.Resolved fragment) {
            this.fragment = fragment;
        }

        public synchronized FragmentFile file() throws IOException {
            if (file == null) {
                file = opener.open(fragment);
                synchronized (FragmentCache.this) {
                    opened++;
                }
            }
            return file;
        }

        synchronized void closeFile() {
            if (file != null) {
                try {
                    file.close();
                } catch (IOException e) {
                    // closing a read-only file: nothing to recover
                }
                file = null;
                synchronized (FragmentCache.this) {
                    closedCount++;
                }
            }
        }
    }

    private final Opener opener;
    private final int max;
    private final LinkedHashMap<String, Handle> handles = new LinkedHashMap<>(16, 0.75f, true);
    private boolean closed;
    private long opened;
    private long closedCount;

    public FragmentCache(Opener opener, int max) {
        this.opener = opener;
        this.max = max;
    }

    /** The handle of a fragment, counted as in use until {@link #release}. */
    public synchronized Handle acquire(FragmentUris.Resolved fragment) throws IOException {
        if (closed) {
            throw new IOException("the aggregation dataset is closed");
        }
        Handle h = handles.computeIfAbsent(fragment.uri(), k -> new Handle(fragment));
        h.users++;
        return h;
    }

    /** Ends one use; closes idle files beyond the limit. {@code failed}: the open failed, forget it. */
    public void release(Handle h, boolean failed) {
        List<Handle> toClose = new ArrayList<>();
        synchronized (this) {
            h.users--;
            if (failed && h.users == 0) {
                handles.remove(h.fragment.uri(), h);
                toClose.add(h);
            }
            Iterator<Map.Entry<String, Handle>> it = handles.entrySet().iterator();
            int excess = handles.size() - max;
            while (excess > 0 && it.hasNext()) {
                Handle old = it.next().getValue();
                if (old.users == 0) {
                    it.remove();
                    toClose.add(old);
                    excess--;
                }
            }
            if (closed && h.users == 0) {
                toClose.add(h);
            }
        }
        toClose.forEach(Handle::closeFile);
    }

    /** {@code {opened, closed, open now}} (tests, diagnostics). */
    public synchronized long[] counts() {
        return new long[] {opened, closedCount, opened - closedCount};
    }

    @Override
    public void close() {
        List<Handle> all;
        synchronized (this) {
            closed = true;
            all = new ArrayList<>(handles.values());
            handles.clear();
        }
        for (Handle h : all) {
            h.closeFile();
        }
    }
}
