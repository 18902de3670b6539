package io.nczarr.meta;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.model.DatasetModel;
import io.nczarr.model.GroupModel;
import io.nczarr.store.Store;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.util.concurrent.Executor;

/** Opening a Zarr v3 store (a root {@code zarr.json}): chooses the metadata source and the reader. */
final class ZarrV3 {
    private ZarrV3() {}

    static DatasetModel read(Store store, ObjectNode root, DatasetUrl.Format format, Executor prefetcher)
            throws IOException {
        String dataset = store.location();
        MetadataSource meta = V3Consolidated.of(dataset, root).orElse(MetadataSource.of(store, prefetcher));
        GroupModel g = new ZarrV3Reader(dataset, meta).read(root);
        return new DatasetModel(dataset, "Zarr v3", g);
    }
}
