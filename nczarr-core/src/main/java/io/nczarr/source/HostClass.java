package io.nczarr.source;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What kind of network a host is on, decided before any connection: an IP literal by its address, {@code
 * localhost} by name, any other name by what the system resolver returns for it (every address; the most
 * guarded kind wins). A name that does not resolve is {@link #PUBLIC}: the connection would fail anyway.
 */
public enum HostClass {
    /** Anything else: the internet. */
    PUBLIC,
    /** 10/8, 172.16/12, 192.168/16, 100.64/10 (shared address space). */
    PRIVATE,
    /** 127/8, ::1, 0.0.0.0, ::, {@code localhost}: this machine. */
    LOOPBACK,
    /** 169.254/16, fe80::/10 and the unique-local fc00::/7 (fd00:ec2::254): where cloud metadata services live. */
    LINK_LOCAL;

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    /** The class of {@code host} (a name, an IPv4 literal, an IPv6 literal with or without brackets). */
    public static HostClass of(String host) {
        if (host == null || host.isEmpty()) {
            return PUBLIC;
        }
        String h = host.toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        if (h.endsWith(".")) {
            h = h.substring(0, h.length() - 1);
        }
        if (h.equals("localhost") || h.endsWith(".localhost")) {
            return LOOPBACK;
        }
        InetAddress[] addresses;
        try {
            if (IPV4.matcher(h).matches() || h.contains(":")) {
                addresses = new InetAddress[] {InetAddress.getByName(h)}; // a literal: no lookup
            } else {
                addresses = InetAddress.getAllByName(h);
            }
        } catch (UnknownHostException | SecurityException e) {
            return PUBLIC;
        }
        HostClass worst = PUBLIC;
        for (InetAddress a : addresses) {
            HostClass c = of(a);
            if (c.ordinal() > worst.ordinal()) {
                worst = c;
            }
        }
        return worst;
    }

    /** The class of one address. */
    public static HostClass of(InetAddress a) {
        if (a.isLoopbackAddress() || a.isAnyLocalAddress()) {
            return LOOPBACK;
        }
        byte[] b = a.getAddress();
        if (a.isLinkLocalAddress() || (a instanceof Inet6Address && (b[0] & 0xfe) == 0xfc)) {
            return LINK_LOCAL;
        }
        if (a.isSiteLocalAddress() || (b.length == 4 && (b[0] & 0xff) == 100 && (b[1] & 0xc0) == 64)) {
            return PRIVATE;
        }
        return PUBLIC;
    }

    /** How messages name the class. */
    public String describe() {
        switch (this) {
            case PRIVATE:
                return "a private-network host";
            case LOOPBACK:
                return "a loopback host";
            case LINK_LOCAL:
                return "a link-local (cloud metadata) host";
            default:
                return "a public host";
        }
    }
}
