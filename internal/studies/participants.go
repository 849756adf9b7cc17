package studies

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"

	"annotate/internal/domain"
	"annotate/internal/study"
)

// Phases of a participant, in order; the last two end the study.
const (
	PhaseConsent      = "consent"
	PhaseInstructions = "instructions"
	PhaseScreening    = "screening"
	PhaseTraining     = "training"
	PhaseWork         = "work"
	PhaseSurvey       = "survey"
	PhaseCompleted    = "completed"
	PhaseNoConsent    = "no_consent"
	PhaseScreenedOut  = "screened_out"
)

// Participant is one person who entered a study.
type Participant struct {
	ID, StudyID, UserID int64
	Number              int // order of entry, from 0
	Platform            study.Platform
	// PlatformID is the platform's id of the person: personal data, for
	// the platform's return only, never shown to leads unless asked for.
	PlatformID string
	Refs       study.Entry // the platform's session, assignment and HIT ids
	Condition  string
	Phase      string
	EnteredAt  string
	FinishedAt string
	// Excluded participants' labels are kept but count nowhere; Why says
	// by which rule.
	Excluded bool
	Why      string
	// TimedOut participants reached the study's time limit before
	// finishing their items; the unfinished ones went back to the pool.
	TimedOut bool
}

// ErrFull says a study has as many participants as its cap allows.
var ErrFull = domain.Errorf(domain.EConflict, "this study has all the participants it needs")

// Enter returns the participant the entry names, made on first entry: a
// project annotator with no password (they come back by the same link),
// numbered in order of entry, given a condition by condition(number).
// created says whether the participant is new.
func (s *Store) Enter(ctx context.Context, st *Study, e study.Entry, username string, firstPhase string, condition func(n int) string) (p *Participant, created bool, err error) {
	refs, err := json.Marshal(e)
	if err != nil {
		return nil, false, domain.Op("Store.Enter", err)
	}
	err = s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		var id int64
		var stored string
		err := tx.QueryRowContext(ctx, `SELECT id, platform_refs FROM study_participants WHERE study_id = ? AND platform = ? AND platform_id = ?`,
			st.ID, string(e.Platform), e.ParticipantID).Scan(&id, &stored)
		if err == nil {
			var was study.Entry
			if err := json.Unmarshal([]byte(stored), &was); err != nil {
				return err
			}
			if !sameSession(was, e) {
				return ErrOtherSession
			}
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM study_participants WHERE study_id = ?`, st.ID).Scan(&n); err != nil {
			return err
		}
		if max := st.Definition.MaxParticipants; max > 0 && n >= max {
			return ErrFull
		}
		// No password: an empty hash matches none.
		res, err := tx.ExecContext(ctx, `INSERT INTO users (username, display_name, password_hash) VALUES (?, ?, x'')`, username, "Participant")
		if err != nil {
			return err
		}
		uid, err := res.LastInsertId()
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO memberships (project_id, user_id, role) VALUES (?, ?, ?)`, st.ProjectID, uid, domain.RoleAnnotator); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO study_participants (study_id, user_id, number, platform, platform_id, platform_refs, condition, phase)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, st.ID, uid, n, string(e.Platform), e.ParticipantID, string(refs), condition(n), firstPhase)
		created = err == nil
		return err
	})
	if err != nil {
		return nil, false, domain.Op("Store.Enter", err)
	}
	p, err = s.participant(ctx, `study_id = ? AND platform = ? AND platform_id = ?`, st.ID, string(e.Platform), e.ParticipantID)
	return p, created, domain.Op("Store.Enter", err)
}

const participantSelect = `SELECT id, study_id, user_id, number, platform, platform_id, platform_refs, condition, phase, entered_at, coalesce(finished_at, ''),
		excluded, excluded_why, timed_out
	FROM study_participants WHERE `

func (s *Store) participant(ctx context.Context, cond string, args ...any) (*Participant, error) {
	ps, err := s.participants(ctx, cond, args...)
	if err != nil {
		return nil, err
	}
	if len(ps) == 0 {
		return nil, domain.Errorf(domain.ENotFound, "participant not found")
	}
	return &ps[0], nil
}

// participants reads the participants cond selects, in order of entry.
func (s *Store) participants(ctx context.Context, cond string, args ...any) ([]Participant, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, participantSelect+cond+` ORDER BY study_id, number`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Participant
	for rows.Next() {
		var p Participant
		var platform, refs string
		if err := rows.Scan(&p.ID, &p.StudyID, &p.UserID, &p.Number, &platform,
			&p.PlatformID, &refs, &p.Condition, &p.Phase, &p.EnteredAt, &p.FinishedAt, &p.Excluded, &p.Why, &p.TimedOut); err != nil {
			return nil, err
		}
		p.Platform = study.Platform(platform)
		if err := json.Unmarshal([]byte(refs), &p.Refs); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// ParticipantOfUser returns the participant a user account is, if any.
func (s *Store) ParticipantOfUser(ctx context.Context, userID int64) (*Participant, error) {
	val, err := s.participant(ctx, `user_id = ?`, userID)
	return val, domain.Op("Store.ParticipantOfUser", err)
}

// Participants lists a study's participants in order of entry.
func (s *Store) Participants(ctx context.Context, studyID int64) ([]Participant, error) {
	val, err := s.participants(ctx, `study_id = ?`, studyID)
	return val, domain.Op("Store.Participants", err)
}

// Phases are a participant's steps in the order pages count them.
var Phases = []string{PhaseConsent, PhaseInstructions, PhaseScreening, PhaseTraining, PhaseWork, PhaseSurvey,
	PhaseCompleted, PhaseNoConsent, PhaseScreenedOut}

// PhaseCounts counts a study's participants by phase.
func (s *Store) PhaseCounts(ctx context.Context, studyID int64) (map[string]int, error) {
	counts, err := s.phaseCounts(ctx, `study_id = ?`, studyID)
	if err != nil {
		return nil, domain.Op("Store.PhaseCounts", err)
	}
	if counts[studyID] == nil {
		return map[string]int{}, nil
	}
	return counts[studyID], nil
}

// ProjectPhaseCounts counts the participants of each study of a project
// by phase, in one query: by study id, then phase.
func (s *Store) ProjectPhaseCounts(ctx context.Context, projectID int64) (map[int64]map[string]int, error) {
	counts, err := s.phaseCounts(ctx, `study_id IN (SELECT id FROM studies WHERE project_id = ?)`, projectID)
	return counts, domain.Op("Store.ProjectPhaseCounts", err)
}

func (s *Store) phaseCounts(ctx context.Context, cond string, arg int64) (map[int64]map[string]int, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `SELECT study_id, phase, count(*) FROM study_participants WHERE `+cond+` GROUP BY study_id, phase`, arg)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]map[string]int{}
	for rows.Next() {
		var id int64
		var ph string
		var n int
		if err := rows.Scan(&id, &ph, &n); err != nil {
			return nil, err
		}
		if out[id] == nil {
			out[id] = map[string]int{}
		}
		out[id][ph] = n
	}
	return out, rows.Err()
}

// SetPhase moves a participant to a phase; an ending phase records when.
func (s *Store) SetPhase(ctx context.Context, participantID int64, phase string) error {
	return domain.Op("Store.SetPhase", s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		ends := phase == PhaseCompleted || phase == PhaseNoConsent || phase == PhaseScreenedOut
		_, err := tx.ExecContext(ctx, `UPDATE study_participants SET phase = ?,
			finished_at = CASE WHEN ? AND finished_at IS NULL THEN strftime('%Y-%m-%dT%H:%M:%fZ', 'now') ELSE finished_at END
			WHERE id = ?`, phase, ends, participantID)
		return err
	}))
}

// Membership names the study and condition of a participant.
type Membership struct {
	Study, Condition string
	Excluded         bool
}

// ProjectParticipants maps the user id of every participant of a
// project's studies to their study and condition.
func (s *Store) ProjectParticipants(ctx context.Context, projectID int64) (map[int64]Membership, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `SELECT sp.user_id, st.name, sp.condition, sp.excluded FROM study_participants sp
		JOIN studies st ON st.id = sp.study_id WHERE st.project_id = ?`, projectID)
	if err != nil {
		return nil, domain.Op("Store.ProjectParticipants", err)
	}
	defer rows.Close()
	out := map[int64]Membership{}
	for rows.Next() {
		var id int64
		var m Membership
		if err := rows.Scan(&id, &m.Study, &m.Condition, &m.Excluded); err != nil {
			return nil, domain.Op("Store.ProjectParticipants", err)
		}
		out[id] = m
	}
	return out, domain.Op("Store.ProjectParticipants", rows.Err())
}

// ErrOtherSession refuses an entry that names a participant who entered
// from another platform session: an id alone does not open someone
// else's work.
var ErrOtherSession = domain.Errorf(domain.EForbidden, "this participant id has entered the study from another session; open the study from the platform again")

// sameSession says whether a second entry comes from the session of the
// first: the same Prolific session or the same MTurk assignment. A
// generic pid has nothing else to check it by.
func sameSession(was, now study.Entry) bool {
	switch now.Platform {
	case study.Prolific:
		return was.SessionID == now.SessionID
	case study.MTurk:
		return was.AssignmentID == now.AssignmentID
	}
	return true
}

// ReleaseAll releases a participant's assignments of the study's round:
// their labels stay but count nowhere.
func (s *Store) ReleaseAll(ctx context.Context, st *Study, p *Participant) error {
	return domain.Op("Store.ReleaseAll", s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE assignments SET status = 'released', version = version + 1
			WHERE round_id = ? AND user_id = ? AND status != 'released'`, st.RoundID, p.UserID)
		return err
	}))
}

// TimeOut ends a participant's time: their assignments of the study's
// round that are not submitted are released, so the items go back to be
// dealt to others, and the participant is marked timed out. Submitted
// work stays.
func (s *Store) TimeOut(ctx context.Context, st *Study, p *Participant) error {
	return domain.Op("Store.TimeOut", s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE assignments SET status = 'released', version = version + 1
			WHERE round_id = ? AND user_id = ? AND status IN ('pending', 'in_progress')`, st.RoundID, p.UserID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE study_participants SET timed_out = 1 WHERE id = ?`, p.ID)
		return err
	}))
}
