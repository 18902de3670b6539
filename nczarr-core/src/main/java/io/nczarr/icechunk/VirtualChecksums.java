package io.nczarr.icechunk;

import io.nczarr.error.PreconditionFailedException;
import io.nczarr.error.Redaction;
import io.nczarr.error.StoreException;
import io.nczarr.http.ReadPreconditions;
import io.nczarr.source.ObjectSource;
import io.nczarr.store.kerchunk.ReferenceTargets;
import java.util.Locale;

/**
 * The checks of a virtual chunk reference's {@code checksum_etag} / {@code checksum_last_modified} (Icechunk spec
 * v1 and v2): the object the bytes came from must be the one the repository was written against. Compared with
 * what the answer told: the {@code ETag} (quotes and a weak {@code W/} prefix ignored) and the modification time
 * in whole seconds, which may not be later than the recorded one (the {@code If-Unmodified-Since} rule). Over
 * HTTP and S3 the ranged GET is sent with {@code If-Match} / {@code If-Unmodified-Since} ({@link
 * #preconditions}), so a changed object answers 412 before any byte is sent; the check after reading remains
 * for servers that ignore the conditions. A source that tells neither is not checked; an ETag is not checkable
 * for a local file (no such thing), its mtime is.
 */
final class VirtualChecksums {
    static final String CHANGED = "the object changed since the repository was written";

    private VirtualChecksums() {}

    /** The check for {@code ref}, or null when it records neither checksum. */
    static ReferenceTargets.AfterRead of(ChunkRef ref, String repository, String array, String key) {
        if (ref.etag() == null && ref.lastModifiedSeconds() <= 0) {
            return null;
        }
        return src -> check(ref, src, repository, array, key);
    }

    /**
     * The conditions the ranged GET of {@code ref}'s bytes is sent with, so that a changed object answers 412
     * and nothing is downloaded ({@code If-Match: checksum_etag}, {@code If-Unmodified-Since:
     * checksum_last_modified}); a local file gets none and keeps the check after reading.
     */
    static ReadPreconditions preconditions(ChunkRef ref) {
        return ReadPreconditions.of(ref.etag(), ref.lastModifiedSeconds());
    }

    /** The failure a 412 answer to the conditional GET of {@code location} means. */
    static StoreException changed(
            String repository, String array, String key, String location, PreconditionFailedException e) {
        return new StoreException(
                repository,
                key,
                "array " + array + ", chunk " + key + ": virtual location " + Redaction.redact(location) + ": "
                        + CHANGED + " (the server answered 412 Precondition Failed to " + e.conditions() + ")",
                false,
                e);
    }

    static void check(ChunkRef ref, ObjectSource src, String repository, String array, String key)
            throws StoreException {
        String told = src.etag();
        if (ref.etag() != null && told != null && !bare(ref.etag()).equals(bare(told))) {
            throw changed(repository, array, key, src, "its ETag was " + ref.etag() + " and is now " + told);
        }
        long ms = src.lastModified();
        long recorded = ref.lastModifiedSeconds();
        if (recorded > 0 && ms > 0 && Math.floorDiv(ms, 1000) > recorded) {
            throw changed(
                    repository,
                    array,
                    key,
                    src,
                    "it was modified at " + java.time.Instant.ofEpochSecond(Math.floorDiv(ms, 1000)) + ", after "
                            + java.time.Instant.ofEpochSecond(recorded));
        }
    }

    private static String bare(String etag) {
        String e = etag.trim();
        if (e.toUpperCase(Locale.ROOT).startsWith("W/")) {
            e = e.substring(2);
        }
        if (e.length() >= 2 && e.startsWith("\"") && e.endsWith("\"")) {
            e = e.substring(1, e.length() - 1);
        }
        return e;
    }

    private static StoreException changed(String repository, String array, String key, ObjectSource src, String why) {
        return new StoreException(
                repository,
                key,
                "array " + array + ", chunk " + key + ": virtual location " + Redaction.redact(src.location()) + ": "
                        + CHANGED + " (" + why + ")",
                false,
                null);
    }
}
