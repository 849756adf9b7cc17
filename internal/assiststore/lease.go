package assiststore

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// ownerRuns reports whether the process a lease names may still run: any
// process of another machine, and a process of this one that exists.
func ownerRuns(owner string) bool {
	parts := strings.Split(owner, "/")
	if len(parts) != 3 {
		return false
	}
	if host, _ := os.Hostname(); parts[0] != host {
		return true
	}
	pid, err := strconv.Atoi(parts[1])
	if err != nil || pid <= 0 {
		return false
	}
	p, err := os.FindProcess(pid)
	return err == nil && p.Signal(syscall.Signal(0)) == nil
}
