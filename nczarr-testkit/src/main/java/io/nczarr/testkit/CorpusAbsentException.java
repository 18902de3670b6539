package io.nczarr.testkit;

import org.opentest4j.TestAbortedException;

/**
 * The shared conformance corpus (third-party data beside the repository, {@code ../shared}) is not there: the
 * test that needs it is skipped (JUnit counts an aborted test as skipped), and {@link CorpusSkipReport} prints
 * one line per test class.
 */
public final class CorpusAbsentException extends TestAbortedException {
    private static final long serialVersionUID = 1L;

    CorpusAbsentException(String message) {
        super(message);
    }
}
