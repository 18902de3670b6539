package io.nczarr.icechunk;

import io.nczarr.error.NcZarrException;
import io.nczarr.store.Store;
import io.nczarr.store.StoreResources;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code nczarr log} prints of a repository, like {@code git log}: its branches and tags, its virtual
 * chunk containers, and the history (id, time, message, metadata) of the selected snapshot back to the first
 * commit, each commit with the branches and tags pointing at it. Reads one object, the repo info.
 */
public final class IcechunkLog {
    private IcechunkLog() {}

    /** The lines for the repository whose root is {@code base} (not closed here), {@code url} selecting. */
    public static List<String> lines(Store base, DatasetUrl url, StoreResources resources) throws IOException {
        Repository repo = new Repository(
                base, resources.limits().metadata(), resources.limits().maxMetadataBytes());
        RepoInfo info = repo.info();
        Map<String, String> params =
                Parameters.of(url.parameters(), resources.environment()::property, base.location());
        Selection sel = Selection.of(params, base.location());
        String id = sel.snapshotId(info, repo);
        if (info.specVersion < 2) {
            return v1Lines(repo, sel, id, Containers.of(info.containers, params, base.location()));
        }
        if (info.indexOf(id) < 0) {
            throw new NcZarrException(
                    base.location(),
                    "repo",
                    null,
                    "no snapshot " + id + " in the repository's list of snapshots",
                    null);
        }
        Map<String, List<String>> names = new TreeMap<>();
        info.branches.forEach(
                (b, s) -> names.computeIfAbsent(s, k -> new ArrayList<>()).add(b));
        info.tags.forEach(
                (t, s) -> names.computeIfAbsent(s, k -> new ArrayList<>()).add("tag: " + t));
        List<String> out = new ArrayList<>();
        out.add("repository " + base.location() + " (Icechunk spec " + info.specVersion + ")");
        out.add("branches:");
        info.branches.forEach((b, s) -> out.add(String.format("  %-20s %s", b, s)));
        out.add("tags:");
        info.tags.forEach((t, s) -> out.add(String.format("  %-20s %s", t, s)));
        containerLines(out, Containers.of(info.containers, params, base.location()));
        out.add("history of " + sel + ":");
        for (RepoInfo.SnapshotEntry e : info.ancestry(id)) {
            out.add("");
            List<String> refs = names.get(e.id());
            out.add("snapshot " + e.id() + (refs == null ? "" : " (" + String.join(", ", refs) + ")"));
            out.add("Date:   " + e.time());
            out.add("    " + e.message().replace("\n", "\n    "));
            e.metadata().forEach((k, v) -> out.add("    " + k + ": " + v));
        }
        return out;
    }

    /**
     * Spec 1: the refs are objects ({@code refs/branch.B/ref.json}, found by listing where the store lists),
     * the history the chain of the snapshots' parents (one read per commit).
     */
    private static List<String> v1Lines(Repository repo, Selection sel, String id, Containers cs) throws IOException {
        List<String> out = new ArrayList<>();
        out.add("repository " + repo.location() + " (Icechunk spec 1)");
        Map<String, List<String>> names = new TreeMap<>();
        List<String> refs;
        try {
            refs = repo.root().list("refs");
        } catch (io.nczarr.error.UnsupportedFeatureException e) {
            // plain HTTP: the refs are objects of their own and cannot be listed; the history still can be read
            refs = List.of();
            out.add("branches and tags: not listed (spec 1 keeps them as objects under refs/, and this store cannot"
                    + " list; branch=B or tag=T still select one)");
        }
        for (String kind : List.of("branch", "tag")) {
            out.add(kind.equals("branch") ? "branches:" : "tags:");
            for (String r : refs) {
                if (r.startsWith(kind + ".")) {
                    String name = r.substring(kind.length() + 1);
                    String s = repo.v1Ref(kind, name);
                    out.add(String.format("  %-20s %s", name, s));
                    names.computeIfAbsent(s, k -> new ArrayList<>()).add(kind.equals("tag") ? "tag: " + name : name);
                }
            }
        }
        containerLines(out, cs);
        out.add("history of " + sel + ":");
        String next = id;
        for (int n = 0; next != null && n < 100_000; n++) {
            SnapshotFile s = repo.snapshot(next);
            out.add("");
            List<String> at = names.get(s.id);
            out.add("snapshot " + s.id + (at == null ? "" : " (" + String.join(", ", at) + ")"));
            out.add("Date:   " + RepoInfo.SnapshotEntry.timeOf(s.flushedAtMicros));
            out.add("    " + s.message.replace("\n", "\n    "));
            s.metadata.forEach((k, v) -> out.add("    " + k + ": " + v));
            next = s.parentId;
        }
        return out;
    }

    private static void containerLines(List<String> out, Containers cs) {
        if (cs.all().isEmpty()) {
            return;
        }
        out.add("virtual chunk containers:");
        for (Containers.Container c : cs.all()) {
            out.add(String.format(
                    "  %-20s %s%s",
                    c.name(),
                    c.declared(),
                    !c.authorized()
                            ? " (not authorized)"
                            : c.readAt().equals(c.declared()) ? " (authorized)" : " -> " + c.readAt()));
        }
    }

    /** One line: which snapshot {@code url} selects, its time and message (one read: the repo info). */
    public static String selected(Store base, DatasetUrl url, StoreResources resources) throws IOException {
        Repository repo = new Repository(
                base, resources.limits().metadata(), resources.limits().maxMetadataBytes());
        RepoInfo info = repo.info();
        Map<String, String> params =
                Parameters.of(url.parameters(), resources.environment()::property, base.location());
        Selection sel = Selection.of(params, base.location());
        String id = sel.snapshotId(info, repo);
        int i = info.indexOf(id);
        return "icechunk snapshot " + id + " (" + sel + ")"
                + (i < 0
                        ? ""
                        : ", " + info.snapshots.get(i).time() + ": "
                                + info.snapshots.get(i).message());
    }
}
