package importer

import "bytes"

// mentions reports whether a JSON line may hold an object key that
// encoding/json would match with key (ASCII lower case), so that a line
// that cannot is not decoded to look for it. encoding/json matches keys
// ignoring case, by Unicode simple folding (the Kelvin sign folds to k,
// the long s to s), and reads escapes in them: a line with any of those
// is assumed to hold the key.
func mentions(line []byte, key string) bool {
	if bytes.Contains(line, []byte(`\u`)) || bytes.Contains(line, []byte("\u212a")) || bytes.Contains(line, []byte("\u017f")) {
		return true
	}
	n := len(key)
	for i := 0; i+n <= len(line); i++ {
		if lowerASCII(line[i]) != key[0] {
			continue
		}
		j := 1
		for j < n && lowerASCII(line[i+j]) == key[j] {
			j++
		}
		if j == n {
			return true
		}
	}
	return false
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
