package tasks

import (
	"database/sql"
	"encoding/json"
	"errors"
	"maps"
	"slices"

	"annotate/internal/domain"
)

// scales defines imported scales in the project's settings.
func (im *importer) scales(scales []domain.Scale) error {
	if len(scales) == 0 {
		return nil
	}
	var raw string
	if err := im.q.QueryRowContext(im.ctx, `SELECT settings FROM projects WHERE id = ?`, im.project).Scan(&raw); err != nil {
		return err
	}
	set, err := decodeSettings(raw)
	if err != nil {
		return err
	}
	changed := false
	for _, sc := range scales {
		i := slices.IndexFunc(set.Scales, func(x domain.Scale) bool { return x.Name == sc.Name })
		if i < 0 {
			set.Scales = append(set.Scales, sc)
			im.stats.Scales++
			changed = true
			continue
		}
		old, _ := json.Marshal(set.Scales[i])
		now, _ := json.Marshal(sc)
		if string(old) == string(now) {
			continue
		}
		im.change(domain.Change{Kind: domain.ChangeMetadata, Where: "scale " + sc.Name, Old: string(old), New: string(now)})
		if im.opts.Update {
			set.Scales[i] = sc
			changed = true
		}
	}
	if !changed {
		return nil
	}
	if err := set.Validate(); err != nil {
		return err
	}
	b, _ := json.Marshal(set)
	_, err = im.q.ExecContext(im.ctx, `UPDATE projects SET settings = ? WHERE id = ?`, string(b), im.project)
	return err
}

// scores writes a label's scale values, checking each against the
// project's scales: an undefined scale, a scale of the other level or a
// value out of range is an error naming the field.
func (w *labelWriter) scores(r *domain.LabelRecord, aid, sentID int64, level string, scores map[string]any, who string) error {
	if err := w.flush(); err != nil { // the assignment may be waiting
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(scores)) {
		sc, ok := w.settings.Scale(name)
		if !ok {
			return domain.Errorf(domain.EInvalid, "%s: scores.%s: the project defines no scale %q (define it in a {\"scales\":[...]} line or the project settings)", r.Source, name, name)
		}
		if sc.Level != level {
			return domain.Errorf(domain.EInvalid, "%s: scores.%s: the scale is given per %s, not per %s", r.Source, name, sc.Level, level)
		}
		v, err := sc.ScoreValue(scores[name])
		if err != nil {
			return domain.Errorf(domain.EInvalid, "%s: scores.%s: %s", r.Source, name, domain.ErrorMessage(err))
		}
		var cur string
		err = w.im.q.QueryRowContext(w.im.ctx, `SELECT value FROM scale_scores WHERE assignment_id = ? AND sentence_id = ? AND scale = ?`, aid, sentID, name).Scan(&cur)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			w.im.stats.Scores++
		case err != nil:
			return err
		case cur == v:
			continue
		default:
			w.im.change(domain.Change{Kind: domain.ChangeLabel, Where: who + " scale " + name, Old: cur, New: v})
			if !w.im.opts.Update {
				continue
			}
		}
		if err := writeScore(w.im.ctx, w.im.q, aid, sentID, name, v); err != nil {
			return err
		}
	}
	return nil
}
