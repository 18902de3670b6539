package io.nczarr.source;

import io.nczarr.error.Redaction;
import io.nczarr.error.TargetRefusedException;
import io.nczarr.s3.S3Location;
import io.nczarr.url.DatasetUrl;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The one resolver of URLs found inside documents (kerchunk reference targets, aggregation fragments, CFA
 * {@code file}s): it decides, from the document chain ({@link Origin}) and the user's {@link TrustSettings},
 * whether the target may be read, and which credentials a request to it carries. Rules (user guide, "Trust
 * model"):
 *
 * <ul>
 *   <li>a URL the user gives is trusted;
 *   <li>a target on the allow list ({@value TrustSettings#ALLOW}) may be read (local files only if regular);
 *   <li>a remote document (or anything below one) never reaches local files;
 *   <li>a local document reaches local files inside its own directory tree and {@value
 *       TrustSettings#LOCAL_ROOTS} only, links resolved;
 *   <li>a remote document reaches loopback, private and link-local hosts only when it came from a host of the
 *       same kind; a local document never reaches link-local hosts (cloud metadata);
 *   <li>a local target must be a regular file (a directory for a fragment), checked without opening it;
 *   <li>a document-named S3 target is signed with the user's credentials only on the endpoint and bucket of the
 *       URL the user gave, or under a prefix of {@value TrustSettings#CREDENTIALS}; otherwise it is anonymous,
 *       and profile names in the document's own URL are ignored.
 * </ul>
 *
 * Nothing here opens a file or a connection; a host name is classified by the system resolver ({@link
 * HostClass}).
 */
public final class Trust {
    private static final System.Logger LOG = System.getLogger(Trust.class.getName());

    /** Fragment keys a document-named URL may not set: they choose credentials or widen trust. */
    private static final List<String> CREDENTIAL_KEYS = List.of("aws.profile", "awsprofile");

    private Trust() {}

    /**
     * Checks {@code target}, named inside {@code origin.document()}; returns normally when it may be read.
     *
     * @param key the key or fragment being read, for the message (may be null)
     * @throws TargetRefusedException naming the document, key, target and the option that would allow it
     */
    public static void check(Origin origin, URI target, String key, LocalTargets.Kind kind)
            throws TargetRefusedException {
        if (origin.isUserGiven()) {
            return;
        }
        String scheme = target.getScheme() == null ? "" : target.getScheme().toLowerCase(Locale.ROOT);
        boolean allowed = origin.settings().allows(target);
        if (scheme.equals("file")) {
            Path p = LocalTargets.pathOf(target);
            if (p == null) {
                throw refuse(origin, key, target, "not a local file URL", null);
            }
            if (!allowed) {
                if (origin.isRemote()) {
                    throw refuse(
                            origin,
                            key,
                            target,
                            "a remote document (" + Redaction.redact(origin.nearestRemote())
                                    + ") may not name local files",
                            TrustSettings.ALLOW + "=file:///<directory>/ (or its old alias for aggregations,"
                                    + " nczarr.aggregation.allowLocalFragments=true)");
                }
                Path real = LocalTargets.real(p);
                List<Path> roots = new ArrayList<>();
                Path doc = LocalTargets.pathOf(origin.document());
                if (doc != null && doc.getParent() != null) {
                    roots.add(doc.getParent());
                }
                roots.addAll(origin.settings().localRoots());
                boolean inside = false;
                for (Path r : roots) {
                    if (real.startsWith(LocalTargets.real(r))) {
                        inside = true;
                        break;
                    }
                }
                if (!inside) {
                    throw refuse(
                            origin,
                            key,
                            target,
                            "outside the document's directory"
                                    + (doc != null && doc.getParent() != null ? " " + doc.getParent() : "")
                                    + (roots.size() > 1 ? " and the allowed local roots" : ""),
                            TrustSettings.LOCAL_ROOTS + "=<directory>");
                }
            }
            String why = LocalTargets.refusal(p, kind);
            if (why != null) {
                throw refuse(origin, key, target, why, null);
            }
            return;
        }
        if (allowed || !(scheme.equals("http") || scheme.equals("https") || scheme.equals("s3"))) {
            return; // other schemes: the reader refuses them as unsupported
        }
        HostClass c = hostClass(target);
        if (c == HostClass.PUBLIC) {
            return;
        }
        URI remote = origin.nearestRemote();
        if (remote != null) {
            HostClass from = hostClass(remote);
            if (from != c) {
                throw refuse(
                        origin,
                        key,
                        target,
                        "names " + c.describe() + " but the document came from " + from.describe(),
                        TrustSettings.ALLOW + "=" + prefixOf(target));
            }
        } else if (c == HostClass.LINK_LOCAL) {
            throw refuse(origin, key, target, "names " + c.describe(), TrustSettings.ALLOW + "=" + prefixOf(target));
        }
    }

    /** The host class of an http(s) or s3 URL ({@code s3://bucket/...} is AWS: public). */
    static HostClass hostClass(URI u) {
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        if (scheme.equals("file")) {
            return HostClass.LOOPBACK;
        }
        if (scheme.equals("s3") && u.getPort() < 0) {
            return HostClass.PUBLIC;
        }
        return HostClass.of(u.getHost());
    }

    private static String prefixOf(URI target) {
        return target.getScheme().toLowerCase(Locale.ROOT) + "://" + target.getRawAuthority() + "/";
    }

    private static TargetRefusedException refuse(Origin origin, String key, URI target, String why, String option) {
        return new TargetRefusedException(origin.documentName(), key, target.toString(), why, option);
    }

    /**
     * Whether a request to {@code target} may carry the user's credentials: always for the URL the user gave;
     * for a document-named one only on the endpoint and bucket (S3) or scheme, host and port (HTTP) of the URL
     * the user gave, or under a prefix of {@value TrustSettings#CREDENTIALS}.
     */
    public static boolean credentialsBound(Origin origin, URI target) {
        if (origin.isUserGiven()) {
            return true;
        }
        if (origin.settings().bindsCredentials(target)) {
            return true;
        }
        DatasetUrl user = origin.userUrl();
        URI u = user == null ? null : user.uri();
        if (u == null || target.getScheme() == null || u.getScheme() == null) {
            return false;
        }
        URI t = withoutFragment(target);
        try {
            S3Location a = S3Location.parse(u);
            S3Location b = S3Location.parse(t);
            return Objects.equals(a.endpoint(), b.endpoint()) && a.bucket().equals(b.bucket());
        } catch (IllegalArgumentException e) {
            return u.getScheme().equalsIgnoreCase(t.getScheme())
                    && u.getHost() != null
                    && u.getHost().equalsIgnoreCase(t.getHost())
                    && port(u) == port(t);
        }
    }

    private static int port(URI u) {
        if (u.getPort() >= 0) {
            return u.getPort();
        }
        return "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
    }

    /**
     * The fragment keys a request to the document-named {@code target} is made with: {@code given} without
     * profile names (ignored, said so in a debug line) and, for S3 ({@code s3}), the user's profile when the
     * credentials are bound to the target, else {@code aws.profile=none} (unsigned). For the URL the user gave,
     * {@code given} as it is.
     */
    public static Map<String, String> parametersFor(Origin origin, URI target, Map<String, String> given, boolean s3) {
        if (origin.isUserGiven()) {
            return given;
        }
        Map<String, String> out = new LinkedHashMap<>(given);
        for (String k : CREDENTIAL_KEYS) {
            if (out.remove(k) != null) {
                LOG.log(
                        System.Logger.Level.DEBUG,
                        () -> "ignoring " + k + " in " + Redaction.redact(target) + ", named by "
                                + origin.documentName() + ": documents do not choose credentials");
            }
        }
        out.keySet().removeIf(k -> k.startsWith("nczarr.trust."));
        if (!s3) {
            return out;
        }
        if (credentialsBound(origin, target)) {
            DatasetUrl user = origin.userUrl();
            if (user != null) {
                for (String k : CREDENTIAL_KEYS) {
                    String v = user.parameter(k);
                    if (v != null) {
                        out.put(k, v);
                    }
                }
            }
        } else {
            out.put("aws.profile", "none");
        }
        return out;
    }

    /**
     * A document-named dataset URL made safe to open: its fragment keys as {@link #parametersFor} gives them
     * (S3 when its scheme, mode or keys say so).
     */
    public static DatasetUrl forDocument(DatasetUrl url, Origin origin) {
        if (origin.isUserGiven() || url.uri() == null) {
            return url;
        }
        boolean s3 = "s3".equalsIgnoreCase(url.scheme())
                || url.modes().contains(io.nczarr.url.Mode.S3)
                || url.parameters().keySet().stream().anyMatch(k -> k.startsWith("aws.") || k.equals("awsprofile"))
                || DatasetUrl.isAwsS3ApiHost(url.uri().getHost());
        Map<String, String> p = parametersFor(origin, url.uri(), url.parameters(), s3);
        return new DatasetUrl(url.original(), url.scheme(), url.localPath(), url.uri(), p, url.modes());
    }

    private static URI withoutFragment(URI u) {
        String s = u.toString();
        int hash = s.indexOf('#');
        return hash < 0 ? u : URI.create(s.substring(0, hash));
    }
}
