package web

import "net/netip"

// clientKey is the key under which limits count a client address. An IPv4
// address counts as itself; an IPv6 address counts as its /64 network,
// since one host or household is routinely given a whole /64 and could
// otherwise draw a fresh budget for every address in it. A value that is
// not an address is kept as given.
func clientKey(address string) string {
	a, err := netip.ParseAddr(address)
	if err != nil {
		return address
	}
	a = a.Unmap()
	if a.Is4() {
		return a.String()
	}
	p, err := a.WithZone("").Prefix(64)
	if err != nil {
		return address
	}
	return p.String()
}
