// grit explore: the page. Plain DOM, no framework, no inline handlers (CSP).
// Untrusted text (source, paths, model replies) only ever goes through
// textContent, never innerHTML.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);

  const state = {
    status: null,
    version: null,
    hits: [],
    active: -1,      // keyboard cursor in the results
    lastQuery: null, // what the shown results are for
    sel: null,       // {def, body}: the selected definition
    symbols: [],
    tab: "symbols",
    modelAbort: null,
    proposal: null,  // the last replacement the model proposed
  };

  // ---------- small helpers ----------

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  let toastTimer = null;
  function toast(msg) {
    const t = $("toast");
    t.textContent = msg;
    t.classList.remove("hidden");
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => t.classList.add("hidden"), 5000);
  }

  async function api(path, params) {
    const u = new URL(path, location.origin);
    for (const [k, v] of Object.entries(params || {})) {
      if (v !== undefined && v !== null && v !== "") u.searchParams.set(k, v);
    }
    const r = await fetch(u, { credentials: "same-origin", headers: { Accept: "application/json" } });
    const body = await r.json().catch(() => ({ error: r.statusText }));
    if (!r.ok) throw new Error(body.error || r.statusText);
    return body;
  }

  async function post(path, body, signal) {
    const r = await fetch(path, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body || {}),
      signal: signal,
    });
    return r;
  }

  function langOf(path) {
    const ext = (path.split(".").pop() || "").toLowerCase();
    if (ext === "py" || ext === "pyi") return "python";
    if (ext === "go") return "go";
    if (["js", "mjs", "cjs", "jsx", "ts", "tsx", "mts", "cts"].includes(ext)) return "js";
    if (["rs", "java", "c", "h", "cc", "cpp", "hpp", "rb"].includes(ext)) return "c";
    return "";
  }

  function fmtScore(v) {
    if (v === 0) return "0";
    const a = Math.abs(v);
    return a >= 100 ? v.toFixed(0) : a >= 10 ? v.toFixed(1) : v.toFixed(2);
  }

  function shortPath(p, max) {
    if (!p || p.length <= max) return p;
    return "…" + p.slice(p.length - max + 1);
  }

  // Byte offset → JS string index for text (UTF-8 bytes vs UTF-16 units).
  function byteIndexer(text) {
    const map = [];
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

  // padded shows a definition's source with its first line at its file
  // column (the index's bytes start at the definition, not the line).
  function padded(def, text) {
    const pad = " ".repeat(Math.max(0, Math.min(def.start_col || 0, 200)));
    return { text: pad + text, shift: pad.length };
  }

  // ---------- highlighter ----------

  const KW = {
    python: "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case self cls",
    go: "break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var nil true false iota",
    js: "break case catch class const continue debugger default delete do else export extends finally for function if import in instanceof let new of return super switch this throw try typeof var void while with yield async await null undefined true false static get set interface type enum implements private public protected readonly",
    c: "if else for while do return break continue switch case default struct enum union typedef static const void int char long short unsigned signed float double bool true false null nullptr class public private protected new delete fn let mut impl trait pub use mod match self Self def end module",
  };
  const KWSET = {};
  for (const k in KW) KWSET[k] = new Set(KW[k].split(" "));

  // tokenize returns [{s, e, c}] (string indices, class) for the interesting tokens.
  function tokenize(text, lang) {
    const toks = [];
    if (!lang) return toks;
    const kws = KWSET[lang] || KWSET.c;
    const hashComment = lang === "python";
    const slashComment = lang !== "python";
    let i = 0;
    const n = text.length;
    let prevWord = "";
    while (i < n) {
      const ch = text[i];
      // comments
      if ((hashComment && ch === "#") || (slashComment && ch === "/" && text[i + 1] === "/")) {
        let j = text.indexOf("\n", i);
        if (j < 0) j = n;
        toks.push({ s: i, e: j, c: "tok-com" });
        i = j;
        continue;
      }
      if (slashComment && ch === "/" && text[i + 1] === "*") {
        let j = text.indexOf("*/", i + 2);
        j = j < 0 ? n : j + 2;
        toks.push({ s: i, e: j, c: "tok-com" });
        i = j;
        continue;
      }
      // strings
      if (ch === '"' || ch === "'" || ch === "`") {
        let j;
        if (lang === "python" && text.substr(i, 3) === ch + ch + ch) {
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
        prevWord = "";
        continue;
      }
      // numbers
      if (/[0-9]/.test(ch) && (i === 0 || !/[\w]/.test(text[i - 1]))) {
        let j = i + 1;
        while (j < n && /[\w.]/.test(text[j])) j++;
        toks.push({ s: i, e: j, c: "tok-num" });
        i = j;
        continue;
      }
      // words
      if (/[A-Za-z_$]/.test(ch)) {
        let j = i + 1;
        while (j < n && /[\w$]/.test(text[j])) j++;
        const w = text.slice(i, j);
        if (kws.has(w)) {
          toks.push({ s: i, e: j, c: "tok-kw" });
        } else if (prevWord === "def" || prevWord === "func" || prevWord === "function" || prevWord === "fn") {
          toks.push({ s: i, e: j, c: "tok-fn" });
        } else if (prevWord === "class" || prevWord === "type" || prevWord === "struct" || prevWord === "interface") {
          toks.push({ s: i, e: j, c: "tok-ty" });
        } else if (text[j] === "(") {
          toks.push({ s: i, e: j, c: "tok-fn" });
        }
        prevWord = w;
        i = j;
        continue;
      }
      if (!/\s/.test(ch) && ch !== "(" && ch !== ")") prevWord = ch === "*" ? prevWord : "";
      i++;
    }
    return toks;
  }

  // renderCode fills container (a .code grid) with line numbers from
  // firstLine and highlighted text; [markS, markE) (string indices) is marked.
  function renderCode(container, text, lang, firstLine, markS, markE) {
    clear(container);
    const gutter = el("pre", "gutter");
    const src = el("pre", "src");
    const lines = text.split("\n").length;
    const nums = [];
    for (let k = 0; k < lines; k++) nums.push(String((firstLine || 1) + k));
    gutter.textContent = nums.join("\n");
    const toks = tokenize(text, lang);
    const hasMark = markS !== undefined && markS !== null && markE > markS;
    // Boundaries: token edges and mark edges.
    const cuts = new Set([0, text.length]);
    for (const t of toks) { cuts.add(t.s); cuts.add(t.e); }
    if (hasMark) { cuts.add(markS); cuts.add(markE); }
    const points = Array.from(cuts).filter((x) => x >= 0 && x <= text.length).sort((a, b) => a - b);
    let ti = 0;
    let firstMark = null;
    for (let p = 0; p < points.length - 1; p++) {
      const a = points[p], b = points[p + 1];
      if (a === b) continue;
      while (ti < toks.length && toks[ti].e <= a) ti++;
      const tok = ti < toks.length && toks[ti].s <= a && toks[ti].e >= b ? toks[ti] : null;
      const inMark = hasMark && a >= markS && b <= markE;
      const piece = text.slice(a, b);
      if (!tok && !inMark) {
        src.appendChild(document.createTextNode(piece));
        continue;
      }
      const span = el("span", (tok ? tok.c : "") + (inMark ? " hl-mark" : ""), piece);
      if (inMark && !firstMark) firstMark = span;
      src.appendChild(span);
    }
    container.appendChild(gutter);
    container.appendChild(src);
    return firstMark;
  }

  // ---------- status and the clone job ----------

  async function refreshStatus() {
    let st;
    try {
      st = await api("/api/status");
    } catch (e) {
      toast("status: " + e.message);
      return;
    }
    state.status = st;
    const name = st.root ? st.root.split("/").filter(Boolean).pop() : "no repository";
    $("repo-name").textContent = name;
    $("repo").title = st.root || "";
    $("repo-stats").textContent = st.ready
      ? `${st.files.toLocaleString()} files · ${st.defs.toLocaleString()} definitions · ${shortPath(st.source || st.root, 60)}`
      : "";
    $("model-spec").textContent = st.model || "ollama (default model)";
    const dl = $("recent-list");
    clear(dl);
    for (const r of st.recent || []) {
      const o = el("option");
      o.value = r.source;
      o.textContent = r.root;
      dl.appendChild(o);
    }
    const job = st.job;
    const box = $("job");
    const running = job && (job.phase === "cloning" || job.phase === "indexing");
    if (job && (running || job.phase === "error")) {
      box.classList.remove("hidden");
      box.classList.toggle("error", job.phase === "error");
      $("job-phase").textContent = job.phase === "error" ? "failed" : job.phase;
      $("job-msg").textContent = job.error || job.message || job.source;
      const pct = job.total > 0 ? Math.round((100 * job.done) / job.total) : running ? 8 : 100;
      $("job-fill").style.width = pct + "%";
      if (running && job.total > 0) $("job-msg").textContent = `${job.message || job.source} — ${job.done}/${job.total} files`;
    } else {
      box.classList.add("hidden");
    }
    $("clone-btn").disabled = !!running;
    if (st.ready && st.version !== state.version) {
      const first = state.version === null;
      state.version = st.version;
      if (!first) {
        toast("Now exploring " + (st.source || st.root));
        resetSelection();
        state.hits = [];
        renderResults(null);
        if ($("q").value.trim()) runSearch();
      }
    }
    clearTimeout(refreshStatus.timer);
    refreshStatus.timer = setTimeout(refreshStatus, running || !st.ready ? 600 : 10000);
  }

  $("clone-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const source = $("clone-input").value.trim();
    if (!source) { $("clone-input").focus(); return; }
    const r = await post("/api/clone", { source });
    const body = await r.json().catch(() => ({}));
    if (!r.ok) { toast(body.error || r.statusText); return; }
    $("clone-input").value = "";
    refreshStatus();
  });

  // ---------- theme ----------

  function applyTheme(t) {
    if (t) document.documentElement.setAttribute("data-theme", t);
    else document.documentElement.removeAttribute("data-theme");
  }
  applyTheme(localStorage.getItem("grit-theme"));
  $("theme-btn").addEventListener("click", () => {
    const cur = document.documentElement.getAttribute("data-theme") ||
      (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");
    const next = cur === "dark" ? "light" : "dark";
    localStorage.setItem("grit-theme", next);
    applyTheme(next);
  });

  // ---------- search and results ----------

  const SIGNALS = ["symbol", "path", "content", "lexical", "spread", "recency", "traceback", "file", "definition_boost", "test_penalty"];
  const SIGNAL_LABEL = { definition_boost: "definition", test_penalty: "test penalty" };

  async function runSearch() {
    const q = $("q").value.trim();
    const tb = $("tb").value.trim();
    if (!q && !tb) return;
    state.lastQuery = currentQuery();
    $("results-meta").textContent = "";
    $("results-meta").appendChild(el("span", "spinner"));
    $("results-meta").appendChild(document.createTextNode("Searching…"));
    let res;
    try {
      res = await api("/api/search", { q, traceback: tb, k: 20 });
    } catch (e) {
      $("results-meta").textContent = e.message;
      return;
    }
    state.hits = res.hits || [];
    renderResults(res);
    if (state.hits.length) {
      setActive(0);
      select(0);
    }
    if (!$("task").value || $("task").dataset.auto === "1") {
      $("task").value = q;
      $("task").dataset.auto = "1";
    }
  }

  function renderResults(res) {
    const list = $("results");
    clear(list);
    const meta = $("results-meta");
    clear(meta);
    $("results-empty").classList.toggle("hidden", !!(res && (state.hits.length || res.note)));
    if (!res) return;
    meta.appendChild(el("span", "", `${state.hits.length} result${state.hits.length === 1 ? "" : "s"} in ${res.took_ms.toFixed(1)} ms`));
    for (const t of (res.tokens || []).slice(0, 12)) meta.appendChild(el("span", "token", t));
    if (res.note) meta.appendChild(el("span", "", res.note));
    let max = 0;
    for (const h of state.hits) for (const s of SIGNALS) max = Math.max(max, Math.abs(h.signals[s] || 0));
    state.hits.forEach((h, i) => list.appendChild(renderHit(h, i, max)));
  }

  function renderHit(h, i, max) {
    const d = h.def;
    const li = el("li", "result");
    li.id = "hit-" + i;
    li.dataset.index = String(i);
    const head = el("div", "r-head");
    head.appendChild(el("span", "r-rank", "#" + (i + 1)));
    const name = el("span", "r-name");
    name.appendChild(el("span", "badge " + d.kind, d.kind));
    if (h.stale) name.appendChild(el("span", "badge stale", "changed"));
    name.appendChild(document.createTextNode(d.qname));
    head.appendChild(name);
    head.appendChild(el("span", "r-score", fmtScore(h.score)));
    head.appendChild(el("span", "r-loc", `${d.path}:${d.start_line}  ·  bytes ${d.start}–${d.end}`));
    li.appendChild(head);
    const sig = el("div", "signals");
    for (const s of SIGNALS) {
      const v = h.signals[s] || 0;
      if (!v) continue;
      sig.appendChild(el("span", "sig-name", SIGNAL_LABEL[s] || s));
      const track = el("div", "sig-track");
      const bar = el("div", "sig-bar" + (v < 0 ? " neg" : ""));
      bar.style.width = Math.max(2, (100 * Math.abs(v)) / (max || 1)) + "%";
      if (v > 0) bar.style.background = `var(--sig-${s})`;
      track.appendChild(bar);
      track.title = (h.explain || []).filter((x) => x.toLowerCase().includes(s.split("_")[0])).join("\n");
      sig.appendChild(track);
      sig.appendChild(el("span", "sig-val", fmtScore(v)));
    }
    li.appendChild(sig);
    const code = el("div", "code");
    renderCode(code, padded(d, h.body + (h.truncated ? "\n…" : "")).text, langOf(d.path), d.start_line);
    li.appendChild(code);
    li.addEventListener("click", () => { setActive(i); select(i); });
    return li;
  }

  function setActive(i) {
    if (!state.hits.length) return;
    i = Math.max(0, Math.min(state.hits.length - 1, i));
    const prev = $("hit-" + state.active);
    if (prev) prev.classList.remove("active");
    state.active = i;
    const cur = $("hit-" + i);
    if (cur) {
      cur.classList.add("active");
      cur.scrollIntoView({ block: "nearest" });
    }
  }

  function select(i) {
    const h = state.hits[i];
    if (!h) return;
    document.querySelectorAll(".result.selected").forEach((n) => n.classList.remove("selected"));
    const li = $("hit-" + i);
    if (li) li.classList.add("selected");
    selectDef(h.def, h.body);
  }

  // Enter in the search box runs a new query, or selects the highlighted
  // result when the query is the one shown.
  $("search-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    if (state.hits.length && state.lastQuery === currentQuery()) {
      select(state.active);
      return;
    }
    runSearch();
  });

  function currentQuery() {
    return $("q").value.trim() + "\u0000" + $("tb").value.trim();
  }

  // ---------- selection: every tab follows ----------

  function resetSelection() {
    state.sel = null;
    $("sel-title").textContent = "Nothing selected";
    $("sel-sub").textContent = "Select a result to see its file's symbols, syntax tree, edges, and to ask a model.";
    for (const id of ["symbols", "sym-code", "sym-head", "ast-tree", "ast-code", "ast-head", "edges", "reply", "diff", "model-note", "verdict"]) clear($(id));
  }

  async function selectDef(def, body) {
    if (body === undefined || body === null) {
      try {
        body = (await api("/api/file", { path: def.path, start: def.start, end: def.end })).text;
      } catch (e) {
        toast(e.message);
        return;
      }
    }
    state.sel = { def, body };
    state.proposal = null;
    $("apply-btn").disabled = true;
    $("sel-title").textContent = def.qname;
    $("sel-sub").textContent = `${def.kind} · ${def.path}:${def.start_line}–${def.end_line} · bytes [${def.start}, ${def.end})`;
    clear($("reply")); clear($("diff")); clear($("verdict")); clear($("reply-meta"));
    loadSymbols(def);
    loadAST(def);
    loadEdges(def);
  }

  async function loadSymbols(def) {
    const ul = $("symbols");
    clear(ul);
    let res;
    try {
      res = await api("/api/symbols", { path: def.path });
    } catch (e) {
      ul.appendChild(el("li", "placeholder", e.message));
      return;
    }
    if (!state.sel || state.sel.def !== def) return;
    state.symbols = res.symbols;
    setCount("tab-symbols", res.symbols.length);
    for (const s of res.symbols) {
      const li = el("li", "sym" + (s.id === def.id ? " selected" : ""));
      li.dataset.id = String(s.id);
      const sig = el("span", "sym-sig");
      const depth = s.parent ? s.qname.split(".").length - 1 : 0;
      for (let k = 0; k < depth; k++) sig.appendChild(el("span", "indent"));
      sig.appendChild(el("span", "badge " + s.kind, s.kind));
      sig.appendChild(document.createTextNode(s.signature || s.qname));
      li.appendChild(sig);
      li.appendChild(el("span", "sym-line", "L" + s.start_line));
      li.title = `${s.qname}  [${s.start}, ${s.end})` + (s.doc ? "\n" + s.doc : "");
      li.addEventListener("click", () => showSymbol(s, li));
      ul.appendChild(li);
    }
    showSymbolBody(def, state.sel.body);
  }

  async function showSymbol(s, li) {
    document.querySelectorAll(".sym.selected").forEach((n) => n.classList.remove("selected"));
    li.classList.add("selected");
    try {
      const f = await api("/api/file", { path: s.path, start: s.start, end: s.end });
      showSymbolBody(s, f.text);
    } catch (e) {
      toast(e.message);
    }
  }

  function showSymbolBody(s, text) {
    const head = $("sym-head");
    clear(head);
    head.appendChild(el("strong", "", s.qname));
    head.appendChild(el("span", "", `${s.path} · lines ${s.start_line}–${s.end_line} · bytes [${s.start}, ${s.end}) · ${s.end - s.start} B`));
    renderCode($("sym-code"), padded(s, text).text, langOf(s.path), s.start_line);
  }

  function setCount(tabId, n) {
    const t = $(tabId);
    let c = t.querySelector(".count");
    if (!c) { c = el("span", "count"); t.appendChild(c); }
    c.textContent = String(n);
  }

  // ---------- AST ----------

  async function loadAST(def) {
    const tree = $("ast-tree");
    clear(tree);
    tree.appendChild(el("div", "placeholder", "Parsing…"));
    renderASTSource(def, null);
    let root;
    try {
      root = await api("/api/ast", { path: def.path, start: def.start, end: def.end });
    } catch (e) {
      clear(tree);
      tree.appendChild(el("div", "placeholder", e.message));
      return;
    }
    if (!state.sel || state.sel.def !== def) return;
    clear(tree);
    let count = 0;
    const build = (n, depth) => {
      count++;
      const li = el("li");
      const row = el("div", "node-row" + (n.named ? "" : " anon") + (n.error ? " err" : ""));
      const kids = n.children || [];
      const caret = el("span", "caret", kids.length ? "▾" : "");
      row.appendChild(caret);
      if (n.field) row.appendChild(el("span", "node-field", n.field + ":"));
      row.appendChild(el("span", "node-type", n.named ? n.type : JSON.stringify(n.type)));
      row.appendChild(el("span", "node-range", `[${n.start}, ${n.end})  ${n.start_pos[0]}:${n.start_pos[1]}`));
      li.appendChild(row);
      caret.addEventListener("click", (ev) => { ev.stopPropagation(); li.classList.toggle("collapsed"); caret.textContent = li.classList.contains("collapsed") ? "▸" : "▾"; });
      row.addEventListener("click", () => {
        tree.querySelectorAll(".node-row.selected").forEach((x) => x.classList.remove("selected"));
        row.classList.add("selected");
        renderASTSource(def, n);
      });
      if (kids.length) {
        const ul = el("ul");
        for (const k of kids) ul.appendChild(build(k, depth + 1));
        li.appendChild(ul);
        if (depth >= 3 && kids.length) { li.classList.add("collapsed"); caret.textContent = "▸"; }
      }
      return li;
    };
    const ul = el("ul");
    ul.appendChild(build(root, 0));
    tree.appendChild(ul);
    setCount("tab-ast", count);
  }

  function renderASTSource(def, node) {
    const text = state.sel ? state.sel.body : "";
    const head = $("ast-head");
    clear(head);
    head.appendChild(el("strong", "", node ? node.type : def.qname));
    head.appendChild(el("span", "", node ? `bytes [${node.start}, ${node.end}) · ${node.end - node.start} B` : "select a node to highlight its source"));
    let ms = null, me = null;
    const view = padded(def, text);
    if (node) {
      const idx = byteIndexer(text);
      ms = idx(node.start - def.start) + view.shift;
      me = idx(node.end - def.start) + view.shift;
    }
    const mark = renderCode($("ast-code"), view.text, langOf(def.path), def.start_line, ms, me);
    if (mark) mark.scrollIntoView({ block: "nearest" });
  }

  // ---------- edges ----------

  async function loadEdges(def) {
    const box = $("edges");
    clear(box);
    let e;
    try {
      e = await api("/api/edges", { path: def.path, def: def.id });
    } catch (err) {
      box.appendChild(el("div", "placeholder", err.message));
      return;
    }
    if (!state.sel || state.sel.def !== def) return;
    const total = e.callers.length + e.callees.length + e.imports.length + e.refers.length + e.importers.length;
    setCount("tab-edges", total);
    section(box, `Callers of ${def.name}`, e.callers, (x) => x.label, (x) => `${x.path}:${x.line}`, "call sites");
    section(box, `Callees of ${def.name}`, e.callees, (x) => x.label, (x) => `${x.path}:${x.line}`, "call sites");
    section(box, "Imports", e.imports.map((im) => ({
      label: im.module + (im.names && im.names.length ? " → " + im.names.join(", ") : "") + (im.alias ? " as " + im.alias : ""),
      path: im.resolved, line: im.line, weight: null, ext: !im.resolved,
    })), (x) => x.label, (x) => (x.ext ? "external" : x.path) + " · line " + x.line, "");
    section(box, `${def.path} refers to`, e.refers, (x) => x.path, (x) => (x.names || []).slice(0, 4).join(", "), "weight");
    section(box, `Refers to ${def.path}`, e.importers, (x) => x.path, (x) => (x.names || []).slice(0, 4).join(", "), "weight");
  }

  function section(box, title, items, label, sub, unit) {
    const sec = el("div", "edge-section");
    const h = el("h3", "", title);
    h.appendChild(el("span", "count", String(items.length)));
    sec.appendChild(h);
    if (!items.length) {
      sec.appendChild(el("div", "edge-none", "none"));
      box.appendChild(sec);
      return;
    }
    const max = Math.max(...items.map((x) => x.weight || 0), 1);
    const ul = el("ul", "edge-list");
    for (const x of items) {
      const nav = !!(x.def || x.path);
      const li = el("li", "edge" + (nav ? " nav" : ""));
      const lab = el("span", "edge-label", label(x));
      const s = sub(x);
      if (s) lab.appendChild(el("span", "muted", s));
      li.appendChild(lab);
      const track = el("div", "sig-track");
      if (x.weight !== null && x.weight !== undefined) {
        const bar = el("div", "sig-bar");
        bar.style.width = Math.max(2, (100 * x.weight) / max) + "%";
        track.appendChild(bar);
        track.title = `${fmtScore(x.weight)} ${unit}`;
      }
      li.appendChild(track);
      li.appendChild(el("span", "edge-w", x.weight !== null && x.weight !== undefined ? fmtScore(x.weight) : ""));
      if (nav) {
        li.tabIndex = 0;
        const go = () => navigate(x);
        li.addEventListener("click", go);
        li.addEventListener("keydown", (ev) => { if (ev.key === "Enter") go(); });
      }
      ul.appendChild(li);
    }
    sec.appendChild(ul);
    box.appendChild(sec);
  }

  // navigate selects an edge's definition, or the first definition of its file.
  async function navigate(x) {
    clearResultSelection();
    if (x.def) { selectDef(x.def); return; }
    try {
      const res = await api("/api/symbols", { path: x.path });
      if (res.symbols.length) { selectDef(res.symbols[0]); return; }
      toast(x.path + " has no definitions");
    } catch (e) {
      toast(e.message);
    }
  }

  function clearResultSelection() {
    document.querySelectorAll(".result.selected").forEach((n) => n.classList.remove("selected"));
  }

  // ---------- model ----------

  function note(kind, paragraphs, commands) {
    const box = $("model-note");
    clear(box);
    const n = el("div", "note " + kind);
    for (const p of paragraphs) n.appendChild(el("p", "", p));
    for (const c of commands || []) n.appendChild(el("pre", "", c));
    box.appendChild(n);
  }

  function renderDiff(text) {
    const box = $("diff");
    clear(box);
    for (const line of text.split("\n")) {
      let cls = "diff-line";
      if (line.startsWith("+++") || line.startsWith("---")) cls += " file";
      else if (line.startsWith("@@")) cls += " hunk";
      else if (line.startsWith("+")) cls += " add";
      else if (line.startsWith("-")) cls += " del";
      box.appendChild(el("div", cls, line || " "));
    }
  }

  $("task").addEventListener("input", () => { $("task").dataset.auto = "0"; });

  $("model-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (!state.sel) { toast("Select a function first."); return; }
    const task = $("task").value.trim();
    if (!task) { $("task").focus(); return; }
    const def = state.sel.def;
    clear($("reply")); clear($("diff")); clear($("verdict")); clear($("model-note")); clear($("reply-meta"));
    state.proposal = null;
    $("apply-btn").disabled = true;
    $("ask-btn").disabled = true;
    $("stop-btn").disabled = false;
    const ctl = new AbortController();
    state.modelAbort = ctl;
    try {
      const r = await post("/api/model", { def_id: def.id, task }, ctl.signal);
      if (!r.ok) {
        const b = await r.json().catch(() => ({}));
        note("err", [b.error || r.statusText]);
        return;
      }
      await readSSE(r.body, (event, data) => {
        if (event === "delta") {
          $("reply").appendChild(document.createTextNode(data.text));
          $("reply").scrollTop = $("reply").scrollHeight;
        } else if (event === "result") {
          onProposal(def, data);
        } else if (event === "error") {
          note("err", [data.error].concat(data.help ? [data.help] : []), data.commands || []);
        }
      });
    } catch (e) {
      if (e.name !== "AbortError") note("err", [e.message]);
    } finally {
      $("ask-btn").disabled = false;
      $("stop-btn").disabled = true;
      state.modelAbort = null;
    }
  });

  $("stop-btn").addEventListener("click", () => { if (state.modelAbort) state.modelAbort.abort(); });

  function onProposal(def, data) {
    const v = $("verdict");
    v.textContent = data.verdict.accept ? "passes the quality monitor" : "rejected: " + data.verdict.reason;
    v.className = "verdict " + (data.verdict.accept ? "accept" : "reject");
    $("reply-meta").textContent = data.model ? `· ${data.model} · ${data.usage.output_tokens || 0} tokens out` : "";
    if (data.diff) renderDiff(data.diff);
    if (data.verdict.accept) {
      state.proposal = { def, replacement: data.replacement, hash: data.file_hash, task: $("task").value.trim() };
      $("apply-btn").disabled = false;
    }
  }

  async function readSSE(stream, onEvent) {
    const reader = stream.getReader();
    const dec = new TextDecoder();
    let buf = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += dec.decode(value, { stream: true });
      let k;
      while ((k = buf.indexOf("\n\n")) >= 0) {
        const chunk = buf.slice(0, k);
        buf = buf.slice(k + 2);
        let event = "message", data = "";
        for (const line of chunk.split("\n")) {
          if (line.startsWith("event: ")) event = line.slice(7);
          else if (line.startsWith("data: ")) data += line.slice(6);
        }
        if (data) onEvent(event, JSON.parse(data));
      }
    }
  }

  $("apply-btn").addEventListener("click", async () => {
    const p = state.proposal;
    if (!p) return;
    $("apply-btn").disabled = true;
    const r = await post("/api/apply", { def_id: p.def.id, replacement: p.replacement, file_hash: p.hash, task: p.task });
    const b = await r.json().catch(() => ({}));
    if (!r.ok) { note("err", [b.error || r.statusText]); $("apply-btn").disabled = false; return; }
    state.proposal = null;
    note("ok", [`Applied to ${b.path} (snapshot ${b.snapshot}). Undo restores it.`]);
    if (b.def) selectDef(b.def);
  });

  $("undo-btn").addEventListener("click", async () => {
    const r = await post("/api/undo", {});
    const b = await r.json().catch(() => ({}));
    if (!r.ok) { note("err", [b.error || r.statusText]); return; }
    note("ok", [`Restored ${(b.restored || []).join(", ")}.`]);
    if (state.sel) {
      const d = state.sel.def;
      try {
        const res = await api("/api/symbols", { path: d.path });
        const same = res.symbols.find((s) => s.qname === d.qname) || res.symbols[0];
        if (same) selectDef(same);
      } catch (e) { toast(e.message); }
    }
  });

  // ---------- tabs ----------

  function showTab(name) {
    state.tab = name;
    for (const t of document.querySelectorAll(".tab")) {
      const on = t.dataset.tab === name;
      t.setAttribute("aria-selected", on ? "true" : "false");
      $("panel-" + t.dataset.tab).classList.toggle("hidden", !on);
    }
  }
  for (const t of document.querySelectorAll(".tab")) t.addEventListener("click", () => showTab(t.dataset.tab));

  // ---------- keyboard ----------

  document.addEventListener("keydown", (ev) => {
    const tgt = ev.target;
    const typing = tgt instanceof HTMLTextAreaElement || (tgt instanceof HTMLInputElement && tgt.id !== "q");
    if (ev.key === "/" && !typing && tgt.id !== "q") {
      ev.preventDefault();
      $("q").focus();
      $("q").select();
      return;
    }
    if (typing || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
      if (!state.hits.length) return;
      ev.preventDefault();
      setActive(state.active + (ev.key === "ArrowDown" ? 1 : -1));
      return;
    }
    if (ev.key === "Enter" && state.hits.length && (tgt === document.body || (tgt.closest && tgt.closest(".results")))) {
      ev.preventDefault();
      select(state.active);
    }
  });

  // ---------- start ----------

  refreshStatus();
})();
