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
			name: "vote count before a full stop",
			text: "The vote was 7 to 2. The motion passed.",
			want: []string{"The vote was 7 to 2.", "The motion passed."},
		},
		{
			name: "year before a full stop",
			text: "The ordinance was approved in 2021. The council met again in May.",
			want: []string{"The ordinance was approved in 2021.", "The council met again in May."},
		},
		{
			name: "amount before a full stop",
			text: "The loss was about $2,000. The money was reinvested.",
			want: []string{"The loss was about $2,000.", "The money was reinvested."},
		},
		{
			name: "percentage before a full stop",
			text: "Sales grew by 4.5%. Margins held.",
			want: []string{"Sales grew by 4.5%.", "Margins held."},
		},
		{
			name: "item numbers end sentences",
			text: "Public comment was heard on item 3. The council then moved to item 4. It was tabled.",
			want: []string{"Public comment was heard on item 3.", "The council then moved to item 4.", "It was tabled."},
		},
		{
			name: "numbered list items on one line",
			text: "1. Approve the minutes. 2. Adopt the budget.",
			want: []string{"1. Approve the minutes.", "2. Adopt the budget."},
		},
		{
			name: "numbered list items on lines",
			text: "1. Call to order\n2. Roll call\n3. Adjournment",
			want: []string{"1. Call to order", "2. Roll call", "3. Adjournment"},
		},
		{
			name: "bulleted list after a heading",
			text: "Agenda\n- Budget hearing\n- Zoning change for 45 North Harrison Street",
			want: []string{"Agenda", "- Budget hearing", "- Zoning change for 45 North Harrison Street"},
		},
		{
			name: "council bill number mid-sentence",
			text: "Council Bill No. 5 passed. It takes effect in May.",
			want: []string{"Council Bill No. 5 passed.", "It takes effect in May."},
		},
		{
			name: "no as a word before a full stop",
			text: "Council Bill 680 was withdrawn so council voted no. A block vote passed. Resolution No. 774 was adopted.",
			want: []string{"Council Bill 680 was withdrawn so council voted no.", "A block vote passed.", "Resolution No. 774 was adopted."},
		},
		{
			name: "initials",
			text: "J. R. Smith seconded the motion. Ms. Lee abstained.",
			want: []string{"J. R. Smith seconded the motion.", "Ms. Lee abstained."},
		},
		{
			name: "time of day and month abbreviation",
			text: "The meeting starts at 7 p.m. on Jan. 18 in the chamber. Everyone may speak.",
			want: []string{"The meeting starts at 7 p.m. on Jan. 18 in the chamber.", "Everyone may speak."},
		},
		{
			name: "dotted abbreviation before a name",
			text: "The U.S. Food & Drug Administration proposed guidelines. They apply to milk.",
			want: []string{"The U.S. Food & Drug Administration proposed guidelines.", "They apply to milk."},
		},
		{
			name: "quote ending with a full stop inside",
			text: `The street will be named "Ernestine Anderson Way." She was a jazz singer.`,
			want: []string{`The street will be named "Ernestine Anderson Way."`, "She was a jazz singer."},
		},
		{
			name: "brackets",
			text: "The budget (about $1.2 million.) was approved. Staff will report back (in June).",
			want: []string{"The budget (about $1.2 million.) was approved.", "Staff will report back (in June)."},
		},
		{
			name: "sentence in brackets",
			text: "The vote passed. (Two members were absent.) The meeting ended.",
			want: []string{"The vote passed.", "(Two members were absent.)", "The meeting ended."},
		},
		{
			name: "e.g. mid-sentence",
			text: "The council has scrutinized funding before, e.g. banning equipment transfers. Oversight remains crucial.",
			want: []string{"The council has scrutinized funding before, e.g. banning equipment transfers.", "Oversight remains crucial."},
		},
		{
			name: "dialogue turn with several sentences",
			text: "Well, I'm not sure. I think the vote was 5 to 4. Let's check the record.",
			want: []string{"Well, I'm not sure.", "I think the vote was 5 to 4.", "Let's check the record."},
		},
		{
			name: "ellipsis mid-turn",
			text: "I will check... Yes, there is some in the fridge.",
			want: []string{"I will check...", "Yes, there is some in the fridge."},
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
