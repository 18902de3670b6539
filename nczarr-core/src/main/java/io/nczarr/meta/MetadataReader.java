package io.nczarr.meta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.error.MetadataException;
import io.nczarr.model.DatasetModel;
import io.nczarr.model.GroupModel;
import io.nczarr.store.Store;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;

/** Entry point of the metadata layer: store -> {@link DatasetModel}. Decides NCZarr vs pure Zarr. */
public final class MetadataReader {
    /**
     * The root objects that tell the format, asked of a remote store at once: a v3 root node, v2 consolidated
     * metadata and a v2 group, so that v3, consolidated v2 and NCZarr stores (no {@code .zmetadata}) all open
     * their root in one round trip. A v3 open sends this one v2 probe, at the root, in parallel; none for its
     * nodes ({@code .zarray}/{@code .zattrs} are never asked of a v3 store).
     */
    private static final List<String> ROOT_PROBES = List.of("zarr.json", ".zmetadata", ".zgroup");

    private MetadataReader() {}

    /**
     * Reads the whole hierarchy.
     *
     * @param format NCZARR/AUTO read NCZarr metadata when a superblock exists (pure-Zarr rules
     *     otherwise, as netcdf-c does); ZARR ignores NCZarr metadata
     * @param xarrayDimensions whether pure Zarr takes dimension names from {@code _ARRAY_DIMENSIONS}
     * @throws MetadataException naming the dataset and key when anything is malformed, or when
     *     the store is not a Zarr dataset at all
     */
    public static DatasetModel read(Store store, DatasetUrl.Format format, boolean xarrayDimensions)
            throws IOException {
        return read(store, format, xarrayDimensions, null);
    }

    /**
     * Reads the whole hierarchy, fetching the metadata objects a group lists concurrently on {@code
     * prefetcher} (worth it for remote stores: an open then costs a few round trips instead of two per
     * variable); {@code null} reads one object at a time.
     */
    public static DatasetModel read(
            Store store, DatasetUrl.Format format, boolean xarrayDimensions, Executor prefetcher) throws IOException {
        String dataset = store.location();
        StoreMetadata objects = new StoreMetadata(store, prefetcher);
        // a remote store is asked for the objects that tell the format at once (ROOT_PROBES)
        objects.probe(ROOT_PROBES);
        // a root zarr.json makes the store Zarr v3, whatever v2 objects lie beside it (as zarr-python 3 decides)
        Optional<ObjectNode> zarrJson = objects.object("zarr.json");
        if (zarrJson.isPresent()) {
            return ZarrV3.read(store, zarrJson.get(), format, objects);
        }
        MetadataSource meta = ConsolidatedMetadata.open(store, objects).orElse(objects);
        Optional<ObjectNode> zgroup = meta.object(".zgroup");
        if (zgroup.isEmpty()) {
            Optional<ObjectNode> zarray = meta.object(".zarray");
            if (zarray.isPresent()) {
                return new DatasetModel(
                        dataset,
                        "Zarr v2",
                        new ZarrReader(dataset, meta, xarrayDimensions).readLoneArray(zarray.get()));
            }
            throw new MetadataException(dataset, ".zgroup", "not a Zarr/NCZarr dataset: no .zgroup at the root");
        }
        JsonNode zf = zgroup.get().get("zarr_format");
        if (zf != null && !(zf.isNumber() && zf.asInt() == 2)) {
            throw new MetadataException(dataset, ".zgroup", "zarr_format " + zf + " is not supported (only 2)");
        }
        if (format != DatasetUrl.Format.ZARR) {
            String version = superblockVersion(meta, zgroup.get());
            if (version != null) {
                GroupModel root = new NcZarrReader(dataset, meta).read();
                return new DatasetModel(dataset, "NCZarr " + version, root);
            }
        }
        GroupModel root = new ZarrReader(dataset, meta, xarrayDimensions).read();
        return new DatasetModel(dataset, "Zarr v2", root);
    }

    /** The NCZarr version if the root carries a superblock in any spelling; else {@code null}. */
    private static String superblockVersion(MetadataSource meta, ObjectNode zgroup) throws IOException {
        JsonNode sb = zgroup.get("_nczarr_superblock");
        if (sb == null) {
            sb = zgroup.get("_NCZARR_SUPERBLOCK");
        }
        if (sb == null) {
            Optional<ObjectNode> zattrs = meta.object(".zattrs");
            if (zattrs.isPresent()) {
                sb = zattrs.get().get("_nczarr_superblock");
                if (sb == null) {
                    sb = zattrs.get().get("_NCZARR_SUPERBLOCK");
                }
            }
        }
        if (sb != null) {
            JsonNode v = sb.get("version");
            return v == null ? "2" : v.asText();
        }
        Optional<ObjectNode> v1 = meta.object(".nczarr");
        if (v1.isPresent()) {
            JsonNode v = v1.get().get("nczarr_version");
            return v == null ? "1.0.0" : v.asText();
        }
        return null;
    }
}
