package io.nczarr.aggregation;

import io.nczarr.error.MetadataException;
import io.nczarr.error.NcZarrException;
import io.nczarr.error.TargetRefusedException;
import io.nczarr.source.LocalTargets;
import io.nczarr.source.Origin;
import io.nczarr.source.Trust;
import io.nczarr.source.TrustSettings;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The fragments of one aggregation document, resolved ({@link FragmentUris}), checked by the trust rules ({@link
 * Trust#check}: the fragment URIs are named inside the document) and opened by the host's {@link FragmentOpener}
 * with the document as their origin, so that a fragment that is itself a document (a kerchunk reference file) is
 * checked as one named by the aggregation (a local reference opened through a remote aggregation is
 * remote-originated) and a fragment on another S3 endpoint or bucket is read without the user's credentials.
 */
public final class FragmentSources {
    private final String location;
    private final FragmentOpener opener;
    /** The origin of URLs named inside the aggregation document. */
    private final Origin origin;
    /** Fragment URIs that passed the trust rules (each is checked once; a host name is looked up once). */
    private final Set<String> trusted = ConcurrentHashMap.newKeySet();

    public FragmentSources(String location, TrustSettings trust, FragmentOpener opener) throws IOException {
        this.location = location;
        this.opener = opener;
        DatasetUrl url;
        try {
            url = DatasetUrl.parse(location);
        } catch (IllegalArgumentException e) {
            throw new NcZarrException(e.getMessage(), e);
        }
        this.origin = Origin.user(url, trust).within(documentUri(url));
    }

    /** The aggregation document's own URI (a {@code file:} URI for a local one), without fragment. */
    private static URI documentUri(DatasetUrl url) {
        if (url.localPath() != null) {
            return url.localPath().toAbsolutePath().normalize().toUri();
        }
        return url.uri();
    }

    public String location() {
        return location;
    }

    /** The fragment's resolved URI, when the trust rules let the aggregation name it. */
    public FragmentUris.Resolved resolve(Fragment f, String variable) throws IOException {
        FragmentUris.Resolved r;
        try {
            // the trust rules below decide about local files (nczarr.aggregation.allowLocalFragments is one of them)
            r = FragmentUris.resolve(location, f.uri(), true);
        } catch (FragmentUris.Refused e) {
            throw new MetadataException(location, f.key(), variable, e.getMessage(), null);
        }
        if (trusted.contains(r.uri())) {
            return r;
        }
        try {
            Trust.check(origin, URI.create(r.uri()), f.key(), LocalTargets.Kind.FILE_OR_DIRECTORY);
            trusted.add(r.uri());
        } catch (TargetRefusedException e) {
            throw e.withContext(location, f.key(), variable);
        } catch (IllegalArgumentException e) {
            throw new MetadataException(location, f.key(), variable, "bad fragment URI: " + e.getMessage(), null);
        }
        return r;
    }

    /** Opens a checked fragment through the host's opener. */
    public FragmentFile open(FragmentUris.Resolved r) throws IOException {
        if (r.local()) {
            Path p = Paths.get(r.location());
            // again at each open (the trust check is cached): a file swapped for a FIFO must not block
            String why = LocalTargets.refusal(p, LocalTargets.Kind.FILE_OR_DIRECTORY);
            if (why != null) {
                throw new TargetRefusedException(origin.documentName(), null, r.uri(), why, null);
            }
        }
        return opener.open(r, origin);
    }
}
