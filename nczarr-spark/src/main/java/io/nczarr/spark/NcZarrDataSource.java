package io.nczarr.spark;

import io.nczarr.error.NcZarrException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The Spark DataSource V2 {@code nczarr}: {@code spark.read.format("nczarr").option("variables",
 * "temp,precip").load(url)} or {@code CREATE TABLE t USING nczarr OPTIONS (path '...')}, for every URL the
 * core opens. The schema comes from the dataset (a user schema is refused).
 */
public final class NcZarrDataSource implements TableProvider, DataSourceRegister {

    /** The short name given to {@code format(...)} and {@code USING}. */
    public static final String NAME = "nczarr";

    @Override
    public String shortName() {
        return NAME;
    }

    @Override
    public StructType inferSchema(CaseInsensitiveStringMap options) {
        return grid(options.asCaseSensitiveMap()).schema();
    }

    @Override
    public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
        return new NcZarrTable(grid(properties));
    }

    /** The table layout of the options' dataset, read on the driver; failures as Spark shows them. */
    static Grid grid(Map<String, String> options) {
        try {
            return Grid.load(SourceOptions.parse(options));
        } catch (NcZarrException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        }
    }
}
