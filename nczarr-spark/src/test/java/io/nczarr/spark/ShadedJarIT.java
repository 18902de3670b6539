package io.nczarr.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.testkit.Corpus;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * The shaded jar as {@code --jars} uses it: a JVM with Spark's class path plus the jar (and the one-class
 * main) reads sample.file; the jar holds the core, relocates jackson, and carries no Spark, Scala or test kit.
 */
class ShadedJarIT {

    @Test
    void theShadedJarReadsADatasetInASparkJvm() throws Exception {
        Path jar = Paths.get(System.getProperty("shaded.jar"));
        try (ZipFile z = new ZipFile(jar.toFile())) {
            assertTrue(z.getEntry("io/nczarr/spark/NcZarrDataSource.class") != null);
            assertTrue(z.getEntry("io/nczarr/open/Datasets.class") != null);
            assertTrue(z.getEntry("io/nczarr/shaded/jackson/databind/ObjectMapper.class") != null);
            assertTrue(z.getEntry("com/fasterxml/jackson/databind/ObjectMapper.class") == null);
            assertTrue(z.stream()
                    .noneMatch(e -> e.getName().startsWith("org/apache/spark/")
                            || e.getName().startsWith("scala/")
                            || e.getName().startsWith("io/nczarr/testkit/")));
        }
        String sparkClasspath = Files.readString(Paths.get(System.getProperty("spark.classpath.file")))
                .trim();
        String cp = sparkClasspath + File.pathSeparator + jar + File.pathSeparator + System.getProperty("test.classes");
        String url = Corpus.testDataDir().resolve("sample.file").toUri() + "#mode=nczarr,file";
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx512m");
        for (String opt : System.getProperty("spark.jvm.options").trim().split("\\s+")) {
            cmd.add(opt);
        }
        cmd.add("-cp");
        cmd.add(cp);
        cmd.add(ShadedJarMain.class.getName());
        cmd.add(url);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        String text = new String(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), text);
        // one time step: 15 points, one temp fill, precip 702+580+...: see SampleReadTest
        assertTrue(text.contains("RESULT 15 14 "), text);
    }
}
