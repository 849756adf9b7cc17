package tasks

import (
	"encoding/json"
	"fmt"

	"annotate/internal/domain"
)

func decodeSettings(raw string) (domain.Settings, error) {
	s := domain.DefaultSettings()
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		return s, fmt.Errorf("project settings: %w", err)
	}
	return s, nil
}
