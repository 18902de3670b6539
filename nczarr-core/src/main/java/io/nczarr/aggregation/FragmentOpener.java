package io.nczarr.aggregation;

import io.nczarr.source.Origin;
import java.io.IOException;

/**
 * How a host opens a fragment that the trust rules let through ({@link FragmentSources}): {@code origin} is the
 * aggregation document's, so that a fragment that is itself a document (a reference file) is checked as one named
 * by the aggregation. Never opens the fragment as an aggregation itself.
 */
public interface FragmentOpener {
    FragmentFile open(FragmentUris.Resolved fragment, Origin origin) throws IOException;
}
