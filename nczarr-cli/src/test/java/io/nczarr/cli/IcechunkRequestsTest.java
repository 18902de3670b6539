package io.nczarr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.nczarr.cdm.NcZarrFiles;
import io.nczarr.testkit.Corpus;
import io.nczarr.testkit.s3.CountingProxy;
import io.nczarr.testkit.s3.LocalS3;
import java.util.List;
import org.junit.jupiter.api.Test;
import ucar.nc2.NetcdfFile;

/**
 * Issue 23's request economy on loopback S3: opening a repository and reading one native chunk costs the repo
 * info, the snapshot, the array's manifest and the chunk — four GETs, no listing; an inline chunk of the same
 * manifest none.
 */
class IcechunkRequestsTest {
    @Test
    void openAndFirstChunkIsThreeMetadataGetsThenTheChunk() throws Exception {
        LocalS3 s3 = LocalS3.get();
        s3.upload(Corpus.icechunkDir().resolve("native.icechunk"), "icechunk-req", "r/native.icechunk");
        CountingProxy proxy = s3.signed;
        proxy.reset();
        String url = s3.signedUrl("icechunk-req", "r/native.icechunk", "zarr,icechunk,s3");
        try (NetcdfFile nc = NcZarrFiles.open(url)) {
            nc.findVariable("sub/deep/big").read("20:20,0:29");
            List<String> paths = proxy.requests().stream()
                    .map(r -> r.method() + " " + r.path())
                    .toList();
            CountingProxy.Counts c = proxy.counts();
            assertEquals(0, c.list(), paths.toString());
            assertEquals(4, c.get(), paths.toString());
            assertEquals(
                    List.of("repo", "snapshots", "manifests", "chunks"),
                    paths.stream()
                            .map(p -> p.split("/")[p.split("/").length - 2].replace("native.icechunk", "repo"))
                            .toList(),
                    paths.toString());
            proxy.reset();
            nc.findVariable("sub/deep/big").read("0:0,0:29");
            assertEquals(0, proxy.counts().total(), "the manifest is cached and c/0/0 is inline on main");
        }
    }

    /** The parallel reads of an array's first chunks wait for one read of each manifest (was one each). */
    @Test
    void parallelFirstReadsFetchEachManifestOnce() throws Exception {
        LocalS3 s3 = LocalS3.get();
        s3.upload(Corpus.icechunkDir().resolve("native.icechunk"), "icechunk-req", "m/native.icechunk");
        CountingProxy proxy = s3.signed;
        proxy.reset();
        String url = s3.signedUrl("icechunk-req", "m/native.icechunk", "zarr,icechunk,s3");
        try (NetcdfFile nc = NcZarrFiles.open(url)) {
            nc.findVariable("sub/deep/big").read();
            nc.findVariable("split").read();
            java.util.Map<String, Long> manifests = proxy.requests().stream()
                    .filter(r -> r.path().contains("/manifests/"))
                    .collect(java.util.stream.Collectors.groupingBy(
                            CountingProxy.Request::path, java.util.stream.Collectors.counting()));
            assertEquals(true, manifests.size() >= 2, manifests.toString());
            manifests.forEach((path, n) -> assertEquals(1L, n, path));
        }
    }
}
