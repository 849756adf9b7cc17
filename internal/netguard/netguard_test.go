package netguard

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strings"
	"testing"
)

func TestInternal(t *testing.T) {
	for _, tc := range []struct {
		ip   string
		want bool
	}{
		{"127.0.0.1", true}, {"127.8.9.10", true}, {"::1", true}, {"0.0.0.0", true}, {"::", true},
		{"10.0.0.1", true}, {"172.16.5.4", true}, {"192.168.1.1", true}, {"169.254.169.254", true},
		{"fe80::1", true}, {"fd00::1", true}, {"224.0.0.1", true}, {"ff02::1", true}, {"100.64.0.1", true},
		{"::ffff:127.0.0.1", true}, {"::ffff:10.1.2.3", true}, {"::ffff:169.254.169.254", true}, {"255.255.255.255", true},
		{"64:ff9b::7f00:1", true},
		{"8.8.8.8", false}, {"1.1.1.1", false}, {"2606:4700:4700::1111", false}, {"::ffff:8.8.8.8", false},
	} {
		if got := Internal(netip.MustParseAddr(tc.ip)); got != tc.want {
			t.Errorf("Internal(%s) = %v, want %v", tc.ip, got, tc.want)
		}
	}
}

func TestCheckURL(t *testing.T) {
	p := NewPolicy([]string{"hooks.internal.example", "10.9.9.9"})
	for _, raw := range []string{"http://127.0.0.1:9/x", "http://[::1]/", "http://localhost:8080/", "http://LOCALHOST./",
		"http://api.localhost/", "http://0.0.0.0/", "http://169.254.169.254/latest/meta-data", "http://10.0.0.1/",
		"http://[::ffff:127.0.0.1]/", "http://[fd12::1]/", "http://2130706433/", "http://0x7f.1/", "http://017700000001/"} {
		if err := p.CheckURL(raw); err == nil {
			t.Errorf("%s accepted", raw)
		}
	}
	for _, raw := range []string{"https://hooks.example.org/annotate", "http://8.8.8.8/", "http://hooks.internal.example/",
		"http://10.9.9.9:8080/x", "https://example.com:8443/a"} {
		if err := p.CheckURL(raw); err != nil {
			t.Errorf("%s refused: %v", raw, err)
		}
	}
}

// fakeResolver answers every name with the given addresses.
type fakeResolver []netip.Addr

func (f fakeResolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	if len(f) == 0 {
		return nil, &net.DNSError{Err: "no such host", Name: "x", IsNotFound: true, Server: "10.0.0.53:53"}
	}
	return f, nil
}

// TestDialRefusesInternalAfterResolving: a public-looking name that
// resolves to an internal address (or to one among public ones) is refused
// when the connection is made, unless the host is allowed by name.
func TestDialRefusesInternalAfterResolving(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	loop := fakeResolver{netip.MustParseAddr("8.8.8.8"), netip.MustParseAddr("127.0.0.1")}
	d := &Dialer{Resolver: loop}
	if _, err := d.DialContext(context.Background(), "tcp", "rebind.example:"+port); !errors.Is(err, ErrInternal) {
		t.Fatalf("a name resolving to loopback: %v", err)
	}
	if _, err := d.DialContext(context.Background(), "tcp", "[::ffff:127.0.0.1]:"+port); !errors.Is(err, ErrInternal) {
		t.Fatalf("an IPv4-mapped loopback literal: %v", err)
	}
	allowed := &Dialer{Policy: NewPolicy([]string{"rebind.example"}), Resolver: fakeResolver{netip.MustParseAddr("127.0.0.1")}}
	c, err := allowed.DialContext(context.Background(), "tcp", "rebind.example:"+port)
	if err != nil {
		t.Fatalf("an allowed host: %v", err)
	}
	c.Close()
}

// TestDescribeHidesAddresses: what a lead reads names no address, port or
// resolver.
func TestDescribeHidesAddresses(t *testing.T) {
	d := &Dialer{Policy: NewPolicy([]string{"127.0.0.1"}), Resolver: fakeResolver{}}
	_, dnsErr := d.DialContext(context.Background(), "tcp", "nowhere.example:80")
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	_, refused := d.DialContext(context.Background(), "tcp", addr)
	for err, want := range map[error]string{
		dnsErr:      "the host name could not be resolved",
		refused:     "the receiver refused the connection",
		ErrInternal: ErrInternal.Error(),
	} {
		got := Describe(err)
		if got != want {
			t.Errorf("Describe(%v) = %q, want %q", err, got, want)
		}
		if strings.ContainsAny(got, "0123456789:") {
			t.Errorf("%q names an address", got)
		}
	}
}
