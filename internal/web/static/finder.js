// grit explore: the go-to-file (t) and go-to-symbol (s, Ctrl-K) finders.
// Files are matched here, fuzzily, from the tree; symbols by the server
// (/api/find) over every definition of the index.
import { el, clear } from "./code.js";
import { api } from "./net.js";
import { $, select } from "./app.js";
import { treeFiles } from "./tree.js";

let mode = null;  // "files" or "symbols" while open
let items = [];   // the shown matches: {label, sub, sel}
let cursor = 0;
let seq = 0;      // drops answers to older keystrokes

export function finderOpen() { return mode !== null; }

export function initFinder() {
  const input = $("finder-input");
  input.addEventListener("input", () => update());
  input.addEventListener("keydown", (ev) => {
    if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
      ev.preventDefault();
      move(ev.key === "ArrowDown" ? 1 : -1);
    } else if (ev.key === "Enter") {
      ev.preventDefault();
      pick(cursor);
    } else if (ev.key === "Escape") {
      ev.preventDefault();
      closeFinder();
    }
  });
  $("finder").addEventListener("click", (ev) => { if (ev.target.id === "finder") closeFinder(); });
}

export function openFinder(which, text) {
  mode = which;
  $("finder").classList.remove("hidden");
  $("finder-title").textContent = which === "files" ? "Go to file" : "Go to symbol";
  const input = $("finder-input");
  input.placeholder = which === "files" ? "Type part of a path" : "Type part of a definition's name";
  input.value = text || "";
  input.focus();
  update();
}

export function closeFinder() {
  mode = null;
  $("finder").classList.add("hidden");
}

// score is a subsequence match favouring runs, word starts and the last
// path component (as explore.FuzzyScore does for symbols).
export function score(pattern, s) {
  const p = pattern.toLowerCase(), t = s.toLowerCase();
  const base = s.lastIndexOf("/") + 1;
  let sc = 0, pi = 0, prev = -2;
  for (let i = 0; i < t.length && pi < p.length; i++) {
    if (t[i] !== p[pi]) continue;
    sc += 1;
    if (i === prev + 1) sc += 4;
    if (i === 0 || "/._-".includes(s[i - 1])) sc += 6;
    if (i >= base) sc += 2;
    prev = i;
    pi++;
  }
  return pi === p.length ? sc : -1;
}

async function update() {
  const q = $("finder-input").value.trim();
  const my = ++seq;
  let next = [];
  let note = "";
  if (mode === "files") {
    let t;
    try { t = await treeFiles(); } catch (e) { note = e.message; }
    if (t) {
      const scored = [];
      for (const f of t.files) {
        const s = q ? score(q, f.path) : 0;
        if (s >= 0) scored.push([s, f]);
      }
      scored.sort((a, b) => b[0] - a[0] || a[1].path.length - b[1].path.length);
      next = scored.slice(0, 50).map(([, f]) => ({ label: f.path, sub: f.defs + " defs", sel: { path: f.path, def: null } }));
      note = `${scored.length} file${scored.length === 1 ? "" : "s"}`;
    }
  } else if (q) {
    try {
      const r = await api("/api/find", { q });
      next = r.matches.map((d) => ({ label: d.qname, sub: `${d.kind} · ${d.path}:${d.start_line}`, sel: { path: d.path, def: d } }));
      note = r.total > r.matches.length ? `${r.matches.length} of ${r.total} matches` : `${r.total} match${r.total === 1 ? "" : "es"}`;
    } catch (e) { note = e.message; }
  } else {
    note = "Type part of a name: get_adapter, Session.send, sesssend…";
  }
  if (my !== seq || !mode) return;
  items = next;
  cursor = 0;
  $("finder-note").textContent = note;
  const ul = $("finder-list");
  clear(ul);
  items.forEach((it, i) => {
    const li = el("li", "f-item" + (i === 0 ? " active" : ""));
    li.setAttribute("role", "option");
    li.appendChild(el("span", "f-label", it.label));
    li.appendChild(el("span", "f-sub", it.sub));
    li.addEventListener("click", () => pick(i));
    ul.appendChild(li);
  });
}

function move(d) {
  const lis = $("finder-list").children;
  if (!lis.length) return;
  lis[cursor].classList.remove("active");
  cursor = (cursor + d + lis.length) % lis.length;
  lis[cursor].classList.add("active");
  lis[cursor].scrollIntoView({ block: "nearest" });
}

function pick(i) {
  const it = items[i];
  if (!it) return;
  closeFinder();
  select(it.sel, { tab: "code" });
}
