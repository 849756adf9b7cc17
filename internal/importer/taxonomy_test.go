package importer_test

import (
	"testing"

	"annotate/internal/domain"
	"annotate/internal/importer"
)

func TestAmbiguityCode(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		// Every code and name of the taxonomy.
		{"deduction", "deduction"},
		{"Common-sense inference", "commonsense_inference"},
		{"Value-based inference", "value_inference"},
		{"Hypernymy/Generalization", "hypernymy"},
		{"Other evaluability issue", "other_evaluability"},
		// Spellings found in the MADISSE release.
		{"Inference-commonsense", "commonsense_inference"},
		{"Inference-value-based", "value_inference"},
		{"Linguistic ambiguity: Lexical", "lexical_ambiguity"},
		{"linguistic ambiguity: Lexical", "lexical_ambiguity"},
		{"Linguistic ambiguity: Structural", "structural_ambiguity"},
		{"Structural ambiguity", "structural_ambiguity"},
		{"Semantic relations: Synonymy", "synonymy"},
		{"Semantic relations:Synonymy", "synonymy"},
		{"Semantic relations: Hypernymy/Generalization", "hypernymy"},
		{"Other meaning phenomena", "other_meaning"},
		{"Other context phenomena", "other_context"},
		{"Other context phenoma", "other_context"},
		{"Non-assertion", "non_assertion"},
		{"Conflation", "conflation"},
		{"Decontextualization", "decontextualization"},
		{"Vagueness", "vagueness"},
		// Not types.
		{"", ""},
		{"-", ""},
		{"irony", ""},
		{"Linguistic ambiguity: Structural /Conflation", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := importer.AmbiguityCode(tt.in)
			if got != tt.want || ok != (tt.want != "") {
				t.Errorf("AmbiguityCode(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
			}
		})
	}
	for _, typ := range domain.AmbiguityTypes {
		for _, s := range []string{typ.Code, typ.Name} {
			if got, _ := importer.AmbiguityCode(s); got != typ.Code {
				t.Errorf("AmbiguityCode(%q) = %q, want %q", s, got, typ.Code)
			}
		}
	}
}

func TestErrorTypeCode(t *testing.T) {
	tests := []struct {
		preset, in, want string
	}{
		{"tofueval", "Extrinsic Information", "extrinsic_information"},
		{"tofueval", "Mis-Referencing", "mis_referencing"},
		{"tofueval", "Tense/Modality Error", "tense_modality"},
		{"tofueval", "stating opinion as fact", "opinion_as_fact"},
		{"tofueval", "nuanced_meaning_shift", "nuanced_meaning_shift"},
		{"frank", "OutE", "OutE"},
		{"frank", "Out-of-article error", "OutE"},
		{"tofueval", "OutE", ""},
		{"nope", "Contradiction", ""},
	}
	for _, tt := range tests {
		got, ok := importer.ErrorTypeCode(tt.preset, tt.in)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("ErrorTypeCode(%q, %q) = %q, %v; want %q", tt.preset, tt.in, got, ok, tt.want)
		}
	}
	for preset, types := range domain.ErrorPresets {
		for _, typ := range types {
			if got, _ := importer.ErrorTypeCode(preset, typ.Name); got != typ.Code {
				t.Errorf("%s: name %q gives %q, want %q", preset, typ.Name, got, typ.Code)
			}
		}
	}
}
