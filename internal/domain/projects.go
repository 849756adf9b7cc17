package domain

import (
	"regexp"
	"strconv"
)

// Project roles.
const (
	RoleLead        = "lead"
	RoleAdjudicator = "adjudicator"
	RoleAnnotator   = "annotator"
)

// Project is one annotation project.
type Project struct {
	ID          int64
	Slug        string
	Name        string
	Description string
	Settings    Settings
	Guidelines  string
	CreatedAt   string
}

var slugPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,62}$`)

// ValidateSlug checks a project slug: lower-case letters, digits and dashes.
func ValidateSlug(slug string) error {
	if !slugPattern.MatchString(slug) {
		return Errorf(EInvalid, "project slug %q must be 1 to 63 lower-case letters, digits or dashes, starting with a letter or digit", slug)
	}
	return nil
}

// ProjectWithRole is a project as seen by one user.
type ProjectWithRole struct {
	Project
	Role string // "" for an admin who is not a member
}

// Member is a user with their role in a project.
type Member struct {
	User
	Role string
}

// Pseudonym is how the n-th person of a project (1-based) is named where
// names are hidden: "Annotator 1", "Annotator 2" and so on.
func Pseudonym(n int) string { return "Annotator " + strconv.Itoa(n) }

// Pseudonyms names the people of one project when names are hidden. Those
// who have held an assignment there come first, then the other members and
// whoever decided gold, each group in the order of account ids, so a person
// keeps one pseudonym on every page, report and export of the project.
type Pseudonyms struct {
	byID   map[int64]string
	byName map[string]string
}

// Add names the next person of the project: the pseudonym after those
// already given.
func (p *Pseudonyms) Add(id int64, username string) {
	if p.byID == nil {
		p.byID, p.byName = map[int64]string{}, map[string]string{}
	}
	alias := Pseudonym(len(p.byID) + 1)
	p.byID[id], p.byName[username] = alias, alias
}

// ID returns the pseudonym of a user id, or "" for someone outside the
// project.
func (p Pseudonyms) ID(id int64) string { return p.byID[id] }

// Username returns the pseudonym of a username, or "" for someone outside
// the project.
func (p Pseudonyms) Username(name string) string { return p.byName[name] }
