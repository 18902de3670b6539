package io.nczarr.icechunk;

import io.nczarr.error.MetadataException;
import io.nczarr.error.NcZarrException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Which snapshot of a repository to read: {@code branch=B}, {@code tag=T} or {@code snapshot=ID} in the URL
 * fragment (at most one), else the tip of {@code main}.
 */
record Selection(String kind, String name) {
    static final Selection MAIN = new Selection("branch", "main");

    static Selection of(Map<String, String> parameters, String repository) throws NcZarrException {
        List<Selection> given = new ArrayList<>();
        for (String k : List.of("branch", "tag", "snapshot")) {
            String v = parameters.get(k);
            if (v != null) {
                if (v.isBlank()) {
                    throw new NcZarrException(repository, null, null, "empty " + k + "= in the URL fragment", null);
                }
                given.add(new Selection(k, v.trim()));
            }
        }
        if (given.size() > 1) {
            throw new NcZarrException(
                    repository,
                    null,
                    null,
                    "the URL fragment names more than one of branch=, tag= and snapshot=",
                    null);
        }
        return given.isEmpty() ? MAIN : given.get(0);
    }

    /** The snapshot id this selection names in {@code info}. */
    String snapshotId(RepoInfo info, Repository repo) throws java.io.IOException {
        String repository = repo.location();
        if (info.specVersion < 2 && !kind.equals("snapshot")) {
            return repo.v1Ref(kind, name);
        }
        switch (kind) {
            case "branch": {
                String id = info.branches.get(name);
                if (id == null) {
                    throw new MetadataException(
                            repository,
                            "repo",
                            "no branch '" + name + "' (branches: " + String.join(", ", info.branches.keySet()) + ")");
                }
                return id;
            }
            case "tag": {
                String id = info.tags.get(name);
                if (id == null) {
                    throw new MetadataException(
                            repository,
                            "repo",
                            "no tag '" + name + "' (tags: " + String.join(", ", info.tags.keySet()) + ")");
                }
                return id;
            }
            default: {
                String id = name.toUpperCase(java.util.Locale.ROOT);
                try {
                    Crockford.decode(id, 12);
                } catch (IllegalArgumentException e) {
                    throw new NcZarrException(
                            repository,
                            null,
                            null,
                            "snapshot=" + name + " is not a snapshot id (" + e.getMessage() + ")",
                            null);
                }
                return id;
            }
        }
    }

    @Override
    public String toString() {
        return kind + " " + name;
    }
}
