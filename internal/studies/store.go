// Package studies stores crowd studies: a study deals a round's items to
// participants who enter by a public link from a recruitment platform
// (Prolific, MTurk or any other, see internal/study for the link's
// parameters). It shares the database and its one writer with the rest
// of the application (tasks.Store) and holds the SQL of the studies'
// tables, which the schema's migrations create.
package studies

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"annotate/internal/domain"
	"annotate/internal/experiment"
	"annotate/internal/study"
	"annotate/internal/tasks"
)

// Store reads and writes studies.
type Store struct {
	tasks *tasks.Store
}

// New returns the studies of the database behind s.
func New(s *tasks.Store) *Store { return &Store{tasks: s} }

// Study is a crowd study of a project.
type Study struct {
	ID, ProjectID, RoundID int64
	Name, RoundName        string
	Definition             study.Definition
	// EntryToken is the secret part of the public entry link.
	EntryToken string
	Open       bool
	CreatedAt  string
	// Items counts the summaries the study deals; Checks the summaries
	// with gold it mixes in as attention checks.
	Items, Checks int
}

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

// NewStudy is what Create stores.
type NewStudy struct {
	Name       string
	Definition study.Definition
	EntryToken string
	// Round is the round's id when it exists; else the study makes a
	// production round named Definition.Round over Summaries.
	Round     int64
	Summaries []int64
	// Checks are summaries with gold on every sentence, mixed into each
	// participant's work as attention checks; never dealt as items.
	Checks []int64
}

// Create stores a study, and its round when it does not exist yet.
func (s *Store) Create(ctx context.Context, projectID int64, n NewStudy) (*Study, error) {
	def, err := json.Marshal(n.Definition)
	if err != nil {
		return nil, domain.Op("Store.Create", err)
	}
	var id int64
	err = s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		var taken int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM studies WHERE project_id = ? AND name = ?`, projectID, n.Name).Scan(&taken); err != nil {
			return err
		}
		if taken > 0 {
			return domain.Errorf(domain.EConflict, "a study named %q already exists in this project", n.Name)
		}
		round := n.Round
		if round == 0 {
			res, err := tx.ExecContext(ctx, `INSERT INTO rounds (project_id, name, kind, per_item) VALUES (?, ?, ?, ?)`,
				projectID, n.Definition.Round, domain.RoundProduction, n.Definition.K)
			if err != nil {
				return err
			}
			if round, err = res.LastInsertId(); err != nil {
				return err
			}
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO studies (project_id, name, round_id, definition, entry_token) VALUES (?, ?, ?, ?, ?)`,
			projectID, n.Name, round, string(def), n.EntryToken)
		if err != nil {
			return err
		}
		if id, err = res.LastInsertId(); err != nil {
			return err
		}
		for _, sum := range n.Summaries {
			if _, err := tx.ExecContext(ctx, `INSERT INTO study_items (study_id, summary_id)
				SELECT ?, id FROM summaries WHERE id = ? AND project_id = ?`, id, sum, projectID); err != nil {
				return err
			}
		}
		for _, sum := range n.Checks {
			if _, err := tx.ExecContext(ctx, `INSERT INTO study_items (study_id, summary_id, is_check)
				SELECT ?, id, 1 FROM summaries WHERE id = ? AND project_id = ?`, id, sum, projectID); err != nil {
				return err
			}
		}
		// Each item's place in the dealing order among items dealt as
		// often (drawn from the study's seed), and how often the round
		// has dealt it already.
		_, err = tx.ExecContext(ctx, `UPDATE study_items SET shuffle = (summary_id * 2654435761 + ?2) % 4294967291,
			dealt = (SELECT count(*) FROM assignments a WHERE a.round_id = ?3 AND a.summary_id = study_items.summary_id AND a.status != 'released')
			WHERE study_id = ?1`, id, int64(n.Definition.Seed%4294967291), round)
		return err
	})
	if err != nil {
		return nil, domain.Op("Store.Create", err)
	}
	val, err := s.byQuery(ctx, `st.id = ?`, id)
	return val, domain.Op("Store.Create", err)
}

const studySelect = `SELECT st.id, st.project_id, st.round_id, st.name, r.name, st.definition, st.entry_token, st.open, st.created_at,
		(SELECT count(*) FROM study_items i WHERE i.study_id = st.id AND i.is_check = 0),
		(SELECT count(*) FROM study_items i WHERE i.study_id = st.id AND i.is_check = 1)
	FROM studies st JOIN rounds r ON r.id = st.round_id WHERE `

func (s *Store) byQuery(ctx context.Context, cond string, args ...any) (*Study, error) {
	list, err := s.list(ctx, cond, args...)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, domain.Errorf(domain.ENotFound, "study not found")
	}
	return &list[0], nil
}

func (s *Store) list(ctx context.Context, cond string, args ...any) ([]Study, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, studySelect+cond+` ORDER BY st.id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Study
	for rows.Next() {
		var st Study
		var def string
		if err := rows.Scan(&st.ID, &st.ProjectID, &st.RoundID, &st.Name, &st.RoundName, &def, &st.EntryToken, &st.Open, &st.CreatedAt, &st.Items, &st.Checks); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(def), &st.Definition); err != nil {
			return nil, fmt.Errorf("study %d: definition: %w", st.ID, err)
		}
		out = append(out, st)
	}
	return out, rows.Err()
}

// ByName returns a project's study by name.
func (s *Store) ByName(ctx context.Context, projectID int64, name string) (*Study, error) {
	val, err := s.byQuery(ctx, `st.project_id = ? AND st.name = ?`, projectID, name)
	return val, domain.Op("Store.ByName", err)
}

// ByToken returns the study whose entry link holds token.
func (s *Store) ByToken(ctx context.Context, token string) (*Study, error) {
	val, err := s.byQuery(ctx, `st.entry_token = ?`, token)
	return val, domain.Op("Store.ByToken", err)
}

// ByID returns a study by id.
func (s *Store) ByID(ctx context.Context, id int64) (*Study, error) {
	val, err := s.byQuery(ctx, `st.id = ?`, id)
	return val, domain.Op("Store.ByID", err)
}

// List returns a project's studies, oldest first.
func (s *Store) List(ctx context.Context, projectID int64) ([]Study, error) {
	val, err := s.list(ctx, `st.project_id = ?`, projectID)
	return val, domain.Op("Store.List", err)
}

// SetEntry replaces a study's entry token (revoking the old link) and
// opens or closes entry.
func (s *Store) SetEntry(ctx context.Context, studyID int64, token string, open bool) error {
	return domain.Op("Store.SetEntry", s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE studies SET entry_token = ?, open = ? WHERE id = ?`, token, open, studyID)
		return err
	}))
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

// StudyChecks lists the attention checks (screening and training aside) of
// every participant of a study, by participant id.
func (s *Store) StudyChecks(ctx context.Context, studyID int64) (map[int64][]CheckResult, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `SELECT c.participant_id, c.assignment_id, a.summary_id, a.status = 'submitted', c.passed
		FROM study_checks c JOIN assignments a ON a.id = c.assignment_id JOIN study_participants sp ON sp.id = c.participant_id
		WHERE sp.study_id = ? AND c.screening = 0 AND c.training = 0 ORDER BY c.participant_id, a.position, c.assignment_id`, studyID)
	if err != nil {
		return nil, domain.Op("Store.StudyChecks", err)
	}
	defer rows.Close()
	out := map[int64][]CheckResult{}
	for rows.Next() {
		var pid int64
		var r CheckResult
		var passed sql.NullBool
		if err := rows.Scan(&pid, &r.AssignmentID, &r.SummaryID, &r.Submitted, &passed); err != nil {
			return nil, domain.Op("Store.StudyChecks", err)
		}
		if passed.Valid {
			r.Passed = &passed.Bool
		}
		out[pid] = append(out[pid], r)
	}
	return out, domain.Op("Store.StudyChecks", rows.Err())
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

// Deal gives a participant items up to the study's items per participant:
// the study's summaries with the fewest labellers in its round first
// (released assignments aside), never one the participant has, never one
// that has k labellers already. It returns how many the participant holds.
func (s *Store) Deal(ctx context.Context, st *Study, p *Participant) (int, error) {
	var held int
	err := s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM assignments a WHERE a.round_id = ? AND a.user_id = ? AND a.status != 'released'
			AND NOT EXISTS (SELECT 1 FROM study_checks c WHERE c.assignment_id = a.id)`,
			st.RoundID, p.UserID).Scan(&held); err != nil {
			return err
		}
		want := st.Definition.ItemsPerParticipant - held
		if want <= 0 {
			return nil
		}
		// The items dealt least so far, in the study's shuffled order,
		// read from the dealing index (study_items.dealt is kept by
		// triggers on assignments), skipping any the participant ever
		// held: the cost does not grow with the study's size.
		picks, err := tasks.IDList(ctx, tx, `SELECT i.summary_id FROM study_items i
			WHERE i.study_id = ?1 AND i.is_check = 0 AND i.dealt < ?4
				AND NOT EXISTS (SELECT 1 FROM assignments a WHERE a.round_id = ?2 AND a.summary_id = i.summary_id AND a.user_id = ?3)
			ORDER BY i.dealt, i.shuffle LIMIT ?5`, st.ID, st.RoundID, p.UserID, st.Definition.K, want)
		if err != nil {
			return err
		}
		checks, err := dealChecks(ctx, tx, st, p, len(picks))
		if err != nil {
			return err
		}
		order := mixIn(picks, checks, st.Definition.Seed, p.Number)
		isCheck := map[int64]bool{}
		for _, c := range checks {
			isCheck[c] = true
		}
		byItem := st.Definition.Randomise == "item" && len(st.Definition.Conditions) > 1
		var dealt map[int64][]int
		if byItem {
			if dealt, err = itemConditionCounts(ctx, tx, st, picks); err != nil {
				return err
			}
		}
		for _, sum := range order {
			res, err := tx.ExecContext(ctx, `INSERT INTO assignments (round_id, summary_id, user_id, position)
				VALUES (?, ?, ?, (SELECT coalesce(max(position), 0) + 1 FROM assignments WHERE user_id = ?))`, st.RoundID, sum, p.UserID, p.UserID)
			if err != nil {
				return err
			}
			id, err := res.LastInsertId()
			if err != nil {
				return err
			}
			// Randomised by participant, every item and check shows the
			// participant's condition; by item, each item its own, and
			// checks no assistant where the study has that condition.
			cond := p.Condition
			switch {
			case byItem && isCheck[sum]:
				cond = st.Definition.Conditions[0]
				if slices.Contains(st.Definition.Conditions, "none") {
					cond = "none"
				}
			case byItem:
				// Counterbalanced over the item's live assignments
				// (released ones aside): experiment.ItemConditionFor.
				counts := dealt[sum]
				c := experiment.ItemConditionFor(st.Definition.Seed, int(sum), counts)
				counts[c]++
				cond = st.Definition.Conditions[c]
			}
			if err := tasks.SetAssistanceTx(ctx, tx, id, ConditionAssistance(cond)); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO study_conditions (assignment_id, condition) VALUES (?, ?)`, id, cond); err != nil {
				return err
			}
			if isCheck[sum] {
				if _, err := tx.ExecContext(ctx, `INSERT INTO study_checks (assignment_id, participant_id) VALUES (?, ?)`, id, p.ID); err != nil {
					return err
				}
			}
		}
		held += len(picks)
		return nil
	})
	return held, domain.Op("Store.Deal", err)
}

// itemConditionCounts counts, for each of the items about to be dealt,
// its live assignments (released ones aside) in each of the study's
// conditions, in one query.
func itemConditionCounts(ctx context.Context, tx *sql.Tx, st *Study, items []int64) (map[int64][]int, error) {
	conds := st.Definition.Conditions
	out := make(map[int64][]int, len(items))
	for _, id := range items {
		out[id] = make([]int, len(conds))
	}
	list, err := json.Marshal(items)
	if err != nil {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT a.summary_id, c.condition FROM assignments a JOIN study_conditions c ON c.assignment_id = a.id
		WHERE a.round_id = ? AND a.status != 'released' AND a.summary_id IN (SELECT value FROM json_each(?))`, st.RoundID, string(list))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var c string
		if err := rows.Scan(&id, &c); err != nil {
			return nil, err
		}
		if i := slices.Index(conds, c); i >= 0 && out[id] != nil {
			out[id][i]++
		}
	}
	return out, rows.Err()
}

// ConditionAssistance is what an assistance condition shows on the
// labelling page: none hides the assistant; verdict shows the
// Adjudicator's label and report alone (a single view); debate shows the
// Advocate, the Skeptic and the Adjudicator; after shows the debate once
// the participant's first label of the sentence is saved.
func ConditionAssistance(condition string) domain.Assistance {
	switch condition {
	case "verdict":
		return domain.Assistance{Visibility: domain.AssistAlways, VerdictOnly: true}
	case "debate":
		return domain.Assistance{Visibility: domain.AssistAlways}
	case "after":
		return domain.Assistance{Visibility: domain.AssistAfterLabel}
	}
	return domain.Assistance{Visibility: domain.AssistNever}
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

// checksFor is how many attention checks go with n items at a study's
// rate: the share of all the participant's summaries that are checks,
// rounded, at least one when the rate is above zero.
func checksFor(n int, rate float64) int {
	if rate <= 0 || n <= 0 {
		return 0
	}
	return max(1, int(math.Round(rate*float64(n)/(1-rate))))
}

// dealChecks picks the attention checks to go with n new items: from the
// study's check summaries the participant does not have, in an order
// drawn from the participant's number.
func dealChecks(ctx context.Context, tx *sql.Tx, st *Study, p *Participant, n int) ([]int64, error) {
	rate := 0.0
	if st.Definition.AttentionRate != nil {
		rate = *st.Definition.AttentionRate
	}
	want := checksFor(n, rate)
	if want == 0 || st.Checks == 0 {
		return nil, nil
	}
	return tasks.IDList(ctx, tx, `SELECT i.summary_id FROM study_items i
		WHERE i.study_id = ?1 AND i.is_check = 1
		AND NOT EXISTS (SELECT 1 FROM assignments a WHERE a.round_id = ?2 AND a.summary_id = i.summary_id AND a.user_id = ?3)
		ORDER BY (i.summary_id * 2654435761 + ?4) % 4294967291 LIMIT ?5`, st.ID, st.RoundID, p.UserID, p.Number, want)
}

// mixIn puts the checks among the items at places drawn from the study's
// seed and the participant's number, so that nothing in their order tells
// a check apart.
func mixIn(items, checks []int64, seed uint64, number int) []int64 {
	out := append(append([]int64{}, items...), checks...)
	r := rand.New(rand.NewPCG(seed, uint64(number)+1<<40))
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// CheckOf says whether an assignment is an attention check, and of whom.
func (s *Store) CheckOf(ctx context.Context, assignmentID int64) (participantID int64, ok bool, err error) {
	err = s.tasks.Reader(ctx).QueryRowContext(ctx, `SELECT participant_id FROM study_checks WHERE assignment_id = ?`, assignmentID).Scan(&participantID)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	return participantID, err == nil, domain.Op("Store.CheckOf", err)
}

// CheckResult is one attention check of a participant.
type CheckResult struct {
	AssignmentID, SummaryID int64
	Submitted               bool
	Passed                  *bool
}

// Checks lists a participant's attention checks.
func (s *Store) Checks(ctx context.Context, participantID int64) ([]CheckResult, error) {
	val, err := s.checks(ctx, participantID, false, false)
	return val, domain.Op("Store.Checks", err)
}

// Screening lists a participant's screening items, in the order dealt.
func (s *Store) Screening(ctx context.Context, participantID int64) ([]CheckResult, error) {
	val, err := s.checks(ctx, participantID, true, false)
	return val, domain.Op("Store.Screening", err)
}

// Training lists a participant's training items, in the order dealt;
// Passed is set once they have read the item's feedback.
func (s *Store) Training(ctx context.Context, participantID int64) ([]CheckResult, error) {
	val, err := s.checks(ctx, participantID, false, true)
	return val, domain.Op("Store.Training", err)
}

func (s *Store) checks(ctx context.Context, participantID int64, screening, training bool) ([]CheckResult, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `SELECT c.assignment_id, a.summary_id, a.status = 'submitted', c.passed
		FROM study_checks c JOIN assignments a ON a.id = c.assignment_id WHERE c.participant_id = ? AND c.screening = ? AND c.training = ?
		ORDER BY a.position, c.assignment_id`, participantID, screening, training)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []CheckResult
	for rows.Next() {
		var r CheckResult
		var passed sql.NullBool
		if err := rows.Scan(&r.AssignmentID, &r.SummaryID, &r.Submitted, &passed); err != nil {
			return nil, err
		}
		if passed.Valid {
			r.Passed = &passed.Bool
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// SetCheck records whether a participant passed an attention check.
func (s *Store) SetCheck(ctx context.Context, assignmentID int64, passed bool) error {
	return domain.Op("Store.SetCheck", s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE study_checks SET passed = ? WHERE assignment_id = ?`, passed, assignmentID)
		return err
	}))
}

// Exclude marks a participant excluded, with why, and releases their
// assignments of the study's round: their labels stay, but count nowhere
// (report, gold), and their items go back to be dealt to others. by is
// the lead who decided, 0 for the study's rule; the decision is kept.
func (s *Store) Exclude(ctx context.Context, st *Study, p *Participant, why string, by int64) error {
	return domain.Op("Store.Exclude", s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE study_participants SET excluded = 1, excluded_why = ? WHERE id = ?`, why, p.ID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO study_released (assignment_id, participant_id, status)
			SELECT id, ?, status FROM assignments WHERE round_id = ? AND user_id = ? AND status != 'released'
			ON CONFLICT (assignment_id) DO UPDATE SET status = excluded.status`, p.ID, st.RoundID, p.UserID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE assignments SET status = 'released', version = version + 1
			WHERE round_id = ? AND user_id = ? AND status != 'released'`, st.RoundID, p.UserID); err != nil {
			return err
		}
		return decide(ctx, tx, p.ID, true, why, by)
	}))
}

// Include takes back a participant's exclusion: their assignments get back
// the status they had, so their labels count again (their items may by
// then have more than k labels), and the decision is kept.
func (s *Store) Include(ctx context.Context, p *Participant, why string, by int64) error {
	return domain.Op("Store.Include", s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE study_participants SET excluded = 0, excluded_why = '' WHERE id = ?`, p.ID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE assignments SET version = version + 1,
				status = (SELECT r.status FROM study_released r WHERE r.assignment_id = assignments.id)
			WHERE id IN (SELECT assignment_id FROM study_released WHERE participant_id = ?)`, p.ID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM study_released WHERE participant_id = ?`, p.ID); err != nil {
			return err
		}
		return decide(ctx, tx, p.ID, false, why, by)
	}))
}

func decide(ctx context.Context, tx *sql.Tx, participant int64, excluded bool, why string, by int64) error {
	var who any
	if by != 0 {
		who = by
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO study_decisions (participant_id, excluded, reason, decided_by) VALUES (?, ?, ?, ?)`, participant, excluded, why, who)
	return err
}

// Decision is one exclusion or inclusion of a participant.
type Decision struct {
	Excluded bool
	Reason   string
	By       string // the lead's username; "" for the study's rule
	At       string
}

// Decisions lists a participant's exclusions and inclusions, oldest first.
func (s *Store) Decisions(ctx context.Context, participantID int64) ([]Decision, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `SELECT d.excluded, d.reason, coalesce(u.username, ''), d.decided_at
		FROM study_decisions d LEFT JOIN users u ON u.id = d.decided_by WHERE d.participant_id = ? ORDER BY d.id`, participantID)
	if err != nil {
		return nil, domain.Op("Store.Decisions", err)
	}
	defer rows.Close()
	var out []Decision
	for rows.Next() {
		var d Decision
		if err := rows.Scan(&d.Excluded, &d.Reason, &d.By, &d.At); err != nil {
			return nil, domain.Op("Store.Decisions", err)
		}
		out = append(out, d)
	}
	return out, domain.Op("Store.Decisions", rows.Err())
}

// GoldSummaries returns those of a project's summaries whose every
// sentence has resolved gold: what attention checks are made of.
func (s *Store) GoldSummaries(ctx context.Context, projectID int64) (map[int64]bool, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `SELECT s.id FROM summaries s WHERE s.project_id = ?
		AND EXISTS (SELECT 1 FROM summary_sentences ss WHERE ss.summary_id = s.id)
		AND NOT EXISTS (SELECT 1 FROM summary_sentences ss LEFT JOIN gold_sentences g ON g.sentence_id = ss.id
			WHERE ss.summary_id = s.id AND (g.sentence_id IS NULL OR g.provenance = 'unresolved' OR g.label NOT IN ('faithful', 'unfaithful')))`, projectID)
	if err != nil {
		return nil, domain.Op("Store.GoldSummaries", err)
	}
	defer rows.Close()
	out := map[int64]bool{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, domain.Op("Store.GoldSummaries", err)
		}
		out[id] = true
	}
	return out, domain.Op("Store.GoldSummaries", rows.Err())
}

// ItemConditions maps each item assignment of a project's studies to the
// assistance condition it was dealt in.
func (s *Store) ItemConditions(ctx context.Context, projectID int64) (map[int64]string, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `SELECT c.assignment_id, c.condition FROM study_conditions c
		JOIN assignments a ON a.id = c.assignment_id JOIN rounds r ON r.id = a.round_id WHERE r.project_id = ?`, projectID)
	if err != nil {
		return nil, domain.Op("Store.ItemConditions", err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var c string
		if err := rows.Scan(&id, &c); err != nil {
			return nil, domain.Op("Store.ItemConditions", err)
		}
		out[id] = c
	}
	return out, domain.Op("Store.ItemConditions", rows.Err())
}

// ProjectChecks is the set of a project's assignments that are attention
// checks.
func (s *Store) ProjectChecks(ctx context.Context, projectID int64) (map[int64]bool, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `SELECT c.assignment_id FROM study_checks c
		JOIN study_participants sp ON sp.id = c.participant_id JOIN studies st ON st.id = sp.study_id WHERE st.project_id = ?`, projectID)
	if err != nil {
		return nil, domain.Op("Store.ProjectChecks", err)
	}
	defer rows.Close()
	out := map[int64]bool{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, domain.Op("Store.ProjectChecks", err)
		}
		out[id] = true
	}
	return out, domain.Op("Store.ProjectChecks", rows.Err())
}

// DealScreening gives a participant the study's screening test, once: n
// of its summaries with gold, drawn by the participant's number. It
// returns the test's assignments in order.
func (s *Store) DealScreening(ctx context.Context, st *Study, p *Participant, n int) ([]CheckResult, error) {
	if err := s.dealGold(ctx, st, p, n, "screening"); err != nil {
		return nil, domain.Op("Store.DealScreening", err)
	}
	val, err := s.Screening(ctx, p.ID)
	return val, domain.Op("Store.DealScreening", err)
}

// DealTraining gives a participant the study's training items, once: n of
// its summaries with gold they have not had (their screening test's
// aside). It returns them in order.
func (s *Store) DealTraining(ctx context.Context, st *Study, p *Participant, n int) ([]CheckResult, error) {
	if err := s.dealGold(ctx, st, p, n, "training"); err != nil {
		return nil, domain.Op("Store.DealTraining", err)
	}
	val, err := s.Training(ctx, p.ID)
	return val, domain.Op("Store.DealTraining", err)
}

// dealGold deals n of the study's summaries with gold that the
// participant does not have, marked with the flag column (screening or
// training), with the assistant hidden; nothing when some are dealt
// already.
func (s *Store) dealGold(ctx context.Context, st *Study, p *Participant, n int, flag string) error {
	return s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		var have int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM study_checks WHERE participant_id = ? AND `+flag+` = 1`, p.ID).Scan(&have); err != nil {
			return err
		}
		if have > 0 {
			return nil
		}
		picks, err := tasks.IDList(ctx, tx, `SELECT i.summary_id FROM study_items i WHERE i.study_id = ?1 AND i.is_check = 1
			AND NOT EXISTS (SELECT 1 FROM assignments a WHERE a.round_id = ?4 AND a.summary_id = i.summary_id AND a.user_id = ?5)
			ORDER BY (i.summary_id * 2246822519 + ?2) % 4294967291 LIMIT ?3`, st.ID, p.Number, n, st.RoundID, p.UserID)
		if err != nil {
			return err
		}
		for _, sum := range picks {
			res, err := tx.ExecContext(ctx, `INSERT INTO assignments (round_id, summary_id, user_id, position)
				VALUES (?, ?, ?, (SELECT coalesce(max(position), 0) + 1 FROM assignments WHERE user_id = ?))`, st.RoundID, sum, p.UserID, p.UserID)
			if err != nil {
				return err
			}
			id, err := res.LastInsertId()
			if err != nil {
				return err
			}
			if err := tasks.SetAssistanceTx(ctx, tx, id, domain.Assistance{Visibility: domain.AssistNever}); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO study_checks (assignment_id, participant_id, `+flag+`) VALUES (?, ?, 1)`, id, p.ID); err != nil {
				return err
			}
		}
		return nil
	})
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

// Study figures count gold that is independent of the study's own
// labels: imported with the data, or decided by an adjudicator. Gold that
// resolution made from agreeing labels (unanimous, or a majority a lead
// accepted) may have been made from the very participants it would score,
// so it is left out.

// Observation is one label of an experiment: a participant's submitted
// faithfulness label of an item's sentence that has gold, with the
// assistant's label where a run has one. Excluded participants, attention
// checks and the screening test are left out.
type Observation struct {
	Participant, Sentence int64
	Condition, Label      string
	Gold, Assistant       string
	// Seconds is the item's active time shared over its sentences.
	Seconds float64
}

// CrowdLabel is one kept participant's submitted faithfulness label of
// a study item's sentence, with the sentence's gold where it has one
// (empty otherwise): what crowd aggregation weighs.
type CrowdLabel struct {
	Participant int64
	Number      int // the participant's number, from 0
	Sentence    int64
	Label, Gold string
}

// CrowdLabels reads the faithful and unfaithful labels of a study's item
// sentences by its participants who are not excluded; attention checks,
// the screening test and training are left out.
func (s *Store) CrowdLabels(ctx context.Context, st *Study) ([]CrowdLabel, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `SELECT sp.id, sp.number, l.sentence_id, l.label,
			coalesce((SELECT g.label FROM gold_sentences g WHERE g.sentence_id = l.sentence_id AND g.provenance IN ('imported', 'adjudicated')
				AND g.label IN ('faithful', 'unfaithful')), '')
		FROM study_participants sp
		JOIN assignments a ON a.user_id = sp.user_id AND a.round_id = ?1 AND a.status = 'submitted'
		JOIN sentence_labels l ON l.assignment_id = a.id AND l.label IN ('faithful', 'unfaithful')
		WHERE sp.study_id = ?2 AND sp.excluded = 0
			AND NOT EXISTS (SELECT 1 FROM study_checks c WHERE c.assignment_id = a.id)
		ORDER BY sp.id, l.sentence_id`, st.RoundID, st.ID)
	if err != nil {
		return nil, domain.Op("Store.CrowdLabels", err)
	}
	defer rows.Close()
	var out []CrowdLabel
	for rows.Next() {
		var c CrowdLabel
		if err := rows.Scan(&c.Participant, &c.Number, &c.Sentence, &c.Label, &c.Gold); err != nil {
			return nil, domain.Op("Store.CrowdLabels", err)
		}
		out = append(out, c)
	}
	return out, domain.Op("Store.CrowdLabels", rows.Err())
}

// Observations reads a study's experiment observations.
func (s *Store) Observations(ctx context.Context, st *Study) ([]Observation, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `SELECT sp.id, l.sentence_id, coalesce(sc.condition, sp.condition), l.label, g.label,
			coalesce((SELECT o.label FROM assist_outputs o JOIN assist_runs r ON r.id = o.run_id
				WHERE o.sentence_id = l.sentence_id AND o.status = 'ok' AND o.label != '' ORDER BY r.sample, r.id DESC LIMIT 1), ''),
			CAST(a.active_seconds AS REAL) / (SELECT count(*) FROM summary_sentences ss WHERE ss.summary_id = a.summary_id)
		FROM study_participants sp
		JOIN assignments a ON a.user_id = sp.user_id AND a.round_id = ?1 AND a.status = 'submitted'
		LEFT JOIN study_conditions sc ON sc.assignment_id = a.id
		JOIN sentence_labels l ON l.assignment_id = a.id AND l.label IN ('faithful', 'unfaithful')
		JOIN gold_sentences g ON g.sentence_id = l.sentence_id AND g.provenance IN ('imported', 'adjudicated') AND g.label IN ('faithful', 'unfaithful')
		WHERE sp.study_id = ?2 AND sp.excluded = 0
			AND NOT EXISTS (SELECT 1 FROM study_checks c WHERE c.assignment_id = a.id)
		ORDER BY sp.id, l.sentence_id`, st.RoundID, st.ID)
	if err != nil {
		return nil, domain.Op("Store.Observations", err)
	}
	defer rows.Close()
	var out []Observation
	for rows.Next() {
		var o Observation
		if err := rows.Scan(&o.Participant, &o.Sentence, &o.Condition, &o.Label, &o.Gold, &o.Assistant, &o.Seconds); err != nil {
			return nil, domain.Op("Store.Observations", err)
		}
		out = append(out, o)
	}
	return out, domain.Op("Store.Observations", rows.Err())
}

// SaveAnswers stores a participant's exit survey answers and ends their
// study, in one transaction.
func (s *Store) SaveAnswers(ctx context.Context, p *Participant, answers map[string]string) error {
	return domain.Op("Store.SaveAnswers", s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		for q, a := range answers {
			if _, err := tx.ExecContext(ctx, `INSERT INTO study_answers (participant_id, question, answer) VALUES (?, ?, ?)
				ON CONFLICT (participant_id, question) DO UPDATE SET answer = excluded.answer`, p.ID, q, a); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, `UPDATE study_participants SET phase = ?, finished_at = coalesce(finished_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
			WHERE id = ?`, PhaseCompleted, p.ID)
		return err
	}))
}

// Answer is one exit survey answer, by participant number.
type Answer struct {
	Participant      int // number, from 1
	Question, Answer string
}

// Answers lists a study's exit survey answers by participant and question.
func (s *Store) Answers(ctx context.Context, studyID int64) ([]Answer, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `SELECT sp.number + 1, a.question, a.answer FROM study_answers a
		JOIN study_participants sp ON sp.id = a.participant_id WHERE sp.study_id = ? ORDER BY sp.number, a.question`, studyID)
	if err != nil {
		return nil, domain.Op("Store.Answers", err)
	}
	defer rows.Close()
	var out []Answer
	for rows.Next() {
		var a Answer
		if err := rows.Scan(&a.Participant, &a.Question, &a.Answer); err != nil {
			return nil, domain.Op("Store.Answers", err)
		}
		out = append(out, a)
	}
	return out, domain.Op("Store.Answers", rows.Err())
}
