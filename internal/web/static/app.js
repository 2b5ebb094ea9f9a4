// grit explore: the page. Plain DOM and ES modules, no framework, no inline
// handlers (CSP). Untrusted text (source, paths, model replies) only ever
// goes through textContent.
//
// URLs are state: "/search?q=…", "/file/PATH#L120" and
// "/symbol/PATH::QNAME?tab=edges#L804" each name one view; every selection
// pushes one, Back and Forward replay them (route), and a copied address
// reopens the same view. One selection (state.sel) drives every tab.
import { el, clear } from "./code.js";
import { api, post, toast } from "./net.js";
import { initResults, runSearch, showResults, moveResult } from "./results.js";
import { initTree, loadTree, moveTree, revealInTree } from "./tree.js";
import { initFinder, openFinder, finderOpen, closeFinder } from "./finder.js";
import { initTabs, showSelection, showTab, TABS } from "./tabs.js";

export const $ = (id) => document.getElementById(id);

export const state = {
  status: null,
  version: null,
  results: null,   // the last search answer
  q: "",           // its query
  side: "results", // the left pane: results or files
  sel: null,       // {path, def, line}: what every tab shows
  tab: "code",
  files: new Map(),// path → Promise of the whole file (text, lang)
};

// ---------- URLs ----------

// urlFor is the address of a view: a selection (symbol or file) with the
// search that led to it, or the search alone.
export function urlFor(sel, tab, q) {
  const params = new URLSearchParams();
  let path = "/";
  if (sel && sel.def) path = "/symbol/" + encodePath(sel.def.path) + "::" + encodeURIComponent(sel.def.qname);
  else if (sel) path = "/file/" + encodePath(sel.path);
  else if (q) path = "/search";
  if (sel && tab && tab !== "code") params.set("tab", tab);
  if (q) params.set("q", q);
  const qs = params.toString();
  return path + (qs ? "?" + qs : "") + (sel && sel.line ? "#L" + sel.line : "");
}

function encodePath(p) {
  return p.split("/").map(encodeURIComponent).join("/");
}

// parseURL reads a view from the address bar.
function parseURL() {
  const u = new URL(location.href);
  const q = u.searchParams.get("q") || "";
  const tab = TABS.includes(u.searchParams.get("tab")) ? u.searchParams.get("tab") : "code";
  const m = /^#L(\d+)$/.exec(u.hash);
  const line = m ? Number(m[1]) : null;
  let sel = null;
  const path = decodeURIComponent(u.pathname);
  if (path.startsWith("/symbol/")) {
    const rest = path.slice("/symbol/".length);
    const k = rest.indexOf("::");
    if (k > 0) sel = { path: rest.slice(0, k), qname: rest.slice(k + 2), line };
  } else if (path.startsWith("/file/")) {
    sel = { path: path.slice("/file/".length), line };
  }
  return { q, tab, sel };
}

// route shows the view the address names (on load, Back and Forward).
async function route() {
  const v = parseURL();
  if (v.q !== state.q) {
    $("q").value = v.q;
    // The ranking loads beside the selection, not before it.
    if (v.q) runSearch(v.q, { push: false, select: !v.sel });
    else { state.q = ""; showResults(null); }
  }
  state.tab = v.tab;
  showTab(v.tab, { push: false });
  if (!v.sel) {
    if (!v.q) resetSelection();
    return;
  }
  let def = null;
  if (v.sel.qname) {
    try {
      const res = await api("/api/symbols", { path: v.sel.path });
      def = res.symbols.find((s) => s.qname === v.sel.qname) || null;
      if (!def) toast(`${v.sel.qname} is not defined in ${v.sel.path} any more`);
    } catch (e) {
      toast(e.message);
      return;
    }
  }
  await select({ path: v.sel.path, def, line: v.sel.line }, { push: false });
}

// select makes sel the subject of every tab and, unless push is false,
// records it in the history. sel is {path, def?, line?}; a file selected at
// a line takes the innermost definition there as its subject.
export async function select(sel, opts) {
  opts = opts || {};
  if (!sel.def && sel.line) {
    try {
      const res = await api("/api/symbols", { path: sel.path });
      let best = null;
      for (const s of res.symbols) if (s.start_line <= sel.line && sel.line <= s.end_line) best = s;
      sel = { path: sel.path, def: best, line: sel.line, fileOnly: !best };
    } catch (e) { /* the Code tab reports it */ }
  }
  if (opts.tab) state.tab = opts.tab;
  state.sel = sel;
  if (opts.push !== false) history.pushState(null, "", urlFor(sel, state.tab, state.q));
  document.body.classList.add("has-sel");
  setPane("details");
  showTab(state.tab, { push: false });
  revealInTree(sel.path);
  showSelection(sel);
}

export function resetSelection() {
  state.sel = null;
  document.body.classList.remove("has-sel");
  showSelection(null);
}

// replaceURL records the current view without a new history entry.
export function replaceURL() {
  history.replaceState(null, "", urlFor(state.sel, state.tab, state.q));
}
export function pushURL() {
  history.pushState(null, "", urlFor(state.sel, state.tab, state.q));
}

// fileText fetches a whole file once per selection of the repository.
export function fileText(path) {
  if (!state.files.has(path)) {
    const p = api("/api/file", { path });
    p.catch(() => state.files.delete(path));
    state.files.set(path, p);
  }
  return state.files.get(path);
}

// ---------- panes (narrow windows show one at a time) ----------

export function setPane(which) {
  document.body.dataset.pane = which;
  $("pane-list").setAttribute("aria-pressed", which === "list" ? "true" : "false");
  $("pane-details").setAttribute("aria-pressed", which === "details" ? "true" : "false");
}

export function setSide(which) {
  state.side = which;
  for (const b of document.querySelectorAll(".side-tab")) {
    b.setAttribute("aria-selected", b.dataset.side === which ? "true" : "false");
  }
  $("results-box").classList.toggle("hidden", which !== "results");
  $("tree-box").classList.toggle("hidden", which !== "files");
  if (which === "files") loadTree();
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
  $("repo-name").textContent = st.root ? st.root.split("/").filter(Boolean).pop() : "no repository";
  $("repo").title = st.root || "";
  $("repo-stats").textContent = st.ready ? `${st.files} files · ${st.defs} definitions` : "";
  $("model-spec").textContent = st.model || "";
  const dl = $("recent-list");
  clear(dl);
  for (const r of st.recent || []) {
    const o = document.createElement("option");
    o.value = r.source;
    dl.appendChild(o);
  }
  showJob(st.job);
  if (st.ready && state.version !== st.version) {
    const first = state.version === null;
    state.version = st.version;
    state.files.clear();
    loadTree(true);
    if (first) route();
    else { state.q = ""; showResults(null); resetSelection(); history.pushState(null, "", "/"); }
  }
  const busy = st.job && (st.job.phase === "cloning" || st.job.phase === "indexing");
  $("clone-btn").disabled = !!busy;
  if (busy || !st.ready) setTimeout(refreshStatus, 400);
}

let dismissedJob = null;

function showJob(job) {
  const box = $("job");
  if (!job || job.phase === "ready" || dismissedJob === job.started) {
    box.classList.add("hidden");
    return;
  }
  box.classList.remove("hidden");
  const failed = job.phase === "error";
  box.classList.toggle("error", failed);
  $("job-dismiss").classList.toggle("hidden", !failed);
  $("job-phase").textContent = failed ? "Could not load" : job.phase;
  // A failure shows its reason first, then what was asked for.
  $("job-msg").textContent = failed ? `${job.error} (${job.source})` : job.message || job.source;
  const pct = job.total ? Math.round((100 * job.done) / job.total) : job.phase === "cloning" ? 15 : 0;
  $("job-fill").style.width = pct + "%";
  $("job-meter").classList.toggle("hidden", failed);
}

function initClone() {
  $("clone-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const source = $("clone-input").value.trim();
    if (!source) { toast("Type a directory or a git URL to explore."); $("clone-input").focus(); return; }
    const r = await post("/api/clone", { source });
    const b = await r.json().catch(() => ({}));
    if (!r.ok) {
      showJob({ phase: "error", error: b.error || r.statusText, source, started: "local-" + Date.now() });
      return; // the field keeps the URL to fix
    }
    dismissedJob = null;
    showJob(b.job);
    setTimeout(refreshStatus, 300);
  });
  $("job-dismiss").addEventListener("click", () => {
    const st = state.status;
    dismissedJob = st && st.job ? st.job.started : null;
    $("job").classList.add("hidden");
  });
}

// ---------- keyboard ----------

function initKeys() {
  document.addEventListener("keydown", (ev) => {
    const tgt = ev.target;
    const typing = tgt instanceof HTMLTextAreaElement || tgt instanceof HTMLInputElement;
    if (ev.key === "Escape") {
      if (finderOpen()) { closeFinder(); ev.preventDefault(); return; }
      if (!$("help").classList.contains("hidden")) { $("help").classList.add("hidden"); return; }
      if (typing) tgt.blur();
      return;
    }
    if ((ev.ctrlKey || ev.metaKey) && (ev.key === "k" || ev.key === "K")) {
      ev.preventDefault();
      openFinder("symbols");
      return;
    }
    if (typing || ev.altKey || ev.ctrlKey || ev.metaKey || finderOpen()) return;
    switch (ev.key) {
      case "/": ev.preventDefault(); setPane("list"); $("q").focus(); $("q").select(); return;
      case "t": ev.preventDefault(); openFinder("files"); return;
      case "s": ev.preventDefault(); openFinder("symbols"); return;
      case "?": ev.preventDefault(); $("help").classList.toggle("hidden"); return;
      case "j": case "k": case "ArrowDown": case "ArrowUp": {
        if (tgt.closest && tgt.closest(".tabs, .panel, .ast-tree")) return;
        const d = ev.key === "j" || ev.key === "ArrowDown" ? 1 : -1;
        ev.preventDefault();
        if (state.side === "files") moveTree(d);
        else moveResult(d);
        return;
      }
    }
  });
  $("help-close").addEventListener("click", () => $("help").classList.add("hidden"));
  $("help-btn").addEventListener("click", () => $("help").classList.toggle("hidden"));
}

// ---------- start ----------

function init() {
  initResults();
  initTree();
  initFinder();
  initTabs();
  initClone();
  initKeys();
  for (const b of document.querySelectorAll(".side-tab")) b.addEventListener("click", () => setSide(b.dataset.side));
  $("pane-list").addEventListener("click", () => setPane("list"));
  $("pane-details").addEventListener("click", () => setPane("details"));
  $("find-file-btn").addEventListener("click", () => openFinder("files"));
  $("find-sym-btn").addEventListener("click", () => openFinder("symbols"));
  $("theme-btn").addEventListener("click", () => {
    const root = document.documentElement;
    const dark = root.dataset.theme ? root.dataset.theme === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
    root.dataset.theme = dark ? "light" : "dark";
  });
  window.addEventListener("popstate", route);
  setPane("list");
  refreshStatus();
}

init();
