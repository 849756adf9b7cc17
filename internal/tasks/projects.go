package tasks

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"

	"annotate/internal/domain"
)

// CreateProject adds a project. A taken slug is an EConflict error.
func (s *Store) CreateProject(ctx context.Context, p domain.Project) (*domain.Project, error) {
	if err := domain.ValidateSlug(p.Slug); err != nil {
		return nil, domain.Op("Store.CreateProject", err)
	}
	if p.Name == "" {
		p.Name = p.Slug
	}
	if err := domain.CheckText("project name", p.Name, domain.MaxNameLen, false); err != nil {
		return nil, domain.Op("Store.CreateProject", err)
	}
	if err := domain.CheckText("project description", p.Description, domain.MaxShortTextLen, true); err != nil {
		return nil, domain.Op("Store.CreateProject", err)
	}
	if err := domain.CheckText("guidelines", p.Guidelines, domain.MaxGuidelinesLen, true); err != nil {
		return nil, domain.Op("Store.CreateProject", err)
	}
	if err := p.Settings.Validate(); err != nil {
		return nil, domain.Op("Store.CreateProject", err)
	}
	settings, err := json.Marshal(p.Settings)
	if err != nil {
		return nil, domain.Op("Store.CreateProject", err)
	}
	err = s.tx(ctx, func(tx *sql.Tx) error {
		_, err := insertProject(ctx, tx, p, settings)
		return err
	})
	if err != nil {
		return nil, domain.Op("Store.CreateProject", err)
	}
	val, err := s.ProjectBySlug(ctx, p.Slug)
	return val, domain.Op("Store.CreateProject", err)
}

// insertProject adds a checked project in a transaction.
func insertProject(ctx context.Context, tx *sql.Tx, p domain.Project, settings []byte) (int64, error) {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM projects WHERE slug = ?`, p.Slug).Scan(&n); err != nil {
		return 0, err
	}
	if n > 0 {
		return 0, domain.Errorf(domain.EConflict, "project %q already exists", p.Slug)
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO projects (slug, name, description, settings, guidelines) VALUES (?, ?, ?, ?, ?)`,
		p.Slug, p.Name, p.Description, settings, p.Guidelines)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

const projectColumns = `id, slug, name, description, settings, guidelines, created_at`

func scanProject(row interface{ Scan(...any) error }) (*domain.Project, error) {
	var p domain.Project
	var settings string
	err := row.Scan(&p.ID, &p.Slug, &p.Name, &p.Description, &settings, &p.Guidelines, &p.CreatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, domain.Errorf(domain.ENotFound, "project not found")
	}
	if err != nil {
		return nil, err
	}
	p.Settings, err = decodeSettings(settings)
	return &p, err
}

// ProjectBySlug returns the project with the given slug.
func (s *Store) ProjectBySlug(ctx context.Context, slug string) (*domain.Project, error) {
	val, err := scanProject(s.queryRow(ctx, `SELECT `+projectColumns+` FROM projects WHERE slug = ?`, slug))
	return val, domain.Op("Store.ProjectBySlug", err)
}

// ProjectsFor lists the projects a user may open: all of them for an
// admin, else those the user is a member of.
func (s *Store) ProjectsFor(ctx context.Context, u *domain.User) ([]domain.ProjectWithRole, error) {
	rows, err := s.query(ctx, `
		SELECT p.id, p.slug, p.name, p.description, p.settings, p.guidelines, p.created_at, coalesce(m.role, '')
		FROM projects p LEFT JOIN memberships m ON m.project_id = p.id AND m.user_id = ?
		WHERE m.user_id IS NOT NULL OR ?
		ORDER BY p.name`, u.ID, u.IsAdmin)
	if err != nil {
		return nil, domain.Op("Store.ProjectsFor", err)
	}
	defer rows.Close()
	var out []domain.ProjectWithRole
	for rows.Next() {
		var p domain.ProjectWithRole
		var settings string
		if err := rows.Scan(&p.ID, &p.Slug, &p.Name, &p.Description, &settings, &p.Guidelines, &p.CreatedAt, &p.Role); err != nil {
			return nil, domain.Op("Store.ProjectsFor", err)
		}
		if p.Settings, err = decodeSettings(settings); err != nil {
			return nil, domain.Op("Store.ProjectsFor", err)
		}
		out = append(out, p)
	}
	return out, domain.Op("Store.ProjectsFor", rows.Err())
}

// SetMember gives a user a role in a project, replacing any earlier role.
func (s *Store) SetMember(ctx context.Context, projectID, userID int64, role string) error {
	switch role {
	case domain.RoleLead, domain.RoleAdjudicator, domain.RoleAnnotator:
	default:
		return domain.Errorf(domain.EInvalid, "unknown role %q (lead, adjudicator or annotator)", role)
	}
	return domain.Op("Store.SetMember", s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO memberships (project_id, user_id, role) VALUES (?, ?, ?)
			ON CONFLICT (project_id, user_id) DO UPDATE SET role = excluded.role`, projectID, userID, role)
		return err
	}))
}

// Role returns a user's role in a project, or "" when not a member.
func (s *Store) Role(ctx context.Context, projectID, userID int64) (string, error) {
	var role string
	err := s.queryRow(ctx, `SELECT role FROM memberships WHERE project_id = ? AND user_id = ?`, projectID, userID).Scan(&role)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return role, domain.Op("Store.Role", err)
}

// Members lists a project's members by role, then username.
func (s *Store) Members(ctx context.Context, projectID int64) ([]domain.Member, error) {
	rows, err := s.query(ctx, `
		SELECT u.id, u.username, u.display_name, u.is_admin, u.disabled, u.created_at, m.role
		FROM memberships m JOIN users u ON u.id = m.user_id
		WHERE m.project_id = ? ORDER BY m.role, u.username`, projectID)
	if err != nil {
		return nil, domain.Op("Store.Members", err)
	}
	defer rows.Close()
	var out []domain.Member
	for rows.Next() {
		var m domain.Member
		if err := rows.Scan(&m.ID, &m.Username, &m.DisplayName, &m.IsAdmin, &m.Disabled, &m.CreatedAt, &m.Role); err != nil {
			return nil, domain.Op("Store.Members", err)
		}
		out = append(out, m)
	}
	return out, domain.Op("Store.Members", rows.Err())
}

// ProjectByID returns the project with the given id.
func (s *Store) ProjectByID(ctx context.Context, id int64) (*domain.Project, error) {
	val, err := scanProject(s.queryRow(ctx, `SELECT `+projectColumns+` FROM projects WHERE id = ?`, id))
	return val, domain.Op("Store.ProjectByID", err)
}
