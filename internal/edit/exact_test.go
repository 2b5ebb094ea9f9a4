package edit

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestExact(t *testing.T) {
	tests := []struct {
		name       string
		content    string
		old, new   string
		replaceAll bool
		want       string
		wantN      int
		wantErr    error
	}{
		{"once", "a b c", "b", "B", false, "a B c", 1, nil},
		{"not found", "a b c", "x", "X", false, "", 0, ErrNotFound},
		{"twice refused", "b b", "b", "B", false, "", 2, ErrAmbiguous},
		{"replace all", "b b b", "b", "B", true, "B B B", 3, nil},
		{"replace all none", "a", "b", "B", true, "", 0, ErrNotFound},
		{"replace all non-overlapping", "aaaa", "aa", "b", true, "bb", 2, nil},
		{"empty old", "a", "", "b", false, "", 0, ErrEmptyOld},
		{"no change", "a", "a", "a", false, "", 0, ErrNoChange},
		{"delete", "keep drop keep", " drop", "", false, "keep keep", 1, nil},
		// B3: CRLF files are matched on an LF view and keep their line endings.
		{"crlf old with lf", "one\r\ntwo\r\nthree\r\n", "one\ntwo", "1\n2", false, "1\r\n2\r\nthree\r\n", 1, nil},
		{"crlf old with crlf", "one\r\ntwo\r\n", "one\r\ntwo", "1\r\n2", false, "1\r\n2\r\n", 1, nil},
		{"crlf new lines get crlf", "a\r\nb\r\n", "b", "b\nc", false, "a\r\nb\r\nc\r\n", 1, nil},
		{"crlf trailing newline in match", "a\r\nb\r\nc", "a\n", "x\n", false, "x\r\nb\r\nc", 1, nil},
		{"mixed eol only last range changes", "a\r\nb\nc", "c", "C", false, "a\r\nb\nC", 1, nil},
		{"mixed eol lf region stays lf", "a\r\nb\nc", "b\nc", "B\nC", false, "a\r\nB\nC", 1, nil},
		{"mixed eol crlf region stays crlf", "a\r\nb\nc", "a\nb", "A\nB", false, "A\r\nB\nc", 1, nil},
		{"crlf replace all", "x\r\ny\r\nx\r\ny", "x\ny", "z", true, "z\r\nz", 2, nil},
		{"lf file old with crlf", "a\nb\n", "a\r\nb", "A\r\nB", false, "A\nB\n", 1, nil},
		// B4: invalid UTF-8 is edited byte-exactly.
		{"latin1 elsewhere", "caf\xe9\nx = 1\n", "x = 1", "x = 2", false, "caf\xe9\nx = 2\n", 1, nil},
		{"latin1 kept through fffd", "s = 'caf\xe9'\n", "s = 'caf\uFFFD'", "t = 'caf\uFFFD'", false, "t = 'caf\xe9'\n", 1, nil},
		{"latin1 two bytes in order", "\xe9-\xe8", "\uFFFD-\uFFFD", "\uFFFD+\uFFFD", false, "\xe9+\xe8", 1, nil},
		{"latin1 fffd dropped", "caf\xe9!", "caf\uFFFD", "cafe", false, "cafe!", 1, nil},
		{"fffd added refused", "abc", "b", "\uFFFD", false, "", 0, ErrNewFFFD},
		{"joined bytes spell fffd", "\xef\xbfX\xbd", "X", "", false, "", 0, ErrNotUTF8},
		{"real fffd kept", "a\uFFFDb", "a\uFFFD", "x\uFFFD", false, "x\uFFFDb", 1, nil},
		{"latin1 and crlf", "caf\xe9\r\nend\r\n", "caf\uFFFD\nend", "caf\uFFFD\nEND", false, "caf\xe9\r\nEND\r\n", 1, nil},
		// B5: a BOM is outside any match and stays.
		{"bom kept", "\xef\xbb\xbfhello\n", "hello", "bye", false, "\xef\xbb\xbfbye\n", 1, nil},
		{"unicode", "naïve 日本 👍🏽", "日本", "中文", false, "naïve 中文 👍🏽", 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, n, err := Exact([]byte(tt.content), tt.old, tt.new, tt.replaceAll)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("Exact(%q, %q, %q) error = %v, want %v", tt.content, tt.old, tt.new, err, tt.wantErr)
				}
				if n != tt.wantN {
					t.Errorf("Exact(%q, %q, %q) count = %d, want %d", tt.content, tt.old, tt.new, n, tt.wantN)
				}
				return
			}
			if err != nil {
				t.Fatalf("Exact(%q, %q, %q) error: %v", tt.content, tt.old, tt.new, err)
			}
			if string(got) != tt.want || n != tt.wantN {
				t.Errorf("Exact(%q, %q, %q) = (%q, %d), want (%q, %d)", tt.content, tt.old, tt.new, got, n, tt.want, tt.wantN)
			}
		})
	}
}

func TestExactMatchErrorCount(t *testing.T) {
	_, _, err := Exact([]byte("x x x"), "x", "y", false)
	var me *MatchError
	if !errors.As(err, &me) || me.Count != 3 {
		t.Fatalf("Exact error = %v, want a MatchError with Count 3", err)
	}
	if got := err.Error(); !strings.Contains(got, "3 matches") {
		t.Errorf("Error() = %q, want it to say 3 matches", got)
	}
}

// FuzzEdit checks B2: bytes outside the match are identical, and no U+FFFD
// appears that was neither in the file nor in new_string.
func FuzzEdit(f *testing.F) {
	seeds := []struct{ content, old, new string }{
		{"a b c", "b", "B"},
		{"hello world\n", "world", "there"},
		{"one\r\ntwo\r\n", "one\ntwo", "1\n2"},
		{"a\r\nb\nc", "c", "C"},
		{"caf\xe9 x", "x", "y"},
		{"caf\xe9 x", "caf\uFFFD", "caf\uFFFD!"},
		{"\xef\xbb\xbfbom", "bom", "b"},
		{"", "a", "b"},
		{"aaa", "aa", "b"},
		{"\x00\x01\x02", "\x01", "\x03"},
		{"日本語", "本", "x"},
		{"\uffff\xbd\xbd\xbf\xbd", "\xbd\xbd", "\xef"}, // found by the fuzzer: bytes joined into U+FFFD
	}
	for _, s := range seeds {
		f.Add([]byte(s.content), []byte(s.old), []byte(s.new))
	}
	f.Fuzz(func(t *testing.T, content, oldb, newb []byte) {
		old, new := string(oldb), string(newb)
		out, n, err := Exact(content, old, new, false)
		if err != nil {
			return
		}
		if n != 1 {
			t.Fatalf("Exact succeeded with count %d, want 1", n)
		}
		if i := bytes.Index(content, oldb); i >= 0 && !bytes.Contains(content, []byte("\r\n")) {
			want := append(append(append([]byte{}, content[:i]...), newb...), content[i+len(oldb):]...)
			if !bytes.Equal(out, want) {
				t.Fatalf("Exact(%q, %q, %q) = %q, want %q", content, old, new, out, want)
			}
		}
		// Whatever view matched, a common prefix and suffix of the input
		// survive, and the change lies between them.
		p := 0
		for p < len(out) && p < len(content) && out[p] == content[p] {
			p++
		}
		s := 0
		for s < len(out)-p && s < len(content)-p && out[len(out)-1-s] == content[len(content)-1-s] {
			s++
		}
		if len(out)-p-s > len(new)*2+len(old) {
			t.Fatalf("Exact(%q, %q, %q) = %q: changed span larger than the edit", content, old, new, out)
		}
		r := []byte("\uFFFD")
		if bytes.Count(out, r) > bytes.Count(content, r)+bytes.Count(newb, r) {
			t.Fatalf("Exact(%q, %q, %q) = %q: wrote a U+FFFD that was not there", content, old, new, out)
		}
	})
}

func BenchmarkExact(b *testing.B) {
	content := bytes.Repeat([]byte("def f(x):\n    return x + 1\n\n"), 2000)
	content = append(content, []byte("def target():\n    pass\n")...)
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		if _, _, err := Exact(content, "def target():\n    pass", "def target():\n    return 2", false); err != nil {
			b.Fatal(err)
		}
	}
}
