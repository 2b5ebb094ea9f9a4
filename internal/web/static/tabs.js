// grit explore: the detail tabs. Each shows the one selection (state.sel):
// Code (the whole file, the definition marked, identifiers linked), Symbols
// (the file's definitions), AST, Edges and Model.
import { el, clear, langOf, byteIndexer, renderSource } from "./code.js";
import { api } from "./net.js";
import { $, state, select, fileText, replaceURL, urlFor } from "./app.js";
import { openFinder } from "./finder.js";
import { renderEdges } from "./edges.js";
import { initModel, resetModel } from "./model.js";

export const TABS = ["code", "symbols", "ast", "edges", "model"];

export function initTabs() {
  for (const t of document.querySelectorAll(".tab")) {
    t.addEventListener("click", () => showTab(t.dataset.tab, { push: true }));
    t.addEventListener("keydown", (ev) => {
      if (ev.key !== "ArrowRight" && ev.key !== "ArrowLeft") return;
      const i = TABS.indexOf(t.dataset.tab) + (ev.key === "ArrowRight" ? 1 : -1);
      const next = TABS[(i + TABS.length) % TABS.length];
      showTab(next, { push: true });
      $("tab-" + next).focus();
    });
  }
  initModel();
}

export function showTab(name, opts) {
  state.tab = name;
  for (const t of document.querySelectorAll(".tab")) {
    const on = t.dataset.tab === name;
    t.setAttribute("aria-selected", on ? "true" : "false");
    t.tabIndex = on ? 0 : -1;
    $("panel-" + t.dataset.tab).classList.toggle("hidden", !on);
  }
  if (opts && opts.push && state.sel) replaceURL();
  if (name === "code" && state.sel) scrollCode();
  if (name === "ast" && astPending) {
    const [sel, current] = astPending;
    astPending = null;
    loadAST(sel, current);
  }
}

let shown = 0; // drops answers for an older selection
// The syntax tree of a long definition is megabytes of nodes: it is built
// when the AST tab is shown, not on every selection.
let astPending = null;

// showSelection fills the head and every tab for sel (null: nothing).
export function showSelection(sel) {
  const my = ++shown;
  const current = () => my === shown;
  const d = sel && sel.def;
  $("sel-title").textContent = d ? d.qname : sel ? sel.path : "Nothing selected";
  $("sel-sub").textContent = d
    ? `${d.kind} · ${d.path} · lines ${d.start_line}–${d.end_line}`
    : sel ? "file" + (sel.line ? ` · line ${sel.line}` : "") : "Search, pick a file (t) or a symbol (s): every tab follows what you select.";
  for (const id of ["code", "symbols", "ast-tree", "ast-code", "ast-head", "edges"]) clear($(id));
  for (const t of ["tab-symbols", "tab-ast", "tab-edges"]) setCount(t, "");
  resetModel(d);
  astPending = null;
  if (!sel) return;
  loadCode(sel, current);
  loadSymbols(sel, current);
  astPending = [sel, current];
  if (state.tab === "ast") showTab("ast");
  loadEdges(sel, current);
}

export function setCount(tabId, n) {
  const t = $(tabId);
  let c = t.querySelector(".count");
  if (!c) { c = el("span", "count"); t.appendChild(c); }
  c.textContent = n === "" ? "" : String(n);
}

// ---------- Code ----------

let view = null; // the rendered file: {line(n)}

const VIA_TITLE = {
  class: "resolved: a method of the caller's own class",
  file: "resolved: defined in this file",
  import: "resolved through this file's imports",
  name: "name-only match: the only definition with this name, or a call on another object whose name matches; nothing here proves it is the one meant",
};

async function loadCode(sel, current) {
  const box = $("code");
  box.appendChild(el("div", "placeholder", "Loading " + sel.path + "…"));
  let f, refs;
  try {
    [f, refs] = await Promise.all([fileText(sel.path), api("/api/refs", { path: sel.path }).catch(() => ({ refs: [] }))]);
  } catch (e) {
    if (!current()) return;
    clear(box);
    box.appendChild(el("div", "placeholder", e.message));
    return;
  }
  if (!current()) return;
  const idx = byteIndexer(f.text);
  const d = sel.def;
  const links = [];
  for (const r of refs.refs) {
    if (d && r.kind === "def" && r.def && r.def.id === d.id) continue;
    const link = { s: idx(r.start), e: idx(r.end), data: r };
    if (r.def) {
      link.cls = "via-" + (r.kind === "def" ? "def" : r.via || "file");
      link.title = r.kind === "def" ? `${r.def.kind} ${r.def.qname}` : `${r.def.qname} · ${r.def.path}:${r.def.start_line}\n${VIA_TITLE[r.via] || ""}`;
      link.href = urlFor({ path: r.def.path, def: r.def }, "code", state.q);
    } else if (r.path) {
      link.cls = "via-import";
      link.title = `module ${r.path}`;
      link.href = urlFor({ path: r.path }, "code", state.q);
    } else if (r.candidates) {
      link.cls = "via-unresolved";
      link.title = `not resolved: ${r.candidates} definition${r.candidates === 1 ? "" : "s"} named ${r.name} elsewhere; click to list them`;
    } else continue;
    links.push(link);
  }
  clear(box);
  const head = el("div", "code-head");
  head.appendChild(el("strong", "", f.path));
  head.appendChild(el("span", "", `${f.text.split("\n").length} lines · ${f.lang || "text"}`));
  const legend = el("span", "legend");
  legend.appendChild(el("span", "ref via-import", "resolved"));
  legend.appendChild(el("span", "ref via-name", "name only"));
  legend.appendChild(el("span", "ref via-unresolved", "unresolved"));
  head.appendChild(legend);
  box.appendChild(head);
  const src = el("div", "code whole");
  box.appendChild(src);
  view = renderSource(src, f.text, {
    lang: langOf(f.path),
    links,
    markLines: d ? [d.start_line, d.end_line] : null,
    onLink: follow,
    onLine: (n) => {
      state.sel = Object.assign({}, state.sel, { line: n });
      replaceURL();
      scrollCode();
    },
  });
  view.src = src;
  scrollCode();
}

// follow goes where a clicked identifier leads.
function follow(r) {
  if (r.def) select({ path: r.def.path, def: r.def });
  else if (r.path) select({ path: r.path, def: null });
  else if (r.candidates) openFinder("symbols", r.name);
}

// scrollCode brings the URL's line (else the definition) into view.
function scrollCode() {
  if (!view || !state.sel) return;
  for (const r of view.src.querySelectorAll(".line.target")) r.classList.remove("target");
  const n = state.sel.line || (state.sel.def ? state.sel.def.start_line : 0);
  const row = n ? view.line(n) : null;
  if (!row) return;
  if (state.sel.line) row.classList.add("target");
  const pane = $("panel-code");
  if (pane.classList.contains("hidden")) return;
  const head = pane.querySelector(".code-head");
  const below = row.getBoundingClientRect().top - pane.getBoundingClientRect().top - (head ? head.offsetHeight : 0);
  pane.scrollTop = Math.max(0, pane.scrollTop + below - pane.clientHeight / 5);
}

// ---------- Symbols ----------

async function loadSymbols(sel, current) {
  const ul = $("symbols");
  let res;
  try {
    res = await api("/api/symbols", { path: sel.path });
  } catch (e) {
    if (current()) ul.appendChild(el("li", "placeholder", e.message));
    return;
  }
  if (!current()) return;
  setCount("tab-symbols", res.symbols.length);
  if (!res.symbols.length) ul.appendChild(el("li", "placeholder", sel.path + " has no definitions the index knows."));
  for (const s of res.symbols) {
    const li = el("li", "sym" + (sel.def && s.id === sel.def.id ? " selected" : ""));
    const a = el("a", "sym-sig");
    a.href = urlFor({ path: s.path, def: s }, state.tab, state.q);
    const depth = s.parent ? s.qname.split(".").length - 1 : 0;
    for (let k = 0; k < depth; k++) a.appendChild(el("span", "indent"));
    a.appendChild(el("span", "badge " + s.kind, s.kind));
    a.appendChild(document.createTextNode(s.signature || s.qname));
    li.appendChild(a);
    li.appendChild(el("span", "sym-line", "L" + s.start_line + "–" + s.end_line));
    li.title = s.qname + (s.doc ? "\n" + s.doc : "");
    a.addEventListener("click", (ev) => {
      if (ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
      ev.preventDefault();
      select({ path: s.path, def: s });
    });
    ul.appendChild(li);
  }
}

// ---------- AST ----------

async function loadAST(sel, current) {
  const tree = $("ast-tree");
  tree.appendChild(el("div", "placeholder", "Parsing…"));
  const d = sel.def;
  let root, f;
  try {
    [root, f] = await Promise.all([api("/api/ast", d ? { path: d.path, start: d.start, end: d.end } : { path: sel.path }), fileText(sel.path)]);
  } catch (e) {
    if (!current()) return;
    clear(tree);
    tree.appendChild(el("div", "placeholder", e.message));
    return;
  }
  if (!current()) return;
  clear(tree);
  const enc = new TextEncoder().encode(f.text);
  const start = d ? d.start : 0, end = d ? d.end : enc.length;
  const text = new TextDecoder().decode(enc.subarray(start, end));
  const show = (node) => renderASTSource(d, f.path, text, start, node);
  let count = 0;
  const build = (n, depth) => {
    count++;
    const li = el("li");
    const row = el("div", "node-row" + (n.named ? "" : " anon") + (n.error ? " err" : ""));
    row.tabIndex = -1;
    const kids = n.children || [];
    const caret = el("span", "caret", kids.length ? "▾" : "");
    row.appendChild(caret);
    if (n.field) row.appendChild(el("span", "node-field", n.field + ":"));
    row.appendChild(el("span", "node-type", n.named ? n.type : JSON.stringify(n.type)));
    row.appendChild(el("span", "node-range", `L${n.start_pos[0]}:${n.start_pos[1]}–${n.end_pos[0]}:${n.end_pos[1]}`));
    li.appendChild(row);
    caret.addEventListener("click", (ev) => { ev.stopPropagation(); li.classList.toggle("collapsed"); caret.textContent = li.classList.contains("collapsed") ? "▸" : "▾"; });
    row.addEventListener("click", () => {
      tree.querySelectorAll(".node-row.selected").forEach((x) => x.classList.remove("selected"));
      row.classList.add("selected");
      show(n);
    });
    if (kids.length) {
      const ul = el("ul");
      for (const k of kids) ul.appendChild(build(k, depth + 1));
      li.appendChild(ul);
      if (depth >= 3) { li.classList.add("collapsed"); caret.textContent = "▸"; }
    }
    return li;
  };
  const ul = el("ul");
  ul.appendChild(build(root, 0));
  tree.appendChild(ul);
  setCount("tab-ast", count);
  show(null);
}

function renderASTSource(d, path, text, base, node) {
  const head = $("ast-head");
  clear(head);
  head.appendChild(el("strong", "", node ? node.type : d ? d.qname : path));
  head.appendChild(el("span", "", node ? `lines ${node.start_pos[0]}–${node.end_pos[0]}` : "select a node to mark its source"));
  const pad = d ? " ".repeat(Math.min(d.start_col || 0, 200)) : "";
  let mark = null;
  if (node) {
    const idx = byteIndexer(text);
    mark = [idx(node.start - base) + pad.length, idx(node.end - base) + pad.length];
  }
  const v = renderSource($("ast-code"), pad + text, { lang: langOf(path), firstLine: d ? d.start_line : 1, mark });
  if (v.mark) v.mark.scrollIntoView({ block: "nearest" });
}

// ---------- Edges ----------

async function loadEdges(sel, current) {
  const box = $("edges");
  let e;
  try {
    e = await api("/api/edges", { path: sel.path, def: sel.def ? sel.def.id : "" });
  } catch (err) {
    if (current()) box.appendChild(el("div", "placeholder", err.message));
    return;
  }
  if (!current()) return;
  setCount("tab-edges", e.callers.length + e.callees.length + e.imports.length + e.refers.length + e.importers.length);
  renderEdges(box, sel, e, (target) => {
    if (target.line) select(target, { tab: "code" });
    else select(target);
  });
}

