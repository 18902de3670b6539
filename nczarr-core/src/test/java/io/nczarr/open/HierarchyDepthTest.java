package io.nczarr.open;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.MetadataException;
import io.nczarr.meta.GroupDepth;
import io.nczarr.model.GroupModel;
import io.nczarr.store.RawZip;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hierarchy too deep to walk (directory, zip and kerchunk; Zarr v2 and v3) is refused with a clear
 * MetadataException naming the group's key, not walked into a StackOverflowError (issue 21, finding 7); the
 * deepest supported hierarchy still opens.
 */
@Timeout(60)
class HierarchyDepthTest {
    /** Deep enough to overflow a walk per level (zip and kerchunk: the store's keys are in memory). */
    private static final int DEEP = 1000;
    /** Directories: past the limit, not much further (each level costs the file system a longer path). */
    private static final int DEEP_DIRECTORY = GroupDepth.MAX + 20;

    @TempDir
    Path tmp;

    private static String groups(int depth) {
        return "g/".repeat(depth);
    }

    private static OpenDataset open(String location) throws IOException {
        return Datasets.open(Datasets.parse(location), NcZarrOptions.shared());
    }

    private static void assertRefused(String location, String markerName) {
        MetadataException e =
                assertThrows(MetadataException.class, () -> open(location).close());
        assertTrue(e.getMessage().contains("more than the " + GroupDepth.MAX + " levels"), e.getMessage());
        assertTrue(e.key().endsWith(markerName), e.key());
        assertEquals(GroupDepth.MAX + 1, e.key().split("/").length - 1, "the first group too deep: " + e.key());
    }

    private Path directory(String name, int depth, String marker, String content) throws IOException {
        Path root = tmp.resolve(name);
        Path p = root;
        Files.createDirectories(root);
        Files.writeString(root.resolve(marker), content);
        for (int i = 0; i < depth; i++) {
            p = p.resolve("g");
            Files.createDirectory(p);
            Files.writeString(p.resolve(marker), content);
        }
        return root;
    }

    @Test
    void deepV2DirectoryIsRefused() throws IOException {
        assertRefused(
                directory("v2", DEEP_DIRECTORY, ".zgroup", "{\"zarr_format\": 2}")
                        .toString(),
                ".zgroup");
    }

    @Test
    void deepV3DirectoryIsRefused() throws IOException {
        String group = "{\"zarr_format\": 3, \"node_type\": \"group\"}";
        assertRefused(directory("v3", DEEP_DIRECTORY, "zarr.json", group).toString(), "zarr.json");
    }

    @Test
    void deepZipIsRefused() throws IOException {
        List<RawZip.Entry> entries = new ArrayList<>();
        for (int i = 0; i <= DEEP; i++) {
            entries.add(RawZip.Entry.text(groups(i) + ".zgroup", "{\"zarr_format\": 2}"));
        }
        Path zip = RawZip.write(tmp.resolve("deep.zip"), entries);
        assertRefused(zip.toString(), ".zgroup");
    }

    @Test
    void deepKerchunkIsRefused() throws IOException {
        StringBuilder b = new StringBuilder("{\"version\": 1, \"refs\": {");
        for (int i = 0; i <= DEEP; i++) {
            b.append(i == 0 ? "" : ", ")
                    .append('"')
                    .append(groups(i))
                    .append(".zgroup\": \"{\\\"zarr_format\\\": 2}\"");
        }
        Path json = tmp.resolve("deep.json");
        Files.writeString(json, b.append("}}").toString());
        assertRefused(json.toUri() + "#mode=kerchunk", ".zgroup");
    }

    @Test
    void theDeepestSupportedHierarchyOpens() throws IOException {
        Path root = directory("ok", GroupDepth.MAX, ".zgroup", "{\"zarr_format\": 2}");
        try (OpenDataset ds = open(root.toString())) {
            int depth = 0;
            for (GroupModel g = ds.model().root();
                    !g.groups().isEmpty();
                    g = g.groups().get(0)) {
                depth++;
            }
            assertEquals(GroupDepth.MAX, depth);
        }
    }
}
