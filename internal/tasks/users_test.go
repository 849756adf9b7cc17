package tasks_test

import (
	"context"
	"errors"
	"testing"

	"annotate/internal/domain"
)

func TestUsers(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	if _, err := s.CreateUser(ctx, "ana", "Ana", "a long enough password", false); err != nil {
		t.Fatal(err)
	}
	t.Run("duplicate name is a conflict", func(t *testing.T) {
		_, err := s.CreateUser(ctx, "ANA", "", "another long password", false)
		if domain.ErrorCode(err) != domain.EConflict {
			t.Fatalf("err = %v, want conflict", err)
		}
	})
	t.Run("short password is invalid", func(t *testing.T) {
		_, err := s.CreateUser(ctx, "bo", "", "short", false)
		if domain.ErrorCode(err) != domain.EInvalid {
			t.Fatalf("err = %v, want invalid", err)
		}
	})
	t.Run("bad username is invalid", func(t *testing.T) {
		_, err := s.CreateUser(ctx, "a b", "", "a long enough password", false)
		if domain.ErrorCode(err) != domain.EInvalid {
			t.Fatalf("err = %v, want invalid", err)
		}
	})
	t.Run("authenticate", func(t *testing.T) {
		u, err := s.Authenticate(ctx, "ana", "a long enough password")
		if err != nil || u.Username != "ana" || u.DisplayName != "Ana" {
			t.Fatalf("Authenticate = %+v, %v", u, err)
		}
		for _, tc := range []struct{ name, user, pw string }{
			{"wrong password", "ana", "a long enough passwore"},
			{"unknown user", "nobody", "a long enough password"},
		} {
			if _, err := s.Authenticate(ctx, tc.user, tc.pw); !errors.Is(err, domain.ErrBadCredentials) {
				t.Errorf("%s: err = %v, want bad credentials", tc.name, err)
			}
		}
	})
	t.Run("set password and disable", func(t *testing.T) {
		if err := s.SetPassword(ctx, "ana", "a brand new password"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Authenticate(ctx, "ana", "a long enough password"); err == nil {
			t.Fatal("old password still works")
		}
		if _, err := s.Authenticate(ctx, "ana", "a brand new password"); err != nil {
			t.Fatal(err)
		}
		if err := s.SetDisabled(ctx, "ana", true); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Authenticate(ctx, "ana", "a brand new password"); err == nil {
			t.Fatal("disabled account can log in")
		}
		if err := s.SetPassword(ctx, "ghost", "a brand new password"); domain.ErrorCode(err) != domain.ENotFound {
			t.Fatalf("SetPassword(ghost) = %v, want not found", err)
		}
	})
}

func TestProjectsForShowsOnlyMemberships(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	ann, _ := s.CreateUser(ctx, "ann", "", "a long enough password", false)
	adm, _ := s.CreateUser(ctx, "root", "", "a long enough password", true)
	p1, err := s.CreateProject(ctx, domain.Project{Slug: "one", Name: "One", Settings: domain.DefaultSettings()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateProject(ctx, domain.Project{Slug: "two", Settings: domain.DefaultSettings()}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateProject(ctx, domain.Project{Slug: "one", Settings: domain.DefaultSettings()}); domain.ErrorCode(err) != domain.EConflict {
		t.Fatalf("duplicate slug: %v", err)
	}
	if _, err := s.CreateProject(ctx, domain.Project{Slug: "Bad Slug", Settings: domain.DefaultSettings()}); domain.ErrorCode(err) != domain.EInvalid {
		t.Fatalf("bad slug: %v", err)
	}
	if err := s.SetMember(ctx, p1.ID, ann.ID, domain.RoleAnnotator); err != nil {
		t.Fatal(err)
	}
	got, err := s.ProjectsFor(ctx, ann)
	if err != nil || len(got) != 1 || got[0].Slug != "one" || got[0].Role != domain.RoleAnnotator {
		t.Fatalf("ProjectsFor(annotator) = %+v, %v", got, err)
	}
	all, _ := s.ProjectsFor(ctx, adm)
	if len(all) != 2 {
		t.Fatalf("admin sees %d projects, want 2", len(all))
	}
	if err := s.SetMember(ctx, p1.ID, ann.ID, "owner"); domain.ErrorCode(err) != domain.EInvalid {
		t.Fatalf("unknown role: %v", err)
	}
}
