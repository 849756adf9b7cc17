// Package webhooks stores a project's webhooks and the deliveries of
// their events (round.complete, gold.decided): it shares the database and
// its one writer with the rest of the application (tasks.Store) and holds
// the SQL of the webhook tables, which the schema's migrations create. The
// web server sends the deliveries (internal/web).
package webhooks

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"annotate/internal/domain"
	"annotate/internal/tasks"
)

// Store reads and writes webhooks and their deliveries.
type Store struct {
	tasks *tasks.Store
}

// New returns the webhooks of the database behind s.
func New(s *tasks.Store) *Store { return &Store{tasks: s} }

// Webhook events.
const (
	EventRoundComplete = "round.complete"
	EventGoldDecided   = "gold.decided"
)

// WebhookEvents lists the events a webhook can ask for.
var WebhookEvents = []string{EventRoundComplete, EventGoldDecided}

// Delivery statuses.
const (
	DeliveryPending   = "pending"
	DeliveryDelivered = "delivered"
	DeliveryFailed    = "failed"
	// DeliverySkipped marks rounds already complete when the webhook was
	// registered: they are not announced.
	DeliverySkipped = "skipped"
)

// Webhook is a URL told about a project's events.
type Webhook struct {
	ID        int64
	ProjectID int64
	URL       string
	Secret    string // signs deliveries; shown to the lead once
	Events    []string
	CreatedAt string
}

// WebhookDelivery is one event sent, or to be sent, to a webhook.
type WebhookDelivery struct {
	ID            int64
	WebhookID     int64
	ProjectID     int64
	URL           string
	Secret        string
	Event         string
	Payload       string
	Status        string
	Attempts      int
	NextAttemptAt string
	LastStatus    int
	LastError     string
	CreatedAt     string
	DeliveredAt   string
}

// MaxWebhooksPerProject bounds a project's webhooks.
const MaxWebhooksPerProject = 20

// ValidateWebhookURL accepts absolute http and https URLs without
// credentials.
func ValidateWebhookURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || len(raw) > 2000 {
		return domain.Errorf(domain.EInvalid, "url: give an absolute http or https address without a user name or password")
	}
	return nil
}

// CreateWebhook registers a URL for some events of a project and returns
// it with its signing secret. Rounds already complete are not announced.
func (s *Store) CreateWebhook(ctx context.Context, projectID, by int64, rawURL string, events []string) (*Webhook, error) {
	if err := ValidateWebhookURL(rawURL); err != nil {
		return nil, domain.Op("Store.CreateWebhook", err)
	}
	var evs []string
	for _, e := range events {
		if !slices.Contains(WebhookEvents, e) {
			return nil, domain.Errorf(domain.EInvalid, "events: %q is not one of %s", e, strings.Join(WebhookEvents, ", "))
		}
		if !slices.Contains(evs, e) {
			evs = append(evs, e)
		}
	}
	if len(evs) == 0 {
		return nil, domain.Errorf(domain.EInvalid, "events: choose at least one of %s", strings.Join(WebhookEvents, ", "))
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, domain.Op("Store.CreateWebhook", err)
	}
	secret := hex.EncodeToString(raw)
	now := tasks.Stamp(s.tasks.Now())
	var id int64
	err := s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM webhooks WHERE project_id = ?`, projectID).Scan(&n); err != nil {
			return err
		}
		if n >= MaxWebhooksPerProject {
			return domain.Errorf(domain.EInvalid, "the project already has %d webhooks; delete some first", n)
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO webhooks (project_id, url, secret, events, gold_cursor, created_by, created_at)
			VALUES (?1, ?2, ?3, ?4, (SELECT coalesce(max(h.id), 0) FROM gold_history h), ?5, ?6)`,
			projectID, rawURL, secret, strings.Join(evs, ","), by, now)
		if err != nil {
			return err
		}
		if id, err = res.LastInsertId(); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO webhook_deliveries (webhook_id, event, event_key, payload, status, next_attempt_at)
			SELECT ?1, ?2, r.id, '', 'skipped', ?3 FROM rounds r WHERE r.project_id = ?4 AND `+roundComplete,
			id, EventRoundComplete, now, projectID)
		return err
	})
	if err != nil {
		return nil, domain.Op("Store.CreateWebhook", err)
	}
	return &Webhook{ID: id, ProjectID: projectID, URL: rawURL, Secret: secret, Events: evs, CreatedAt: now}, nil
}

// roundComplete is true of a round r whose assignments (released ones
// aside) are all submitted.
const roundComplete = `EXISTS (SELECT 1 FROM assignments a WHERE a.round_id = r.id AND a.status != 'released')
	AND NOT EXISTS (SELECT 1 FROM assignments a WHERE a.round_id = r.id AND a.status IN ('pending', 'in_progress'))`

// Webhooks lists a project's webhooks; their secrets are left out.
func (s *Store) Webhooks(ctx context.Context, projectID int64) ([]Webhook, error) {
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `SELECT id, project_id, url, events, created_at FROM webhooks WHERE project_id = ? ORDER BY id`, projectID)
	if err != nil {
		return nil, domain.Op("Store.Webhooks", err)
	}
	defer rows.Close()
	var out []Webhook
	for rows.Next() {
		var w Webhook
		var events string
		if err := rows.Scan(&w.ID, &w.ProjectID, &w.URL, &events, &w.CreatedAt); err != nil {
			return nil, domain.Op("Store.Webhooks", err)
		}
		w.Events = strings.Split(events, ",")
		out = append(out, w)
	}
	return out, domain.Op("Store.Webhooks", rows.Err())
}

// DeleteWebhook removes a project's webhook and its deliveries.
func (s *Store) DeleteWebhook(ctx context.Context, projectID, id int64) error {
	return domain.Op("Store.DeleteWebhook", s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		err := tasks.MustAffect(tx.ExecContext(ctx, `DELETE FROM webhooks WHERE id = ? AND project_id = ?`, id, projectID))
		if domain.ErrorCode(err) == domain.ENotFound {
			return domain.Errorf(domain.ENotFound, "webhook not found")
		}
		return err
	}))
}

const deliveryColumns = `d.id, d.webhook_id, w.url, w.secret, d.event, d.payload, d.status, d.attempts, d.next_attempt_at,
	d.last_status, d.last_error, d.created_at, coalesce(d.delivered_at, ''), w.project_id`

func scanDeliveries(rows *sql.Rows) ([]WebhookDelivery, error) {
	defer rows.Close()
	var out []WebhookDelivery
	for rows.Next() {
		var d WebhookDelivery
		if err := rows.Scan(&d.ID, &d.WebhookID, &d.URL, &d.Secret, &d.Event, &d.Payload, &d.Status, &d.Attempts, &d.NextAttemptAt,
			&d.LastStatus, &d.LastError, &d.CreatedAt, &d.DeliveredAt, &d.ProjectID); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// WebhookDeliveries lists a project webhook's deliveries, newest first,
// skipped ones left out.
func (s *Store) WebhookDeliveries(ctx context.Context, projectID, webhookID int64) ([]WebhookDelivery, error) {
	var n int
	if err := s.tasks.Reader(ctx).QueryRowContext(ctx, `SELECT count(*) FROM webhooks WHERE id = ? AND project_id = ?`, webhookID, projectID).Scan(&n); err != nil {
		return nil, domain.Op("Store.WebhookDeliveries", err)
	}
	if n == 0 {
		return nil, domain.Errorf(domain.ENotFound, "webhook not found")
	}
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
		WHERE d.webhook_id = ? AND d.status != 'skipped' ORDER BY d.id DESC LIMIT 500`, webhookID)
	if err != nil {
		return nil, domain.Op("Store.WebhookDeliveries", err)
	}
	val, err := scanDeliveries(rows)
	return val, domain.Op("Store.WebhookDeliveries", err)
}

// webhookPayload is the JSON body of a delivery.
type webhookPayload struct {
	Event   string `json:"event"`
	Project string `json:"project"`
	At      string `json:"at"`
	Round   *struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	} `json:"round,omitempty"`
	Decisions int `json:"decisions,omitempty"`
}

// QueueWebhookEvents records a delivery for every event a webhook asked
// for that happened since it was last looked at: rounds that became
// complete, and gold decided (each new batch of decisions of a project is
// one event). It returns how many deliveries it queued.
func (s *Store) QueueWebhookEvents(ctx context.Context) (int, error) {
	queued := 0
	err := s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		now := tasks.Stamp(s.tasks.Now())
		type hook struct {
			id, project, cursor int64
			slug, events        string
		}
		rows, err := tx.QueryContext(ctx, `SELECT w.id, w.project_id, w.gold_cursor, p.slug, w.events FROM webhooks w JOIN projects p ON p.id = w.project_id`)
		if err != nil {
			return err
		}
		var hooks []hook
		for rows.Next() {
			var h hook
			if err := rows.Scan(&h.id, &h.project, &h.cursor, &h.slug, &h.events); err != nil {
				rows.Close()
				return err
			}
			hooks = append(hooks, h)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		insert := func(h hook, event, key string, p webhookPayload) error {
			p.Event, p.Project, p.At = event, h.slug, now
			data, err := json.Marshal(p)
			if err != nil {
				return err
			}
			res, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO webhook_deliveries (webhook_id, event, event_key, payload, next_attempt_at)
				VALUES (?, ?, ?, ?, ?)`, h.id, event, key, string(data), now)
			if err != nil {
				return err
			}
			n, _ := res.RowsAffected()
			queued += int(n)
			return nil
		}
		for _, h := range hooks {
			events := strings.Split(h.events, ",")
			if slices.Contains(events, EventRoundComplete) {
				rrows, err := tx.QueryContext(ctx, `SELECT r.id, r.name FROM rounds r WHERE r.project_id = ? AND `+roundComplete+`
					AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.webhook_id = ? AND d.event = ? AND d.event_key = CAST(r.id AS TEXT))`,
					h.project, h.id, EventRoundComplete)
				if err != nil {
					return err
				}
				var done []webhookPayload
				for rrows.Next() {
					var p webhookPayload
					p.Round = &struct {
						ID   int64  `json:"id"`
						Name string `json:"name"`
					}{}
					if err := rrows.Scan(&p.Round.ID, &p.Round.Name); err != nil {
						rrows.Close()
						return err
					}
					done = append(done, p)
				}
				rrows.Close()
				for _, p := range done {
					if err := insert(h, EventRoundComplete, strconv.FormatInt(p.Round.ID, 10), p); err != nil {
						return err
					}
				}
			}
			var last int64
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(h.id), 0), count(*) FROM gold_history h
				JOIN summary_sentences ss ON ss.id = h.sentence_id JOIN summaries m ON m.id = ss.summary_id
				WHERE m.project_id = ? AND h.id > ? AND json_extract(h.data, '$.provenance') != 'unresolved'`, h.project, h.cursor).Scan(&last, &n); err != nil {
				return err
			}
			if n == 0 {
				continue
			}
			if slices.Contains(events, EventGoldDecided) {
				if err := insert(h, EventGoldDecided, strconv.FormatInt(last, 10), webhookPayload{Decisions: n}); err != nil {
					return err
				}
			}
			if _, err := tx.ExecContext(ctx, `UPDATE webhooks SET gold_cursor = ? WHERE id = ?`, last, h.id); err != nil {
				return err
			}
		}
		return nil
	})
	return queued, domain.Op("Store.QueueWebhookEvents", err)
}

// DueWebhookDeliveries returns up to limit pending deliveries whose time
// has come, oldest first, at most perProject of any one project, so that a
// project with many deliveries waiting cannot fill the batch and keep the
// others' out; projects in skip (those still busy delivering) are left
// out.
func (s *Store) DueWebhookDeliveries(ctx context.Context, limit, perProject int, skip ...int64) ([]WebhookDelivery, error) {
	skipped := "0"
	args := []any{tasks.Stamp(s.tasks.Now())}
	for _, p := range skip {
		skipped += ",?"
		args = append(args, p)
	}
	args = append(args, perProject, limit)
	rows, err := s.tasks.Reader(ctx).QueryContext(ctx, `SELECT `+deliveryColumns+` FROM (
			SELECT d.id AS due_id, row_number() OVER (PARTITION BY w.project_id ORDER BY d.next_attempt_at, d.id) AS n
			FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
			WHERE d.status = 'pending' AND d.next_attempt_at <= ? AND w.project_id NOT IN (`+skipped+`)
		) x JOIN webhook_deliveries d ON d.id = x.due_id JOIN webhooks w ON w.id = d.webhook_id
		WHERE x.n <= ? ORDER BY d.next_attempt_at, d.id LIMIT ?`, args...)
	if err != nil {
		return nil, domain.Op("Store.DueWebhookDeliveries", err)
	}
	val, err := scanDeliveries(rows)
	return val, domain.Op("Store.DueWebhookDeliveries", err)
}

// RecordWebhookAttempt records how an attempt went: delivered, or tried
// again after retry (failed for good when retry is 0).
func (s *Store) RecordWebhookAttempt(ctx context.Context, id int64, status int, attemptErr error, retry time.Duration) error {
	now := s.tasks.Now()
	return domain.Op("Store.RecordWebhookAttempt", s.tasks.WriteTx(ctx, func(tx *sql.Tx) error {
		if attemptErr == nil {
			_, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1, last_status = ?, last_error = '',
				delivered_at = ? WHERE id = ?`, status, tasks.Stamp(now), id)
			return err
		}
		next, state := tasks.Stamp(now.Add(retry)), DeliveryPending
		if retry == 0 {
			state = DeliveryFailed
		}
		msg := attemptErr.Error()
		if len(msg) > 500 {
			msg = msg[:500]
		}
		_, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1, last_status = ?, last_error = ?,
			next_attempt_at = ? WHERE id = ?`, state, status, msg, next, id)
		return err
	}))
}
