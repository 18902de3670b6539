package io.nczarr.source;

import io.nczarr.error.Redaction;
import io.nczarr.url.DatasetUrl;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Where a URL came from: given by the user ({@link #isUserGiven()}, trusted), or found inside a chain of
 * documents (a kerchunk reference file, an aggregation file, a reference file that is an aggregation's
 * fragment...), the last of which named it. The chain carries the trust down: a local reference file opened
 * as the fragment of a remote aggregation is remote-originated. Immutable.
 */
public final class Origin {
    private final DatasetUrl user;
    private final TrustSettings settings;
    private final List<URI> documents;

    private Origin(DatasetUrl user, TrustSettings settings, List<URI> documents) {
        this.user = user;
        this.settings = Objects.requireNonNull(settings, "settings");
        this.documents = documents;
    }

    /**
     * The origin of a URL the user gave, with the settings widened by its own fragment keys ({@link
     * TrustSettings#plus}). {@code user} may be null (a store opened without a URL).
     */
    public static Origin user(DatasetUrl user, TrustSettings settings) {
        return new Origin(user, user == null ? settings : settings.plus(user.parameters()), List.of());
    }

    /** The origin of URLs found inside {@code document} (its URL without fragment, or its {@code file:} URI). */
    public Origin within(URI document) {
        List<URI> d = new ArrayList<>(documents);
        d.add(Objects.requireNonNull(document, "document"));
        return new Origin(user, settings, Collections.unmodifiableList(d));
    }

    /** True for the URL the user gave; false for one a document named. */
    public boolean isUserGiven() {
        return documents.isEmpty();
    }

    /** The URL the user gave (whose credentials are the user's), or null. */
    public DatasetUrl userUrl() {
        return user;
    }

    public TrustSettings settings() {
        return settings;
    }

    /** The document that named the URL being checked (the last of the chain), or null. */
    public URI document() {
        return documents.isEmpty() ? null : documents.get(documents.size() - 1);
    }

    /** The documents, outermost first. */
    public List<URI> documents() {
        return documents;
    }

    /** Whether any document of the chain is remote (so no document below it may reach local files). */
    public boolean isRemote() {
        return nearestRemote() != null;
    }

    /** The remote document nearest to the target (the one whose host decides loopback and private reach). */
    public URI nearestRemote() {
        for (int i = documents.size() - 1; i >= 0; i--) {
            if (!"file".equalsIgnoreCase(documents.get(i).getScheme())) {
                return documents.get(i);
            }
        }
        return null;
    }

    /** The document for messages, redacted. */
    public String documentName() {
        URI d = document();
        return d == null ? (user == null ? null : user.toString()) : Redaction.redact(d);
    }

    @Override
    public String toString() {
        return isUserGiven() ? "user-given" : "named by " + documentName();
    }
}
