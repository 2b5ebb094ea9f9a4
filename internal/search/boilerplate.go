package search

// Issue-template boilerplate: what a reporter fills in or leaves from a
// template (HTML comments, checklists, "Describe the bug" headings) and
// environment dumps (OS, browser, compiler and package versions, pip
// freeze). Their words are the same in every issue, so they pull version
// printers, entry modules and other hubs to the top; the task's own words
// are the rest.

import "strings"

var (
	htmlCommentRE = lazyRegexp(`(?s)<!--.*?-->`)
	checklistRE   = lazyRegexp(`^\s*[-*+]\s+\[[ xX]\]`)
	// headingRE is a line that is only a heading: Markdown #, wholly
	// bold, or a few words ending in a colon.
	headingRE = lazyRegexp(`^\s*(#{1,6}\s+[^#\n]*|\*\*[^*\n]+\*\*:?|__[^_\n]+__:?|[A-Z][A-Za-z-]*( [A-Za-z-]+){0,3}:)\s*$`)
	// versionRE is a version number: 1.2, v3.4.5, 2.0.0-rc1.
	versionRE = lazyRegexp(`\bv?\d+\.\d+(\.\d+)*([-+.]?[A-Za-z0-9]+)?\b`)
	// pinRE is a pinned package (pip freeze, requirements): name==1.2.3.
	pinRE = lazyRegexp(`^\s*[-*]?\s*[A-Za-z][\w.-]*\s*(==|===|@)\s*\S+\s*$`)
	// envKeyRE is an environment line keyed by what it describes.
	envKeyRE = lazyRegexp(`(?i)^\s*[-*]?\s*(os|operating system|platform|browser|device|arch|architecture|kernel|distro|distribution|shell|terminal|compiler|environment|system)\b[^:\n]{0,30}:`)
	// urlRE is a web address; repoPathRE is the repository path in a code
	// host's link to a file (…/blob/REF/PATH#L12, …/-/blame/REF/PATH), its
	// line anchor kept.
	urlRE      = lazyRegexp(`\bhttps?://[^\s<>()\[\]"'` + "`" + `]+`)
	repoPathRE = lazyRegexp(`/(?:-/)?(?:blob|tree|raw|blame)/[^/]+/([^#?]+(?:#L\d+)?)`)
	// versionPrinterRE is a line of a snippet that prints versions for an
	// issue template's "Versions" section: `print("astropy",
	// astropy.__version__)`, `sklearn.show_versions()`, `sys.version`,
	// `platform.platform()`.
	versionPrinterRE = lazyRegexp(`__version__|\bshow_versions\s*\(|\bsys\.version\b|\bplatform\.(platform|python_version|system|release|machine)\s*\(`)
	// bannerRE is a line that names something and then its version:
	// "Python 3.10.12 (main, Jun 11 2023) [GCC 11.3.0]", "numpy: 1.25.2".
	bannerRE = lazyRegexp(`^\s*[-*]?\s*[A-Za-z][\w.-]*:?\s+v?\d+\.\d+`)
	// frameLineRE is a stack frame, which a version-like path must not hide.
	frameLineRE = lazyRegexp(`(?i)(\bfile\s+"|\bat\s+\S+[:(]|\.\w+:\d+)`)
)

// StripBoilerplate removes issue-template boilerplate from task text:
// HTML comments, checklist lines, heading-only lines after the first
// (the title) that hold no code-shaped word, and environment lines (short
// lines with a version number and no code, pinned packages, lines keyed
// by OS, platform, browser or compiler), and web addresses: a link to a
// file in a code host keeps its repository path, any other link goes (its
// host and path words, github, com, pull, are in every issue and, as
// import paths, in every Go file). Stack frames, paths and lines with
// inline code are kept.
func StripBoilerplate(text string) string {
	text = htmlCommentRE().ReplaceAllString(text, "\n")
	text = urlRE().ReplaceAllStringFunc(text, func(u string) string {
		if m := repoPathRE().FindStringSubmatch(u); m != nil {
			return m[1]
		}
		return " "
	})
	lines := strings.Split(text, "\n")
	out := lines[:0]
	inFence := false
	for i, line := range lines {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
		} else if i > 0 && isBoilerplateLine(line, inFence) {
			continue
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// isBoilerplateLine reports whether one line is boilerplate; in a fenced
// block only pinned packages and version lines are (code has headings'
// shape: `else:`).
func isBoilerplateLine(line string, inFence bool) bool {
	t := strings.TrimSpace(line)
	if t == "" || strings.Contains(t, "`") || strings.Contains(t, "/") || frameLineRE().MatchString(t) {
		return false
	}
	if pinRE().MatchString(t) || versionPrinterRE().MatchString(t) {
		return true
	}
	// A short line that names something and its version, whatever
	// follows it: an interpreter's banner, a package list's row.
	if bannerRE().MatchString(t) && len(strings.Fields(t)) <= maxBannerWords && !hasCodeShaped(t) {
		return true
	}
	if !inFence && (checklistRE().MatchString(t) || envKeyRE().MatchString(t)) {
		return true
	}
	if !inFence && headingRE().MatchString(t) {
		return !hasCodeShaped(t)
	}
	// A short line with a version number and no code: "jq version 1.6",
	// "- Day.js Version 1.10.1", "Python 3.8.5".
	if versionRE().MatchString(t) && len(strings.Fields(t)) <= maxEnvLineWords && !strings.ContainsAny(t, "(){}=;<>[]") {
		return true
	}
	return false
}

// hasCodeShaped reports whether a line holds a code-shaped word.
func hasCodeShaped(t string) bool {
	for _, id := range identRE().FindAllString(t, -1) {
		if codeShaped(id) {
			return true
		}
	}
	return false
}
