package io.nczarr.meta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.model.DatasetModel;
import io.nczarr.model.GroupModel;
import io.nczarr.store.Store;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;

/** Opening a Zarr v3 store (a root {@code zarr.json}): chooses the metadata source and the reader. */
final class ZarrV3 {
    private ZarrV3() {}

    /** {@code objects}: the store's metadata objects, those the open has looked at already included. */
    static DatasetModel read(Store store, ObjectNode root, DatasetUrl.Format format, MetadataSource objects)
            throws IOException {
        String dataset = store.location();
        MetadataSource meta = V3Consolidated.of(dataset, root).orElse(objects);
        JsonNode attrs = root.get("attributes");
        String version = format == DatasetUrl.Format.ZARR || attrs == null || !attrs.isObject()
                ? null
                : NcZarrV3Conventions.superblockVersion((ObjectNode) attrs);
        GroupModel g = new ZarrV3Reader(dataset, meta, version != null).read(root);
        return new DatasetModel(dataset, version != null ? "NCZarr " + version + " (Zarr v3)" : "Zarr v3", g);
    }
}
