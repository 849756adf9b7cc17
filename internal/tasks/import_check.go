package tasks

import "errors"

// errCheckOnly rolls back the transaction of an import made with DryRun.
var errCheckOnly = errors.New("check only")
