package io.nczarr.s3;

import java.io.ByteArrayInputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * One page of a ListObjectsV2 answer: the object keys, the common prefixes, whether more pages follow and the
 * token for the next. {@link #parse} reads it from the {@code ListBucketResult} XML for {@link DirectGets}
 * (the XML comes from the server the user configured, but is still read without DTDs or external entities,
 * within a bounded size, by the JDK's own StAX parser); {@link #of} takes it from the SDK's answer.
 */
record ListPages(List<String> keys, List<String> prefixes, boolean truncated, String nextToken) {

    /** A page of 1000 keys of at most 1024 bytes each, XML-escaped, with sizes, tags and dates is far smaller. */
    static final int MAX_PAGE_BYTES = 16 * 1024 * 1024;

    /** A factory per page: the StAX API does not promise that one may be shared between threads. */
    private static XMLInputFactory factory() {
        XMLInputFactory f = XMLInputFactory.newDefaultFactory();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, true);
        f.setProperty(XMLInputFactory.IS_COALESCING, true);
        return f;
    }

    /** The page of the SDK's answer. */
    static ListPages of(ListObjectsV2Response r) {
        return new ListPages(
                r.contents().stream().map(S3Object::key).toList(),
                r.commonPrefixes().stream().map(CommonPrefix::prefix).toList(),
                Boolean.TRUE.equals(r.isTruncated()),
                r.nextContinuationToken());
    }

    /** The page in {@code xml}; anything but a ListBucketResult is an {@link SdkClientException}. */
    static ListPages parse(byte[] xml) {
        List<String> keys = new ArrayList<>();
        List<String> prefixes = new ArrayList<>();
        boolean truncated = false;
        String token = null;
        Deque<String> path = new ArrayDeque<>();
        String key = null;
        try {
            XMLStreamReader r = factory().createXMLStreamReader(new ByteArrayInputStream(xml));
            try {
                while (r.hasNext()) {
                    int event = r.next();
                    if (event == XMLStreamConstants.START_ELEMENT) {
                        String name = r.getLocalName();
                        if (path.isEmpty() && !name.equals("ListBucketResult")) {
                            throw malformed("the answer is a " + name + ", not a ListBucketResult");
                        }
                        String parent = path.peek();
                        path.push(name);
                        if (path.size() == 3 && "Contents".equals(parent) && name.equals("Key")) {
                            key = r.getElementText();
                            path.pop();
                        } else if (path.size() == 3 && "CommonPrefixes".equals(parent) && name.equals("Prefix")) {
                            prefixes.add(r.getElementText());
                            path.pop();
                        } else if (path.size() == 2 && name.equals("IsTruncated")) {
                            truncated = Boolean.parseBoolean(r.getElementText().trim());
                            path.pop();
                        } else if (path.size() == 2 && name.equals("NextContinuationToken")) {
                            token = r.getElementText();
                            path.pop();
                        }
                    } else if (event == XMLStreamConstants.END_ELEMENT) {
                        String name = path.pop();
                        if (path.size() == 1 && name.equals("Contents")) {
                            if (key == null) {
                                throw malformed("an entry of Contents has no Key");
                            }
                            keys.add(key);
                            key = null;
                        }
                    }
                }
            } finally {
                r.close();
            }
        } catch (XMLStreamException e) {
            throw malformed("not well-formed XML: " + e.getMessage());
        }
        return new ListPages(keys, prefixes, truncated, token);
    }

    private static SdkClientException malformed(String what) {
        return SdkClientException.create("malformed LIST answer: " + what);
    }
}
