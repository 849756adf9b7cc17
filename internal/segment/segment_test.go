package segment_test

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"annotate/internal/segment"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		language string
		want     []string
	}{
		{
			name: "empty",
			text: " \n\t ",
			want: nil,
		},
		{
			name: "plain",
			text: "The council met on Monday. It approved the budget.",
			want: []string{"The council met on Monday.", "It approved the budget."},
		},
		{
			name: "title abbreviation",
			text: "Dr. Smith presented the report. The council thanked him.",
			want: []string{"Dr. Smith presented the report.", "The council thanked him."},
		},
		{
			name: "dotted abbreviation mid-sentence",
			text: "The U.S. economy grew last year. Exports rose.",
			want: []string{"The U.S. economy grew last year.", "Exports rose."},
		},
		{
			name: "decimal",
			text: "Revenue rose 3.5 percent to $1.2 billion. Costs fell.",
			want: []string{"Revenue rose 3.5 percent to $1.2 billion.", "Costs fell."},
		},
		{
			name: "quote closes the sentence",
			text: `He said, "We will vote tonight." The motion passed.`,
			want: []string{`He said, "We will vote tonight."`, "The motion passed."},
		},
		{
			name: "question and exclamation",
			text: "Is the item on the agenda? Yes! It is item 12.",
			want: []string{"Is the item on the agenda?", "Yes!", "It is item 12."},
		},
		{
			name: "blank line ends a heading",
			text: "Send this page to someone via email\n\nActivists met in London. They painted the road.",
			want: []string{"Send this page to someone via email", "Activists met in London.", "They painted the road."},
		},
		{
			name: "line ending a sentence splits",
			text: "Revenue rose to $1.2 billion, up from $1.0 billion.\nAs Vicki mentioned, costs fell",
			want: []string{"Revenue rose to $1.2 billion, up from $1.0 billion.", "As Vicki mentioned, costs fell"},
		},
		{
			name: "single line break does not split",
			text: "The motion was\nseconded by Councilmember Price.",
			want: []string{"The motion was\nseconded by Councilmember Price."},
		},
		{
			name:     "unknown language falls back to English",
			text:     "Mr. Jones spoke. Ms. Lee replied.",
			language: "xx",
			want:     []string{"Mr. Jones spoke.", "Ms. Lee replied."},
		},
		{
			name:     "chinese",
			text:     "会议于周一举行。预算获得通过！下一步是什么？",
			language: "zh",
			want:     []string{"会议于周一举行。", "预算获得通过！", "下一步是什么？"},
		},
		{
			name:     "chinese closing quote stays",
			text:     "他说：“我们今晚投票。”动议通过了。",
			language: "zh-Hans",
			want:     []string{"他说：“我们今晚投票。”", "动议通过了。"},
		},
		{
			name:     "chinese run of enders",
			text:     "真的吗？！是的。",
			language: "zh-CN",
			want:     []string{"真的吗？！", "是的。"},
		},
		{
			name:     "chinese semicolon does not split",
			text:     "收入增长了3.5%；成本下降了。",
			language: "zh",
			want:     []string{"收入增长了3.5%；成本下降了。"},
		},
		{
			name:     "chinese line breaks split",
			text:     "第一部分\n会议开始了。",
			language: "zh_TW",
			want:     []string{"第一部分", "会议开始了。"},
		},
		{
			name:     "chinese without final punctuation",
			text:     "会议开始了。主席发言",
			language: "zh",
			want:     []string{"会议开始了。", "主席发言"},
		},
		{
			name:     "japanese corner brackets",
			text:     "彼は「賛成です。」と言った。会議は終わった。",
			language: "ja",
			want:     []string{"彼は「賛成です。」と言った。", "会議は終わった。"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := segment.Split(tt.text, tt.language)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Split(%q, %q)\n got %q\nwant %q", tt.text, tt.language, got, tt.want)
			}
		})
	}
}

// stripSpace removes every whitespace rune, for comparing text up to layout.
func stripSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

func FuzzSplit(f *testing.F) {
	for _, s := range []string{
		"Dr. Smith arrived. He sat down.",
		"会议于周一举行。预算获得通过！",
		"",
		"...",
		"a.\n\n\nb",
	} {
		f.Add(s, "en")
		f.Add(s, "zh")
	}
	f.Fuzz(func(t *testing.T, text, language string) {
		got := segment.Split(text, language)
		for i, s := range got {
			if s == "" || s != strings.TrimSpace(s) || !utf8.ValidString(s) {
				t.Fatalf("sentence %d is empty or untrimmed or invalid: %q", i, s)
			}
		}
		if joined, want := stripSpace(strings.Join(got, "")), stripSpace(strings.ToValidUTF8(text, "\uFFFD")); joined != want {
			t.Fatalf("sentences do not cover the input:\n got %q\nwant %q", joined, want)
		}
	})
}
