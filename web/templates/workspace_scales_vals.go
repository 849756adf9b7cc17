package templates

import (
	"encoding/json"
	"strconv"
)

// scaleVals are the extra fields a scale's select posts.
func scaleVals(scale string, sentence int64) string {
	b, _ := json.Marshal(map[string]string{"scale": scale, "sentence": strconv.FormatInt(sentence, 10)})
	return string(b)
}
