package io.nczarr.cli;

import io.nczarr.chunk.ReadProgress;
import java.io.PrintStream;

/**
 * Progress of long reads on stderr: a line per tenth of the chunks, for reads of at least
 * {@value #MIN_CHUNKS} chunks (short reads stay quiet).
 */
final class ConsoleProgress implements ReadProgress {
    static final int MIN_CHUNKS = 64;
    private final PrintStream err;

    ConsoleProgress(PrintStream err) {
        this.err = err;
    }

    @Override
    public void chunksDone(String variable, long done, long total) {
        if (total < MIN_CHUNKS) {
            return;
        }
        long step = total / 10;
        if (done % step == 0 || done == total) {
            synchronized (err) {
                err.printf("  reading %s: %d/%d chunks (%d%%)%n", variable, done, total, 100 * done / total);
            }
        }
    }
}
