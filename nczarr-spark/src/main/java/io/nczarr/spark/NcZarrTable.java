package io.nczarr.spark;

import java.util.EnumSet;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.CatalogV2Util;
import org.apache.spark.sql.connector.catalog.Column;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/** One dataset's grid as a read-only batch table. */
// schema() is deprecated in Spark 4 in favour of columns(), but still abstract: both are given
@SuppressWarnings("deprecation")
final class NcZarrTable implements SupportsRead {
    private final Grid grid;

    NcZarrTable(Grid grid) {
        this.grid = grid;
    }

    @Override
    public String name() {
        return "nczarr:" + grid.options.location();
    }

    @Override
    public StructType schema() {
        return grid.schema();
    }

    @Override
    public Column[] columns() {
        return CatalogV2Util.structTypeToV2Columns(grid.schema());
    }

    @Override
    public Set<TableCapability> capabilities() {
        return EnumSet.of(TableCapability.BATCH_READ);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
        return new NcZarrScanBuilder(grid);
    }
}
