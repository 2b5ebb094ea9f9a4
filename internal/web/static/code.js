// grit explore: source rendering. A small tokenizer per language family
// (keywords, strings, comments, numbers, called names) and a renderer that
// draws a file one line per row with line numbers, the index's links on
// identifiers, and a range of lines marked. Text only ever goes through
// textContent.

export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
}

export function langOf(path) {
  const ext = (path.split(".").pop() || "").toLowerCase();
  if (ext === "py" || ext === "pyi") return "python";
  if (ext === "go") return "go";
  if (["js", "mjs", "cjs", "jsx", "ts", "tsx", "mts", "cts"].includes(ext)) return "js";
  if (["rs", "java", "c", "h", "cc", "cpp", "hpp", "rb", "cs", "kt", "swift", "php", "scala"].includes(ext)) return "c";
  return "";
}

// byteIndexer maps a UTF-8 byte offset of text to its JS string index.
export function byteIndexer(text) {
  const map = new Int32Array(text.length * 3 + 8);
  let b = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.codePointAt(i);
    const n = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    for (let k = 0; k < n; k++) map[b + k] = i;
    b += n;
    if (c >= 0x10000) i++;
  }
  map[b] = text.length;
  return (off) => (off <= 0 ? 0 : off >= b ? text.length : map[off]);
}

const KW = {
  python: "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case self cls",
  go: "break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var nil true false iota",
  js: "break case catch class const continue debugger default delete do else export extends finally for function if import in instanceof let new of return super switch this throw try typeof var void while with yield async await null undefined true false static get set interface type enum implements private public protected readonly",
  c: "if else for while do return break continue switch case default struct enum union typedef static const void int char long short unsigned signed float double bool true false null nullptr class public private protected new delete fn let mut impl trait pub use mod match self Self def end module",
};
const KWSET = {};
for (const k in KW) KWSET[k] = new Set(KW[k].split(" "));

// tokenize returns [{s, e, c}] (string indices, class), in order.
export function tokenize(text, lang) {
  const toks = [];
  if (!lang) return toks;
  const kws = KWSET[lang] || KWSET.c;
  const hash = lang === "python";
  const slash = !hash;
  const n = text.length;
  let i = 0, prev = "";
  while (i < n) {
    const ch = text[i];
    if ((hash && ch === "#") || (slash && ch === "/" && text[i + 1] === "/")) {
      let j = text.indexOf("\n", i);
      if (j < 0) j = n;
      toks.push({ s: i, e: j, c: "tok-com" });
      i = j;
      continue;
    }
    if (slash && ch === "/" && text[i + 1] === "*") {
      let j = text.indexOf("*/", i + 2);
      j = j < 0 ? n : j + 2;
      toks.push({ s: i, e: j, c: "tok-com" });
      i = j;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === "`") {
      let j;
      if (hash && text.substr(i, 3) === ch + ch + ch) {
        j = text.indexOf(ch + ch + ch, i + 3);
        j = j < 0 ? n : j + 3;
      } else if (ch === "`") {
        j = text.indexOf("`", i + 1);
        j = j < 0 ? n : j + 1;
      } else {
        j = i + 1;
        while (j < n && text[j] !== ch && text[j] !== "\n") {
          if (text[j] === "\\") j++;
          j++;
        }
        j = Math.min(n, j + 1);
      }
      toks.push({ s: i, e: j, c: "tok-str" });
      i = j;
      prev = "";
      continue;
    }
    if (ch >= "0" && ch <= "9" && (i === 0 || !/\w/.test(text[i - 1]))) {
      let j = i + 1;
      while (j < n && /[\w.]/.test(text[j])) j++;
      toks.push({ s: i, e: j, c: "tok-num" });
      i = j;
      continue;
    }
    if (/[A-Za-z_$]/.test(ch)) {
      let j = i + 1;
      while (j < n && /[\w$]/.test(text[j])) j++;
      const w = text.slice(i, j);
      if (kws.has(w)) toks.push({ s: i, e: j, c: "tok-kw" });
      else if (prev === "def" || prev === "func" || prev === "function" || prev === "fn") toks.push({ s: i, e: j, c: "tok-fn" });
      else if (prev === "class" || prev === "type" || prev === "struct" || prev === "interface") toks.push({ s: i, e: j, c: "tok-ty" });
      else if (text[j] === "(") toks.push({ s: i, e: j, c: "tok-fn" });
      prev = w;
      i = j;
      continue;
    }
    if (!/\s/.test(ch) && ch !== "(" && ch !== ")") prev = ch === "*" ? prev : "";
    i++;
  }
  return toks;
}

// renderSource fills box with text, one row per line:
//   opts.firstLine  number of the first line (default 1)
//   opts.lang       tokenizer
//   opts.links      [{s, e, cls, title, data}] string ranges drawn as links
//   opts.markLines  [from, to] line numbers to shade (a definition)
//   opts.mark       [s, e] string range to highlight (an AST node)
//   opts.onLink     (data) => void
//   opts.onLine     (n) => void, a click on a line number
// It returns {line(n): the row of line n, mark: the first marked span}.
export function renderSource(box, text, opts) {
  clear(box);
  const first = opts.firstLine || 1;
  const toks = tokenize(text, opts.lang);
  const links = (opts.links || []).slice().sort((a, b) => a.s - b.s);
  const cuts = new Set([0, text.length]);
  for (const t of toks) { cuts.add(t.s); cuts.add(t.e); }
  for (const l of links) { cuts.add(l.s); cuts.add(l.e); }
  const mark = opts.mark && opts.mark[1] > opts.mark[0] ? opts.mark : null;
  if (mark) { cuts.add(mark[0]); cuts.add(mark[1]); }
  const points = Array.from(cuts).filter((x) => x >= 0 && x <= text.length).sort((a, b) => a - b);
  const rows = [];
  const frag = document.createDocumentFragment();
  let row = null, src = null, n = first;
  const newRow = () => {
    row = el("div", "line");
    row.dataset.n = String(n);
    const num = el("span", "ln", n);
    num.setAttribute("aria-hidden", "true");
    row.appendChild(num);
    src = el("span", "lt");
    row.appendChild(src);
    if (opts.markLines && n >= opts.markLines[0] && n <= opts.markLines[1]) row.classList.add("in-def");
    rows.push(row);
    frag.appendChild(row);
    n++;
  };
  newRow();
  let ti = 0, li = 0, firstMark = null;
  for (let p = 0; p < points.length - 1; p++) {
    const a = points[p], b = points[p + 1];
    if (a === b) continue;
    while (ti < toks.length && toks[ti].e <= a) ti++;
    while (li < links.length && links[li].e <= a) li++;
    const tok = ti < toks.length && toks[ti].s <= a && toks[ti].e >= b ? toks[ti] : null;
    const link = li < links.length && links[li].s <= a && links[li].e >= b ? links[li] : null;
    const inMark = mark && a >= mark[0] && b <= mark[1];
    const parts = text.slice(a, b).split("\n");
    parts.forEach((piece, k) => {
      if (k > 0) newRow();
      if (!piece) return;
      if (!tok && !link && !inMark) {
        src.appendChild(document.createTextNode(piece));
        return;
      }
      const span = el(link ? "a" : "span", [tok ? tok.c : "", link ? "ref " + link.cls : "", inMark ? "hl-mark" : ""].join(" ").trim(), piece);
      if (link) {
        span.href = link.href || "#";
        if (link.title) span.title = link.title;
        span.addEventListener("click", (ev) => {
          if (ev.ctrlKey || ev.metaKey || ev.shiftKey) return; // open in a new tab
          ev.preventDefault();
          if (opts.onLink) opts.onLink(link.data);
        });
      }
      if (inMark && !firstMark) firstMark = span;
      src.appendChild(span);
    });
  }
  box.appendChild(frag);
  if (opts.onLine) {
    box.onclick = (ev) => {
      const ln = ev.target.closest && ev.target.closest(".ln");
      if (ln) opts.onLine(Number(ln.parentElement.dataset.n));
    };
  }
  return { line: (k) => rows[k - first] || null, mark: firstMark };
}
