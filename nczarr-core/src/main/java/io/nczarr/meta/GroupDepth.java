package io.nczarr.meta;

import io.nczarr.error.MetadataException;

/**
 * The bound on how deeply groups nest. The metadata readers, and everything that walks the model after them
 * (the netCDF-Java binding, the command line's listings), recurse per level: a hierarchy thousands of groups
 * deep would end in a {@link StackOverflowError}. netCDF files and Zarr stores in practice nest a few levels.
 */
public final class GroupDepth {
    /** The deepest a group may be below the root (the root is depth 0). */
    public static final int MAX = 256;

    private GroupDepth() {}

    /**
     * Refuses a group at {@code path} ({@code /a/b}: depth 2) deeper than {@link #MAX}.
     *
     * @param key the group's metadata object, for the message
     */
    static void check(String dataset, String key, String path) throws MetadataException {
        int depth = 0;
        for (int i = 0; i < path.length(); i++) {
            if (path.charAt(i) == '/' && i + 1 < path.length()) {
                depth++;
            }
        }
        if (depth > MAX) {
            throw new MetadataException(
                    dataset,
                    key,
                    "groups are nested " + depth + " deep here, more than the " + MAX
                            + " levels supported (a hierarchy this deep is refused rather than walked)");
        }
    }
}
