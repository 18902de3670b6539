package io.nczarr.all;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The shaded jar, dropped next to netCDF-Java (cdm 4.5.5 and its own dependencies) in a fresh
 * class loader that sees nothing else, opens a corpus dataset by URL and through ServiceLoader.
 */
class ShadedJarIT {

    private static URLClassLoader application() throws Exception {
        List<URL> urls = new ArrayList<>();
        urls.add(Paths.get(System.getProperty("shaded.jar")).toUri().toURL());
        String cp = Files.readString(Paths.get(System.getProperty("cdm.classpath.file")))
                .trim();
        for (String p : cp.split(File.pathSeparator)) {
            assertFalse(p.contains("jackson") || p.contains("nczarr"), "not part of a CDM application: " + p);
            urls.add(Paths.get(p).toUri().toURL());
        }
        return new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
    }

    private static Path corpus() {
        return io.nczarr.testkit.Corpus.corpusDir();
    }

    @Test
    void opensByUrlAndThroughServiceLoader() throws Exception {
        String url = corpus().resolve("nczarr/nczarr_groups.file").toUri() + "#mode=nczarr,file";
        Thread t = Thread.currentThread();
        ClassLoader saved = t.getContextClassLoader();
        try (URLClassLoader app = application()) {
            // cdm 4.5.5 finds plugins with ServiceLoader on the context class loader
            t.setContextClassLoader(app);
            Class<?> files = app.loadClass("io.nczarr.cdm.NcZarrFiles");
            try (AutoCloseable nc =
                    (AutoCloseable) files.getMethod("open", String.class).invoke(null, url)) {
                assertEquals("NCZarr", nc.getClass().getMethod("getFileTypeId").invoke(nc));
                Object v = nc.getClass().getMethod("findVariable", String.class).invoke(nc, "forecast/temp");
                Object data = v.getClass().getMethod("read").invoke(v);
                assertEquals(60L, data.getClass().getMethod("getSize").invoke(data));
            }
            Class<?> netcdfFile = app.loadClass("ucar.nc2.NetcdfFile");
            String zgroup =
                    corpus().resolve("nczarr/nczarr_groups.file/.zgroup").toString();
            try (AutoCloseable nc =
                    (AutoCloseable) netcdfFile.getMethod("open", String.class).invoke(null, zgroup)) {
                assertEquals("NCZarr", nc.getClass().getMethod("getFileTypeId").invoke(nc));
            }
            // the blosc/zstd codecs (native-backed libraries) work from the shaded jar
            String zarr = corpus().resolve("zarr/zarr_compressors.zarr").toUri() + "#mode=zarr,file";
            try (AutoCloseable nc =
                    (AutoCloseable) files.getMethod("open", String.class).invoke(null, zarr)) {
                List<?> vars = (List<?>) nc.getClass().getMethod("getVariables").invoke(nc);
                assertTrue(vars.size() > 10);
                for (Object v : vars) {
                    v.getClass().getMethod("read").invoke(v);
                }
            }
        } finally {
            t.setContextClassLoader(saved);
        }
    }

    /** S3 (AWS SDK, Apache 5 client) works from the shaded jar: a loopback S3 server, unsigned reads. */
    @Test
    void readsFromS3() throws Exception {
        try (io.nczarr.testkit.s3.LocalS3Server server =
                io.nczarr.testkit.s3.LocalS3Server.start("AKIASHADED", "shaded-secret")) {
            server.upload(corpus().resolve("nczarr/nczarr_groups.file"), "shaded", "ds/nczarr_groups.file");
            String url = server.anonymousEndpoint() + "/shaded/ds/nczarr_groups.file#mode=nczarr,s3&aws.profile=none";
            Thread t = Thread.currentThread();
            ClassLoader saved = t.getContextClassLoader();
            try (URLClassLoader app = application()) {
                t.setContextClassLoader(app);
                Class<?> files = app.loadClass("io.nczarr.cdm.NcZarrFiles");
                try (AutoCloseable nc =
                        (AutoCloseable) files.getMethod("open", String.class).invoke(null, url)) {
                    Object v = nc.getClass()
                            .getMethod("findVariable", String.class)
                            .invoke(nc, "forecast/temp");
                    Object data = v.getClass().getMethod("read").invoke(v);
                    assertEquals(60L, data.getClass().getMethod("getSize").invoke(data));
                }
            } finally {
                t.setContextClassLoader(saved);
            }
        }
    }

    /** The drop-in jar is the library only: no test kit, command line or benchmark class ships. */
    @Test
    void holdsNoTestkitCliOrBenchmarkClasses() throws Exception {
        try (JarFile jar = new JarFile(System.getProperty("shaded.jar"))) {
            List<String> leaked = jar.stream()
                    .map(e -> e.getName())
                    .filter(n -> n.startsWith("io/nczarr/testkit/")
                            || n.startsWith("io/nczarr/cli/")
                            || n.startsWith("io/nczarr/bench/")
                            || n.contains("Bench")
                            || n.startsWith("org/gaul/")
                            || n.startsWith("org/junit/"))
                    .toList();
            assertEquals(List.of(), leaked);
            assertTrue(jar.getEntry("io/nczarr/cdm/NcZarrIosp.class") != null);
            assertTrue(jar.getEntry("io/nczarr/codec/Codec.class") != null);
            assertTrue(jar.getEntry("io/nczarr/raf/BlockCacheRandomAccessFile.class") != null);
        }
    }

    @Test
    void clashingLibrariesAreRelocated() throws Exception {
        try (JarFile jar = new JarFile(System.getProperty("shaded.jar"))) {
            assertTrue(jar.stream().anyMatch(e -> e.getName().startsWith("io/nczarr/shaded/jackson/")));
            assertFalse(jar.stream().anyMatch(e -> e.getName().startsWith("com/fasterxml/")));
            assertFalse(jar.stream().anyMatch(e -> e.getName().startsWith("ucar/")), "cdm must not be inside");
            String services =
                    new String(jar.getInputStream(jar.getEntry("META-INF/services/ucar.nc2.iosp.IOServiceProvider"))
                            .readAllBytes());
            assertTrue(services.contains("io.nczarr.cdm.NcZarrIosp"), services);
        }
    }
}
