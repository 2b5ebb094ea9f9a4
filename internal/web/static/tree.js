// grit explore: the file tree, folders collapsible, each file with its
// definition count; a file opens in the Code tab.
import { el, clear } from "./code.js";
import { api, toast } from "./net.js";
import { $, state, select, urlFor } from "./app.js";

let loaded = null;  // Promise of the tree answer
let rows = [];      // visible rows, for j/k
let cursor = -1;
const open = new Set([""]); // expanded folders

export function initTree() {
  $("tree").addEventListener("keydown", (ev) => {
    const row = ev.target.closest(".t-row");
    if (!row) return;
    if (ev.key === "Enter") { ev.preventDefault(); row.click(); }
    if (ev.key === "ArrowRight" || ev.key === "ArrowLeft") {
      const dir = row.dataset.dir;
      if (dir === undefined) return;
      ev.preventDefault();
      if ((ev.key === "ArrowRight") !== open.has(dir)) row.click();
    }
  });
}

// treeFiles returns every indexed file ({path, lang, defs}); fresh reloads.
export function treeFiles(fresh) {
  if (fresh || !loaded) {
    loaded = api("/api/tree");
    loaded.catch(() => { loaded = null; });
  }
  return loaded;
}

export async function loadTree(fresh) {
  if (fresh) open.clear(), open.add("");
  let t;
  try {
    t = await treeFiles(fresh);
  } catch (e) {
    toast(e.message);
    return;
  }
  render(t);
}

// build nests paths into folders: {dirs: Map name → node, files: [], defs}.
function build(files) {
  const root = { name: "", path: "", dirs: new Map(), files: [], defs: 0 };
  for (const f of files) {
    const parts = f.path.split("/");
    let n = root;
    n.defs += f.defs;
    for (let i = 0; i < parts.length - 1; i++) {
      const p = parts.slice(0, i + 1).join("/");
      if (!n.dirs.has(parts[i])) n.dirs.set(parts[i], { name: parts[i], path: p, dirs: new Map(), files: [], defs: 0 });
      n = n.dirs.get(parts[i]);
      n.defs += f.defs;
    }
    n.files.push(f);
  }
  return root;
}

function render(t) {
  const box = $("tree");
  clear(box);
  rows = [];
  const root = build(t.files);
  $("tree-meta").textContent = `${t.files.length} files · ${t.defs} definitions`;
  const ul = el("ul", "t-list");
  ul.setAttribute("role", "tree");
  addChildren(ul, root, 0);
  box.appendChild(ul);
  markSelected();
}

function addChildren(ul, node, depth) {
  const dirs = Array.from(node.dirs.values()).sort((a, b) => a.name.localeCompare(b.name));
  for (const d of dirs) {
    const li = el("li");
    const row = rowFor(d.name + "/", d.defs, depth, "t-dir");
    row.dataset.dir = d.path;
    const isOpen = open.has(d.path);
    row.setAttribute("aria-expanded", isOpen ? "true" : "false");
    row.querySelector(".t-caret").textContent = isOpen ? "▾" : "▸";
    row.addEventListener("click", () => {
      if (open.has(d.path)) open.delete(d.path); else open.add(d.path);
      treeFiles().then((t) => {
        render(t);
        const again = rows.find((r) => r.dataset.dir === d.path);
        if (again) { cursor = rows.indexOf(again); for (const r of rows) r.tabIndex = -1; again.tabIndex = 0; again.focus(); }
      });
    });
    li.appendChild(row);
    if (isOpen) {
      const sub = el("ul", "t-list");
      sub.setAttribute("role", "group");
      addChildren(sub, d, depth + 1);
      li.appendChild(sub);
    }
    ul.appendChild(li);
  }
  for (const f of node.files) {
    const li = el("li");
    const row = rowFor(f.path.split("/").pop(), f.defs, depth, "t-file");
    row.dataset.path = f.path;
    row.href = urlFor({ path: f.path }, "code", state.q);
    row.addEventListener("click", (ev) => {
      if (ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
      ev.preventDefault();
      cursor = rows.indexOf(row);
      select({ path: f.path, def: null });
    });
    li.appendChild(row);
    ul.appendChild(li);
  }
}

function rowFor(name, defs, depth, cls) {
  const row = el(cls === "t-file" ? "a" : "div", "t-row " + cls);
  row.tabIndex = rows.length === 0 ? 0 : -1;
  row.setAttribute("role", "treeitem");
  row.style.paddingLeft = 8 + depth * 14 + "px";
  row.appendChild(el("span", "t-caret", cls === "t-dir" ? "▸" : ""));
  row.appendChild(el("span", "t-name", name));
  row.appendChild(el("span", "t-count", defs ? String(defs) : ""));
  row.title = defs + " definition" + (defs === 1 ? "" : "s");
  rows.push(row);
  return row;
}

function markSelected() {
  const p = state.sel ? state.sel.path : null;
  for (const r of rows) {
    const on = r.dataset.path === p;
    r.classList.toggle("selected", on);
    if (on) {
      r.setAttribute("aria-selected", "true");
      r.scrollIntoView({ block: "nearest" });
    } else r.removeAttribute("aria-selected");
  }
}

// revealInTree opens the folders down to path and marks its row.
export function revealInTree(path) {
  const parts = path.split("/");
  let changed = false;
  for (let i = 1; i < parts.length; i++) {
    const d = parts.slice(0, i).join("/");
    if (!open.has(d)) { open.add(d); changed = true; }
  }
  if (changed && loaded) treeFiles().then(render);
  else markSelected();
}

export function moveTree(d) {
  if (!rows.length) return;
  if (cursor < 0) cursor = Math.max(0, rows.findIndex((r) => r.classList.contains("selected")));
  else cursor = Math.max(0, Math.min(rows.length - 1, cursor + d));
  for (const r of rows) r.tabIndex = -1;
  rows[cursor].tabIndex = 0;
  rows[cursor].focus();
  rows[cursor].scrollIntoView({ block: "nearest" });
}
