package io.nczarr.testkit.s3;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.domain.MultipartUpload;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CopyObjectResponse;
import software.amazon.awssdk.services.s3.model.CreateBucketRequest;
import software.amazon.awssdk.services.s3.model.CreateBucketResponse;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadBucketRequest;
import software.amazon.awssdk.services.s3.model.HeadBucketResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListBucketsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;
import software.amazon.awssdk.services.s3.model.Part;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * The blob store of {@code nczarr serve}: an allow-list, not a deny-list. Only reads are passed to the
 * file-system store (GET and HEAD of an object, HEAD of the bucket, the bucket list) and the object listing is
 * made here; every other operation, present or added to S3Proxy later as an abstract method, is refused with
 * 403 {@code AccessDenied} (methods S3Proxy gives a default for build on these, or answer "not implemented").
 * An object is served or listed only when it is a regular file whose real path (links resolved) is inside the
 * directory: links out, FIFOs, devices and sockets are neither listed nor served, and nothing opens them (the
 * listing reads attributes, never contents).
 */
final class ReadOnlyDirectory implements BlobStore {
    private final BlobStore files;
    private final String bucket;
    private final Path dir;

    /**
     * @param files the file-system store whose bucket {@code bucket} is {@code dir}
     * @param dir the served directory, its real path
     */
    ReadOnlyDirectory(BlobStore files, String bucket, Path dir) {
        this.files = files;
        this.bucket = bucket;
        this.dir = dir;
    }

    static S3Exception error(int status, String code, String message) {
        return (S3Exception) S3Exception.builder()
                .statusCode(status)
                .message(message)
                .awsErrorDetails(AwsErrorDetails.builder()
                        .errorCode(code)
                        .errorMessage(message)
                        .build())
                .build();
    }

    private static S3Exception refused() {
        return error(403, "AccessDenied", "nczarr serve is read-only");
    }

    /** The file of {@code key} when it may be served; else a 404 (never says why: outside or not regular). */
    private Path object(String b, String key) {
        if (!bucket.equals(b) || key == null || key.isEmpty() || key.startsWith("/")) {
            throw error(404, "NoSuchKey", "no such key");
        }
        Path p = dir.resolve(key).normalize();
        if (!p.startsWith(dir) || !servable(p)) {
            throw error(404, "NoSuchKey", "no such key");
        }
        return p;
    }

    /** A regular file inside the directory, links resolved; read from attributes only. */
    private boolean servable(Path p) {
        try {
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
            return a.isRegularFile() && p.toRealPath().startsWith(dir);
        } catch (IOException e) {
            return false;
        }
    }

    private boolean listableDirectory(Path p) {
        try {
            return Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)
                    && p.toRealPath().startsWith(dir);
        } catch (IOException e) {
            return false;
        }
    }

    // reads ----------------------------------------------------------------------------------------

    @Override
    public ListBucketsResponse list() {
        return files.list();
    }

    @Override
    public HeadBucketResponse headBucket(HeadBucketRequest request) {
        return files.headBucket(request);
    }

    @Override
    public HeadObjectResponse blobMetadata(HeadObjectRequest request) {
        object(request.bucket(), request.key());
        return files.blobMetadata(request);
    }

    @Override
    public ResponseInputStream<GetObjectResponse> getBlob(GetObjectRequest request) {
        object(request.bucket(), request.key());
        return files.getBlob(request);
    }

    @Override
    public ListObjectsV2Response list(ListObjectsV2Request request) {
        if (!bucket.equals(request.bucket())) {
            throw error(404, "NoSuchBucket", "no such bucket");
        }
        String prefix = request.prefix() == null ? "" : request.prefix();
        String delimiter = request.delimiter() == null || request.delimiter().isEmpty() ? null : request.delimiter();
        int max = request.maxKeys() == null ? 1000 : Math.max(0, Math.min(1000, request.maxKeys()));
        String after = request.continuationToken() != null ? request.continuationToken() : request.startAfter();
        String base = prefix.contains("/") ? prefix.substring(0, prefix.lastIndexOf('/') + 1) : "";
        Path start = dir.resolve(base).normalize();
        // key -> object, or null for a common prefix
        TreeMap<String, S3Object> entries = new TreeMap<>();
        if (start.startsWith(dir) && listableDirectory(start)) {
            if ("/".equals(delimiter)) {
                listOneLevel(start, base, prefix, entries);
            } else {
                walk(start, prefix, delimiter, entries);
            }
        }
        List<S3Object> contents = new ArrayList<>();
        List<CommonPrefix> prefixes = new ArrayList<>();
        String last = null;
        boolean truncated = false;
        for (Map.Entry<String, S3Object> e : entries.entrySet()) {
            if (after != null && e.getKey().compareTo(after) <= 0) {
                continue;
            }
            if (contents.size() + prefixes.size() >= max) {
                truncated = true;
                break;
            }
            if (e.getValue() == null) {
                prefixes.add(CommonPrefix.builder().prefix(e.getKey()).build());
            } else {
                contents.add(e.getValue());
            }
            last = e.getKey();
        }
        return ListObjectsV2Response.builder()
                .name(bucket)
                .prefix(prefix)
                .delimiter(delimiter)
                .maxKeys(max)
                .keyCount(contents.size() + prefixes.size())
                .contents(contents)
                .commonPrefixes(prefixes)
                .isTruncated(truncated)
                .nextContinuationToken(truncated ? last : null)
                .continuationToken(request.continuationToken())
                .startAfter(request.startAfter())
                .build();
    }

    private void listOneLevel(Path start, String base, String prefix, TreeMap<String, S3Object> entries) {
        try (DirectoryStream<Path> s = Files.newDirectoryStream(start)) {
            for (Path p : s) {
                String key = base + p.getFileName();
                if (!key.startsWith(prefix)) {
                    continue;
                }
                if (listableDirectory(p)) {
                    entries.put(key + "/", null);
                } else {
                    add(p, key, entries);
                }
            }
        } catch (IOException e) {
            throw error(500, "InternalError", "cannot list the directory");
        }
    }

    private void walk(Path start, String prefix, String delimiter, TreeMap<String, S3Object> entries) {
        try {
            Files.walkFileTree(start, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
                    return d.equals(start) || listableDirectory(d)
                            ? FileVisitResult.CONTINUE
                            : FileVisitResult.SKIP_SUBTREE;
                }

                @Override
                public FileVisitResult visitFile(Path p, BasicFileAttributes attrs) {
                    String key = dir.relativize(p)
                            .toString()
                            .replace(p.getFileSystem().getSeparator(), "/");
                    if (!key.startsWith(prefix)) {
                        return FileVisitResult.CONTINUE;
                    }
                    int d = delimiter == null ? -1 : key.indexOf(delimiter, prefix.length());
                    if (d >= 0) {
                        if (servable(p)) {
                            entries.put(key.substring(0, d + delimiter.length()), null);
                        }
                    } else {
                        add(p, key, entries);
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path p, IOException e) {
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw error(500, "InternalError", "cannot list the directory");
        }
    }

    private void add(Path p, String key, TreeMap<String, S3Object> entries) {
        if (!servable(p)) {
            return;
        }
        try {
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
            entries.put(
                    key,
                    S3Object.builder()
                            .key(key)
                            .size(a.size())
                            .lastModified(a.lastModifiedTime().toInstant())
                            .eTag("\""
                                    + Long.toHexString(
                                            a.size() * 31 + a.lastModifiedTime().toMillis()) + "\"")
                            .storageClass("STANDARD")
                            .build());
        } catch (IOException e) {
            // vanished while listing
        }
    }

    @Override
    public List<software.amazon.awssdk.services.s3.model.MultipartUpload> listMultipartUploads(String container) {
        return List.of();
    }

    @Override
    public List<Part> listMultipartUpload(MultipartUpload upload) {
        throw refused();
    }

    @Override
    public long getMinimumMultipartPartSize() {
        return files.getMinimumMultipartPartSize();
    }

    // everything else is refused ---------------------------------------------------------------------

    @Override
    public CreateBucketResponse createContainer(CreateBucketRequest request) {
        throw refused();
    }

    @Override
    public BucketCannedACL getContainerAccess(String container) {
        throw refused();
    }

    @Override
    public void setContainerAccess(String container, BucketCannedACL access) {
        throw refused();
    }

    @Override
    public void deleteBucket(String container) {
        throw refused();
    }

    @Override
    public PutObjectResponse putBlob(PutObjectRequest request, InputStream in) {
        throw refused();
    }

    @Override
    public CopyObjectResponse copyBlob(CopyObjectRequest request) {
        throw refused();
    }

    @Override
    public DeleteObjectResponse removeBlob(DeleteObjectRequest request) {
        throw refused();
    }

    @Override
    public ObjectCannedACL getBlobAccess(String container, String name) {
        throw refused();
    }

    @Override
    public void setBlobAccess(String container, String name, ObjectCannedACL access) {
        throw refused();
    }

    @Override
    public MultipartUpload initiateMultipartUpload(
            software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest request) {
        throw refused();
    }

    @Override
    public void abortMultipartUpload(MultipartUpload upload) {
        throw refused();
    }

    @Override
    public CompleteMultipartUploadResponse completeMultipartUpload(
            MultipartUpload upload, CompleteMultipartUploadRequest request) {
        throw refused();
    }

    @Override
    public UploadPartResponse uploadMultipartPart(MultipartUpload upload, UploadPartRequest request, InputStream in) {
        throw refused();
    }

    @Override
    public void close() {
        files.close();
    }
}
