package io.nczarr.icechunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.NcZarrException;
import io.nczarr.error.TargetRefusedException;
import io.nczarr.store.Store;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 23: virtual chunk containers authorized by URL prefix ({@code icechunk.container=PREFIX[=READ_PREFIX]}),
 * for repositories that name their containers by their prefix (VirtualiZarr 2.x, spec-1 config.yaml), matched
 * by the longest declared prefix under the same trust rules.
 */
class ContainersByPrefixTest {
    static final String SRC = "file:///nczarr-icechunk-src/";

    static String resolve(Map<String, String> declared, String grant, String location) throws Exception {
        return Containers.of(declared, Map.of(Containers.PREFIX_KEY, grant), "r")
                .resolve(location, "r", "/a", "a/c/0");
    }

    @Test
    void longestDeclaredPrefixDecides() throws Exception {
        Map<String, String> declared = Map.of("s3://bucket/", "s3://bucket/", "nc", "s3://bucket/nc/");
        // exactly a declared prefix: that container only
        assertEquals("s3://bucket/nc/f.nc", resolve(declared, "s3://bucket/nc/", "s3://bucket/nc/f.nc"));
        TargetRefusedException e = assertThrows(
                TargetRefusedException.class, () -> resolve(declared, "s3://bucket/nc/", "s3://bucket/other/f.nc"));
        assertTrue(e.getMessage().contains("icechunk.container=s3://bucket/"), e.getMessage());
        // narrower than a declared container: only the locations under it
        Map<String, String> one = Map.of("s3://bucket/", "s3://bucket/");
        assertEquals("s3://bucket/nc/2026/f.nc", resolve(one, "s3://bucket/nc/", "s3://bucket/nc/2026/f.nc"));
        assertThrows(TargetRefusedException.class, () -> resolve(one, "s3://bucket/nc/", "s3://bucket/f.nc"));
        // broader: every declared container under it
        assertEquals("s3://bucket/f.nc", resolve(declared, "s3://", "s3://bucket/f.nc"));
        assertEquals("s3://bucket/nc/f.nc", resolve(declared, "s3://", "s3://bucket/nc/f.nc"));
        // several, comma-separated, one of them mapped
        assertEquals(
                "file:///data/nc/f.nc",
                resolve(declared, "s3://bucket/nc/=file:///data/nc/, s3://bucket/x/", "s3://bucket/nc/f.nc"));
        assertEquals(
                "s3://bucket/x/f.nc",
                resolve(declared, "s3://bucket/nc/=file:///data/nc/, s3://bucket/x/", "s3://bucket/x/f.nc"));
        // a declared container under a mapped broader grant is read at the same place under the mapping
        assertEquals(
                "https://mirror/b/nc/f.nc", resolve(declared, "s3://bucket/=https://mirror/b/", "s3://bucket/nc/f.nc"));
        assertThrows(NcZarrException.class, () -> resolve(declared, "bucket", "s3://bucket/f.nc"));
    }

    @Test
    void optionPropertyEntriesThatAreUrlsAuthorizeByPrefix() throws Exception {
        Map<String, String> p = Parameters.of(
                Map.of(), Map.of(Parameters.CONTAINERS, "src=file:///a/,s3://bucket/nc/=file:///b/")::get, "r");
        assertEquals("file:///a/", p.get("icechunk.container.src"));
        assertEquals("s3://bucket/nc/=file:///b/", p.get(Containers.PREFIX_KEY));
        p = Parameters.of(Map.of(Containers.PREFIX_KEY, "s3://x/"), Map.of(Parameters.CONTAINERS, "s3://y/")::get, "r");
        assertEquals("s3://x/,s3://y/", p.get(Containers.PREFIX_KEY));
    }

    /** The VirtualiZarr repositories: their container (named "src", prefix file:///nczarr-icechunk-src/). */
    @Test
    void virtualizarrRepositoriesByPrefix() throws Exception {
        Path dir = IcechunkStoreTest.DIR;
        for (String[] rk : new String[][] {{"vz_nc4.icechunk", "flat/c/0/0"}, {"vz_nc3.icechunk", "a/c/0/0"}}) {
            String r = rk[0];
            String key = rk[1];
            try (Store s = IcechunkStoreTest.open(dir.resolve(r), "&icechunk.container=" + SRC + "=" + dir.toUri())) {
                assertTrue(s.get(key).isPresent(), r);
            }
            // another prefix does not authorize it
            try (Store s = IcechunkStoreTest.open(dir.resolve(r), "&icechunk.container=file:///elsewhere/")) {
                assertThrows(TargetRefusedException.class, () -> s.get(key));
            }
        }
    }

    /** Spec 1 with its container declared by prefix in config.yaml. */
    @Test
    void spec1ConfigYamlContainerByPrefix() throws Exception {
        Path repo = IcechunkStoreTest.DIR.resolve("spec1v.icechunk");
        try (Store s = IcechunkStoreTest.open(repo, "")) {
            TargetRefusedException e = assertThrows(TargetRefusedException.class, () -> s.get("flat/c/0/0"));
            assertTrue(
                    e.getMessage().contains("container '" + SRC + "'")
                            && e.getMessage().contains("icechunk.container=" + SRC),
                    e.getMessage());
        }
        try (Store s =
                IcechunkStoreTest.open(repo, "&icechunk.container=" + SRC + "=" + IcechunkStoreTest.DIR.toUri())) {
            assertEquals(48, s.get("flat/c/1/0").orElseThrow().length);
        }
    }
}
