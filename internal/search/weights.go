package search

// Every weight, share and budget of the ranking, each with its reason.

// Signal weights. Each signal is normalised to 0–1 first; the weight says how
// much one full unit of it is worth against the others.
const (
	// WeightSymbol: a definition named in the task is usually what it is about.
	WeightSymbol = 0.8
	// WeightPath: file names are chosen by topic, but a path word in prose is weak evidence.
	WeightPath = 0.4
	// WeightContent: rare task identifiers used inside a definition tie it to the task.
	WeightContent = 0.6
	// WeightLexical: BM25 over all words is the strongest general-purpose relevance signal.
	WeightLexical = 1.1
	// WeightSpread: neighbours of strong hits often hold the fix, but only by association.
	WeightSpread = 0.5
	// WeightRecency: recently touched code is where new bugs live, a mild prior.
	WeightRecency = 0.3
	// WeightTraceback: a frame in the repository is direct evidence of where the failure runs.
	WeightTraceback = 1.0
	// WeightFile: a definition in the best-ranked file is likelier the one
	// to change than an equally scored one in a weak file: a file's score
	// gathers evidence (its path, its other definitions, the graph) that
	// no single definition's own score sees.
	WeightFile = 0.6
	// WeightPackage: a file among the best files gets a small share of the
	// scores of the others in its directory: the fix tends to sit in the
	// package the evidence gathers in (see packageEvidence).
	WeightPackage = 0.2
	// WeightSize: of a file's functions, the long ones are the likelier to
	// need the change (they do more; fixes land in them more often than
	// their share), so length orders those the task's words cannot.
	WeightSize = 0.1

	// ConstructorShare is what a called class's constructor (__init__,
	// __new__) gets of the class's own symbol score: calling a class runs
	// its constructor, so `Permutation([[0, 1], [0, 1]])` failing points
	// into Permutation.__new__ as much as at the class.
	ConstructorShare = 0.9

	// DispatchShare is what a method named after a class the task names
	// (`_print_SeqFormula` for SeqFormula) gets of the class's symbol
	// score: printers and visitors write a class's behaviour there.
	DispatchShare = 0.8

	// DefinitionBoost multiplies the symbol signal of the site that defines a
	// name written as code in the task, so it ranks above the sites that only use it.
	DefinitionBoost = 2.0
	// TestDemotion scales test files' scores when the task is not about tests:
	// tests mention everything they test, so they would crowd out the code.
	// Documentation, examples, benchmarks and setup scripts (IsAuxPath) are
	// demoted the same way unless the task names them: they mention the
	// whole API and are rarely where a bug is fixed.
	TestDemotion = 0.5

	// CodeTermWeight is how much more a lexical term counts when the task
	// writes it as code (a code span, a snippet, an error message) than as a
	// prose word: identifiers are chosen, prose words are incidental.
	CodeTermWeight = 2.0
	// TitleTermWeight multiplies the lexical weight of the words of the
	// task's first line when it reads as a title (short, followed by more
	// text): an issue's title is its densest statement of what is wrong.
	TitleTermWeight = 1.5
	// ErrorMessageScore is the traceback signal of the definition whose
	// source holds a quoted error message: it is almost always the raise site.
	ErrorMessageScore = 0.9

	// MoreNamesDecay: a file that defines several of the things the task
	// names or describes (MatrixSymbol, Identity and ZeroMatrix for a
	// report about an identity matrix of symbols) is likelier the place
	// than one that defines a single match. A file's symbol signal is its
	// best definition's plus each further distinct name's score times
	// MoreNamesDecay to the power of its place, so a long tail of weak
	// matches in a big module adds at most one more best match's worth.
	MoreNamesDecay = 0.5

	// LexicalFileShare and LexicalSymbolShare split a file's lexical signal
	// between the file as a whole (path and content) and its best definition.
	LexicalFileShare   = 0.7
	LexicalSymbolShare = 0.3
	// DefLexicalFileShare is the file's part of a definition's lexical
	// signal; the rest is the definition's own text. The file part only
	// orders definitions across files, which the file signal (WeightFile)
	// already does; within a file the definition's own words decide.
	DefLexicalFileShare = 0.4

	// ScatteredNameShare is what a multi-word definition name matched
	// by the task's words keeps when those words are scattered over the
	// text rather than written together: "exit code" names ExitCode, but
	// "pluggy" in a pip freeze and "dir" three paragraphs later do not name
	// _PLUGGY_DIR. A long issue covers many names' words by chance.
	ScatteredNameShare = 0.5
	// nameWindow is how far apart (in the task's token stream) consecutive
	// words of a name may be and still count as written together.
	nameWindow = 3

	// PathStemShare is the file name's part of the path signal; the
	// directories get the rest: a file is named for its topic, its
	// directories for a broader area.
	PathStemShare = 0.7

	// TracebackDecay is what each frame further out from the innermost
	// in-repository frame keeps of the traceback signal.
	TracebackDecay = 0.8
	// SpreadSecondHop is what a second hop along the graph keeps.
	SpreadSecondHop = 0.5
)

// Budgets.
const (
	maxQueryBytes    = 100 << 10 // longer task text is cut (and the Note says so)
	maxContentTerms  = 10        // rarest identifiers given to ripgrep
	spreadSeeds      = 10        // definitions whose neighbours get spread
	spreadSeeds2     = 3         // of those, the ones whose neighbours' neighbours do
	fillerFiles      = 10        // best files whose every definition is ranked, evidence or not
	packagePool      = 20        // best files whose scores their directory's other files share
	maxErrorFrags    = 4         // literal fragments of error messages searched
	maxLiterals      = 6         // hyphenated names of a task searched as string literals
	minLiteralLen    = 5         // shorter hyphenated words are ranges and initials ("a-b", "x-y"); a locale (zh-cn) is five
	maxLiteralFiles  = 3         // a name quoted in more code files than this is vocabulary, not a pointer
	maxLiteralScan   = 256       // files read for one literal; a name whose words are in more is not worth the reads
	maxTitleBytes    = 160       // a longer first line is prose, not a title
	maxTermPositions = 64        // positions of one term kept for the name-window check
	generatedPool    = 40        // best files whose bytes are checked for generator marks
	generatedHead    = 1 << 10   // a generator's banner is at the top of its output
	minifiedScan     = 32 << 10  // bytes read to look for a minified line
	minifiedLine     = 2000      // no one writes a line this long; minifiers and bundlers do
	genericStemFiles = 3         // a file name this many files repeat names a role (index, mod), not a topic
	minCompoundLen   = 5         // shorter joins of two words are mostly accidents ("a to" → ato)
	maxEnvLineWords  = 8         // a longer line with a version number is a sentence, not a dump
	maxBannerWords   = 12        // an interpreter's banner with its build date and compiler fits in this
	minorLangShare   = 0.1       // a language with this small a share of the source files is the repository's tooling
)

// OperationShare is what a special method gets, times its file's standing
// (the file signal's 0–1), when the task performs the operation it
// implements: `str(e)` runs __str__, `a == b` runs __eq__, instantiating a
// class runs __init__ and __new__. The best files' implementation of that
// operation is where such a bug is usually fixed.
const OperationShare = 0.5

// DispatchFileShare is what a dispatch method for a class the task names
// (`_print_Sum` for Sum, see DispatchShare) gets, times its file's
// standing, added to its symbol signal: among a printer's hundred
// `_print_*` methods, the one for the named class is the one to read.
const DispatchFileShare = 0.5

// fileSpreadEdges is how many of a seed file's heaviest edges spread.
const fileSpreadEdges = 10

// Context weights of identifiers. A name the reporter writes as code in
// prose (`Session.resolve_redirects`, `latex()`) or that an error message
// quotes points at the code to change. A name that only appears in example
// code is mostly the public API the example calls (Symbol, mkdir, print):
// good lexical evidence, weak evidence of the location, and it never gets the
// definition boost. A plain prose word may be a name ("simplify fails"), but
// prose is noisy.
const (
	ProseWeight   = 0.35
	SnippetWeight = 0.6
)

// CommonNameDiscount scales the symbol weight of names that look like the
// language's builtins or its standard library's everyday calls (len, print,
// mkdir, join): a repository that happens to define one is rarely what an
// issue calling it is about.
const CommonNameDiscount = 0.3

// RecentCommits is how many commits the recency signal looks back.
const RecentCommits = 10
