// Package netguard keeps the requests the server makes on its users'
// behalf (webhook deliveries) away from the server's own network: no
// loopback, private, link-local, unique-local, multicast or unspecified
// address, IPv4-mapped IPv6 included, unless an administrator allowed the
// host by name. Addresses are checked where the connection is made, after
// the name is resolved, so a name that resolves to an internal address
// (or starts to, between registration and delivery) is refused too; the
// checked address is the one dialled, so a second lookup cannot swap it.
package netguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// ErrInternal is returned for a host whose address is internal and not
// allowed.
var ErrInternal = errors.New("the address is on the server's own network, which webhooks may not reach")

// Policy says which internal hosts may be reached anyway.
type Policy struct {
	allow map[string]bool
}

// NewPolicy allows the named hosts (names or addresses, as written in a
// URL's host) even when they resolve to internal addresses.
func NewPolicy(hosts []string) Policy {
	p := Policy{allow: map[string]bool{}}
	for _, h := range hosts {
		if h = normalHost(h); h != "" {
			p.allow[h] = true
		}
	}
	return p
}

// Allowed reports whether a host was allowed by name.
func (p Policy) Allowed(host string) bool { return p.allow[normalHost(host)] }

func normalHost(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	return strings.TrimSuffix(h, ".")
}

// reserved are ranges that are internal or never a public receiver but
// that netip's predicates do not cover.
var reserved = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),   // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, and broadcast
	netip.MustParsePrefix("64:ff9b::/96"),    // NAT64, which embeds IPv4
	netip.MustParsePrefix("64:ff9b:1::/48"),  // local-use NAT64
	netip.MustParsePrefix("2002::/16"),       // 6to4, which embeds IPv4
	netip.MustParsePrefix("fec0::/10"),       // deprecated site-local
	netip.MustParsePrefix("100::/64"),        // discard-only
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation
	netip.MustParsePrefix("198.51.100.0/24"), // documentation
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation
}

// Internal reports whether an address must not be reached for a user:
// loopback, private (RFC 1918, unique-local), link-local (cloud metadata
// services live there), multicast, unspecified, or reserved. IPv4-mapped
// IPv6 addresses are judged as the IPv4 address they carry.
func Internal(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() {
		return true
	}
	for _, p := range reserved {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// CheckURL refuses, at registration, a URL whose host is written as an
// internal address or is localhost, unless the host is allowed. Names
// are checked again, resolved, at each delivery.
func (p Policy) CheckURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return err
	}
	host := normalHost(u.Hostname())
	if p.allow[host] {
		return nil
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return fmt.Errorf("%s names this machine; webhooks may only reach other hosts", u.Hostname())
	}
	if ip, err := netip.ParseAddr(host); err == nil && Internal(ip) {
		return fmt.Errorf("%s is an address on the server's own network (loopback, private, link-local or reserved); webhooks may only reach public hosts", u.Hostname())
	}
	if ip, ok := legacyIPv4(host); ok && Internal(ip) {
		return fmt.Errorf("%s is an address on the server's own network, written in a short or numeric form; webhooks may only reach public hosts", u.Hostname())
	}
	return nil
}

// legacyIPv4 reads the forms inet_aton accepts for an IPv4 address (one
// to four parts, each decimal, octal with a leading 0, or hexadecimal
// with 0x, the last filling the remaining bytes, as in 2130706433 or
// 0x7f.1), so that they cannot hide 127.0.0.1 at registration. The dial
// check would catch them anyway.
func legacyIPv4(host string) (netip.Addr, bool) {
	parts := strings.Split(host, ".")
	if len(parts) > 4 || host == "" {
		return netip.Addr{}, false
	}
	vals := make([]uint64, len(parts))
	for i, part := range parts {
		v, err := strconv.ParseUint(part, 0, 32)
		if err != nil {
			return netip.Addr{}, false
		}
		vals[i] = v
	}
	var n uint64
	for i, v := range vals[:len(vals)-1] {
		if v > 255 {
			return netip.Addr{}, false
		}
		n |= v << (24 - 8*i)
	}
	last := vals[len(vals)-1]
	if last >= 1<<(8*(5-len(vals))) {
		return netip.Addr{}, false
	}
	n |= last
	return netip.AddrFrom4([4]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}), true
}

// Resolver looks up a host's addresses; net.DefaultResolver by default.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Dialer dials only addresses the policy allows.
type Dialer struct {
	Policy   Policy
	Resolver Resolver
	Dialer   net.Dialer
}

// DialContext resolves the host, refuses it when any of its addresses is
// internal (and the host is not allowed), and dials the checked addresses
// themselves, in order, until one answers.
func (d *Dialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	var ips []netip.Addr
	if ip, err := netip.ParseAddr(normalHost(host)); err == nil {
		ips = []netip.Addr{ip}
	} else {
		r := d.Resolver
		if r == nil {
			r = net.DefaultResolver
		}
		if ips, err = r.LookupNetIP(ctx, "ip", host); err != nil {
			return nil, err
		}
	}
	if !d.Policy.Allowed(host) {
		for _, ip := range ips {
			if Internal(ip) {
				return nil, ErrInternal
			}
		}
	}
	var first error
	for _, ip := range ips {
		c, err := d.Dialer.DialContext(ctx, network, net.JoinHostPort(ip.Unmap().String(), port))
		if err == nil {
			return c, nil
		}
		if first == nil {
			first = err
		}
	}
	if first == nil {
		first = &net.DNSError{Err: "no addresses", Name: host, IsNotFound: true}
	}
	return nil, first
}

// Describe says why a request failed in words a lead can act on, without
// the addresses, resolver or ports the raw error names (a port scan must
// not be readable from the deliveries list).
func Describe(err error) string {
	var dns *net.DNSError
	switch {
	case err == nil:
		return ""
	case errors.Is(err, ErrInternal):
		return ErrInternal.Error()
	case errors.As(err, &dns):
		return "the host name could not be resolved"
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded), isTimeout(err):
		return "the receiver did not answer in time"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "the receiver refused the connection"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return "the receiver closed the connection"
	case errors.Is(err, syscall.ENETUNREACH), errors.Is(err, syscall.EHOSTUNREACH):
		return "the receiver's network cannot be reached"
	case strings.Contains(err.Error(), "tls:") || strings.Contains(err.Error(), "x509:"):
		return "the TLS handshake with the receiver failed"
	}
	return "the request could not be sent"
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}
