// grit explore: the ranked results, one line per hit with a strip of its
// signals; a hit expands to its signal bars and source.
import { el, clear, langOf, renderSource } from "./code.js";
import { post, toast } from "./net.js";
import { $, state, select, pushURL, setSide, urlFor } from "./app.js";

// The signals in search.Signals.List order, each with its own colour (style.css --sig-*).
export const SIGNALS = ["symbol", "definition_boost", "path", "content", "lexical", "spread", "recency", "traceback", "file", "package", "size", "test_penalty"];
const LABEL = { definition_boost: "definition", test_penalty: "test penalty" };

let active = -1; // the keyboard cursor

export function fmt(v) {
  if (v === 0) return "0";
  const a = Math.abs(v);
  return a >= 100 ? v.toFixed(0) : a >= 10 ? v.toFixed(1) : v.toFixed(2);
}

export function initResults() {
  $("search-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    runSearch($("q").value.trim(), { push: true, select: true });
  });
  $("results").addEventListener("keydown", (ev) => {
    const li = ev.target.closest(".result");
    if (!li) return;
    if (ev.key === "Enter") { ev.preventDefault(); choose(Number(li.dataset.index)); }
    if (ev.key === " " || ev.key === "ArrowRight" || ev.key === "ArrowLeft") { ev.preventDefault(); toggle(li, ev.key !== "ArrowLeft"); }
  });
}

// runSearch asks the server (in a POST body: a pasted log is too long for
// a URL) and shows the ranking; select picks the first hit.
export async function runSearch(q, opts) {
  const tb = $("tb").value.trim();
  setSide("results");
  if (!q && !tb) {
    state.q = "";
    showResults(null);
    $("results-meta").textContent = "Type a task, a symbol's name or an error message first; or paste a traceback below.";
    $("results-meta").classList.add("warn");
    $("q").focus();
    return;
  }
  $("results-meta").classList.remove("warn");
  $("results-meta").textContent = "Searching…";
  state.q = q;
  let res;
  try {
    const r = await post("/api/search", { q, traceback: tb, k: 20 });
    res = await r.json().catch(() => ({ error: r.statusText }));
    if (!r.ok) throw new Error(res.error || r.statusText);
  } catch (e) {
    showResults(null);
    $("results-meta").textContent = e.message;
    $("results-meta").classList.add("warn");
    return;
  }
  showResults(res);
  if (opts.push) pushURL();
  if (opts.select && res.hits.length) {
    setActive(0, false);
    choose(0, opts.push ? "replace" : false);
  }
}

export function showResults(res) {
  state.results = res;
  active = -1;
  const list = $("results");
  clear(list);
  const meta = $("results-meta");
  clear(meta);
  meta.classList.remove("warn");
  $("results-empty").classList.toggle("hidden", !!res);
  if (!res) return;
  const hits = res.hits || [];
  meta.appendChild(el("span", "", `${hits.length} result${hits.length === 1 ? "" : "s"} in ${res.took_ms.toFixed(1)} ms`));
  for (const t of (res.tokens || []).slice(0, 10)) meta.appendChild(el("span", "token", t));
  if (res.note) meta.appendChild(el("span", "note-inline", res.note));
  const max = Math.max(...hits.map((h) => positive(h.signals)), 1e-9);
  hits.forEach((h, i) => list.appendChild(renderHit(h, i, max)));
}

function positive(sig) {
  let s = 0;
  for (const k of SIGNALS) if ((sig[k] || 0) > 0) s += sig[k];
  return s;
}

function renderHit(h, i, max) {
  const d = h.def;
  const li = el("li", "result");
  li.id = "hit-" + i;
  li.dataset.index = String(i);
  li.tabIndex = i === 0 ? 0 : -1;
  li.setAttribute("role", "option");
  const row = el("div", "r-row");
  const caret = el("button", "r-caret", "▸");
  caret.type = "button";
  caret.tabIndex = -1;
  caret.setAttribute("aria-label", "Show the signals and source");
  caret.addEventListener("click", (ev) => { ev.stopPropagation(); toggle(li); });
  row.appendChild(caret);
  row.appendChild(el("span", "r-rank", i + 1));
  row.appendChild(el("span", "badge " + d.kind, d.kind));
  const name = el("a", "r-name", d.qname);
  name.href = urlFor({ path: d.path, def: d }, "code", state.q);
  name.tabIndex = -1;
  row.appendChild(name);
  if (h.stale) row.appendChild(el("span", "badge stale", "changed"));
  row.appendChild(el("span", "r-loc", `${d.path}:${d.start_line}`));
  row.appendChild(el("span", "r-score", fmt(h.score)));
  li.appendChild(row);
  li.appendChild(strip(h.signals, max));
  li.addEventListener("click", (ev) => {
    if (ev.target.closest(".r-more")) return;
    if (ev.target === name && (ev.ctrlKey || ev.metaKey || ev.shiftKey)) return;
    ev.preventDefault();
    setActive(i, false);
    choose(i);
  });
  return li;
}

// strip is the compact per-signal bar: each signal's share of the best
// hit's positive total, in its colour; penalties hang below in red.
function strip(sig, max) {
  const s = el("div", "r-strip");
  const title = [];
  for (const k of SIGNALS) {
    const v = sig[k] || 0;
    if (!v) continue;
    title.push(`${LABEL[k] || k} ${v > 0 ? "+" : ""}${fmt(v)}`);
    if (v <= 0) continue;
    const seg = el("span", "seg sig-" + k);
    seg.style.width = (100 * v) / max + "%";
    s.appendChild(seg);
  }
  s.title = title.join("  ·  ");
  return s;
}

function toggle(li, open) {
  const more = li.querySelector(".r-more");
  const want = open === undefined ? !more : open;
  const caret = li.querySelector(".r-caret");
  if (!want) {
    if (more) more.remove();
    caret.textContent = "▸";
    li.classList.remove("open");
    return;
  }
  if (more) return;
  const h = state.results.hits[Number(li.dataset.index)];
  li.appendChild(details(h));
  caret.textContent = "▾";
  li.classList.add("open");
}

// details shows the bars with what they add up to, then the source.
function details(h) {
  const box = el("div", "r-more");
  const list = SIGNALS.map((k) => [k, h.signals[k] || 0]).filter(([, v]) => v !== 0);
  const sum = list.reduce((a, [, v]) => a + v, 0);
  const agree = Math.abs(sum - h.score) < 0.005;
  box.appendChild(el("div", "r-sum", agree
    ? `The bars add up to the score: ${list.map(([, v]) => (v < 0 ? "− " : "+ ") + fmt(Math.abs(v))).join(" ").replace(/^\+ /, "")} = ${fmt(h.score)}`
    : `The signals add up to ${fmt(sum)}; the score is ${fmt(h.score)}.`));
  const bars = el("div", "signals");
  const top = Math.max(...list.map(([, v]) => Math.abs(v)), 1e-9);
  for (const [k, v] of list) {
    bars.appendChild(el("span", "sig-name", LABEL[k] || k));
    const track = el("div", "sig-track");
    const bar = el("div", "sig-bar sig-" + k + (v < 0 ? " neg" : ""));
    bar.style.width = Math.max(2, (100 * Math.abs(v)) / top) + "%";
    track.appendChild(bar);
    track.title = (h.explain || []).filter((x) => x.includes(" " + k)).join("\n");
    bars.appendChild(track);
    bars.appendChild(el("span", "sig-val", (v > 0 ? "+" : "") + fmt(v)));
  }
  box.appendChild(bars);
  const d = h.def;
  box.appendChild(el("div", "r-lines", `lines ${d.start_line}–${d.end_line} of ${d.path}`));
  const code = el("div", "code src-box");
  renderSource(code, " ".repeat(Math.min(d.start_col || 0, 200)) + h.body + (h.truncated ? "\n…" : ""), { lang: langOf(d.path), firstLine: d.start_line });
  box.appendChild(code);
  return box;
}

export function setActive(i, focus) {
  const hits = state.results ? state.results.hits : [];
  if (!hits.length) return;
  i = Math.max(0, Math.min(hits.length - 1, i));
  const prev = $("hit-" + active);
  if (prev) { prev.classList.remove("active"); prev.tabIndex = -1; }
  active = i;
  const cur = $("hit-" + i);
  if (cur) {
    cur.classList.add("active");
    cur.tabIndex = 0;
    cur.scrollIntoView({ block: "nearest" });
    if (focus !== false) cur.focus();
  }
}

export function moveResult(d) {
  setActive(active < 0 ? 0 : active + d);
}

// choose selects hit i; how records it ("replace" keeps one history entry
// for a search and its first hit; false records nothing).
function choose(i, how) {
  const h = state.results && state.results.hits[i];
  if (!h) return;
  document.querySelectorAll(".result.selected").forEach((n) => n.classList.remove("selected"));
  const li = $("hit-" + i);
  if (li) li.classList.add("selected");
  select({ path: h.def.path, def: h.def }, { push: how === undefined }).then(() => {
    if (how === "replace") history.replaceState(null, "", urlFor(state.sel, state.tab, state.q));
  }).catch((e) => toast(e.message));
}
