package io.nczarr.testkit;

import java.io.PrintStream;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Prints one line per test class whose tests were skipped because the conformance corpus is absent
 * ({@link CorpusAbsentException}), and a total at the end. Registered for every test run through
 * META-INF/services (the JUnit Platform launcher loads it when the test kit is on the test classpath).
 */
public final class CorpusSkipReport implements TestExecutionListener {
    private final Map<String, Integer> skipped = new HashMap<>();
    private final Set<String> counted = new HashSet<>();
    private TestPlan plan;
    private int total;
    private int classes;

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        plan = testPlan;
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        if (result.getStatus() == TestExecutionResult.Status.ABORTED
                && result.getThrowable()
                        .filter(CorpusAbsentException.class::isInstance)
                        .isPresent()) {
            int n = 0;
            if (id.isTest()) {
                n = counted.add(id.getUniqueId()) ? 1 : 0;
            } else {
                boolean any = false;
                for (TestIdentifier d : plan.getDescendants(id)) {
                    if (d.isTest()) {
                        any = true;
                        n += counted.add(d.getUniqueId()) ? 1 : 0;
                    }
                }
                n += !any && counted.add(id.getUniqueId()) ? 1 : 0;
            }
            String cls = classOf(id);
            if (cls != null) {
                if (n > 0) {
                    skipped.merge(cls, n, Integer::sum);
                }
            }
        }
        if (id.getSource().filter(ClassSource.class::isInstance).isPresent()) {
            Integer n = skipped.remove(id.getUniqueId());
            if (n != null) {
                String name =
                        ((ClassSource) id.getSource().get()).getJavaClass().getSimpleName();
                out().println("[corpus] " + name + ": " + line(n));
                total += n;
                classes++;
            }
        }
    }

    @Override
    public void testPlanExecutionFinished(TestPlan testPlan) {
        if (total > 0) {
            out().println("[corpus] " + line(total) + " in " + classes + " test class" + (classes == 1 ? "" : "es")
                    + " (the project's own test-data/ ran; README, \"Run the tests\")");
        }
    }

    /** "conformance corpus not found at ../shared: N corpus tests skipped". */
    static String line(int n) {
        return "conformance corpus not found at " + Corpus.shownCorpusLocation() + ": " + n + " corpus test"
                + (n == 1 ? "" : "s") + " skipped";
    }

    private String classOf(TestIdentifier id) {
        Optional<TestIdentifier> cur = Optional.of(id);
        while (cur.isPresent()) {
            TestIdentifier t = cur.get();
            if (t.getSource().filter(ClassSource.class::isInstance).isPresent()) {
                return t.getUniqueId();
            }
            cur = plan.getParent(t);
        }
        return null;
    }

    private static PrintStream out() {
        return System.out;
    }
}
