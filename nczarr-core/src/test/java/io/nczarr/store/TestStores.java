package io.nczarr.store;

import io.nczarr.s3.AwsEnvironment;
import io.nczarr.s3.S3ClientFactory;
import io.nczarr.s3.S3ClientPool;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;

/** The resources core's tests open stores with, as a host would pass them in (one pool for the test JVM). */
public final class TestStores {
    private TestStores() {}

    public static final S3ClientPool S3_CLIENTS = new S3ClientPool(S3ClientFactory::create);

    /** One HTTP client for the test JVM, as the options share one. */
    public static final java.net.http.HttpClient HTTP_CLIENT = StoreResources.newHttpClient();

    public static final StoreResources RESOURCES =
            new StoreResources(S3_CLIENTS, AwsEnvironment.system(), MemoryLimits.defaults(), false, () -> HTTP_CLIENT);

    public static Store open(DatasetUrl url) throws IOException {
        return Stores.open(url, RESOURCES);
    }
}
