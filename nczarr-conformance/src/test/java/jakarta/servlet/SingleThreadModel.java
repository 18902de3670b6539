package jakarta.servlet;

/**
 * Test classpath only: the test kit's S3Proxy needs the Servlet 6 API, which dropped this (empty, deprecated)
 * Servlet 5 marker interface that Spark 4.0's Jetty still loads when a SparkContext starts. On a cluster,
 * Spark brings its own Servlet 5 API.
 */
public interface SingleThreadModel {}
