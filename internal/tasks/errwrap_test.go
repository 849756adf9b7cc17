package tasks_test

import (
	"context"
	"database/sql"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"annotate/internal/domain"
	"annotate/internal/tasks"
)

// TestExportedErrorsNameTheirOperation reads the store's source and fails
// on any return, in an exported function or method of an exported type,
// that hands its caller an error without passing it through Op (or making
// a new domain error there): an error leaving the package always says
// which operation failed, so a 500 in the log is never bare SQLite text.
// The same rule holds in the studies store and the application layer.
func TestExportedErrorsNameTheirOperation(t *testing.T) {
	for _, dir := range []string{".", "../domain", "../studies", "../app", "../webhooks", "../assiststore", "../authn"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		checked := 0
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") || filepath.Base(path) == "errors.go" {
				continue
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil || !fd.Name.IsExported() || !returnsError(fd) || !exportedReceiver(fd) {
					continue
				}
				checked++
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					switch x := n.(type) {
					case *ast.FuncLit:
						return false
					case *ast.ReturnStmt:
						if len(x.Results) == 0 || (len(x.Results) == 1 && len(fd.Type.Results.List) > 1) {
							return true
						}
						if e := x.Results[len(x.Results)-1]; !namesOperation(e) {
							t.Errorf("%s: %s returns an error that does not name its operation (pass it through Op)", fset.Position(x.Pos()), fd.Name.Name)
						}
					}
					return true
				})
			}
		}
		if checked < 5 {
			t.Fatalf("%s: only %d exported functions returning an error found; is the directory right?", dir, checked)
		}
	}
}

func returnsError(fd *ast.FuncDecl) bool {
	if fd.Type.Results == nil {
		return false
	}
	res := fd.Type.Results.List
	id, ok := res[len(res)-1].Type.(*ast.Ident)
	return ok && id.Name == "error"
}

func exportedReceiver(fd *ast.FuncDecl) bool {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return true
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	id, ok := t.(*ast.Ident)
	return !ok || id.IsExported()
}

// namesOperation: nil, a new error made on the spot, or an error passed
// through Op.
func namesOperation(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name == "nil"
	case *ast.UnaryExpr, *ast.CompositeLit:
		return true
	case *ast.CallExpr:
		name := ""
		switch f := x.Fun.(type) {
		case *ast.Ident:
			name = f.Name
		case *ast.SelectorExpr:
			name = f.Sel.Name
		}
		return name == "Op" || strings.HasSuffix(name, "Errorf") || name == "New" || name == "Join"
	}
	return false
}

// TestOpKeepsCodesAndCauses checks what passing through Op does: a store
// failure names the operation and keeps its cause, a domain error and its
// code are left as they were.
func TestOpKeepsCodesAndCauses(t *testing.T) {
	ctx := context.Background()
	s, err := tasks.Open(ctx, filepath.Join(t.TempDir(), "op.db"))
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err = s.ProjectBySlug(ctx, "p")
	if err == nil || !strings.HasPrefix(err.Error(), "Store.ProjectBySlug: ") || !errors.Is(err, sql.ErrConnDone) && !strings.Contains(err.Error(), "closed") {
		t.Fatalf("a failure on a closed store: %v; want it to name Store.ProjectBySlug and keep the cause", err)
	}
	if domain.ErrorCode(err) != domain.EInternal || domain.ErrorMessage(err) == err.Error() {
		t.Fatalf("an internal failure: code %q, message %q; want internal and a message that hides it", domain.ErrorCode(err), domain.ErrorMessage(err))
	}
	userErr := domain.Errorf(domain.EConflict, "someone else saved first")
	if got := domain.Op("Store.Save", userErr); got != error(userErr) {
		t.Fatalf("Op changed a domain error: %v", got)
	}
	wrapped := domain.Op("Store.Outer", domain.Op("Store.Inner", sql.ErrNoRows))
	if wrapped.Error() != "Store.Outer: Store.Inner: "+sql.ErrNoRows.Error() || !errors.Is(wrapped, sql.ErrNoRows) {
		t.Fatalf("nested operations: %q", wrapped)
	}
	if domain.Op("x", nil) != nil {
		t.Fatal("Op(nil) is not nil")
	}
}
