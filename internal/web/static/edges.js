// grit explore: the Edges tab. Calls the index resolved (through the
// caller's class, its file or its imports) are drawn apart from name-only
// matches; every weight says its unit.
import { el } from "./code.js";
import { state, urlFor } from "./app.js";
import { fmt } from "./results.js";

const VIA = {
  class: ["resolved", "same class", "The caller is a method of the same class (self.x())."],
  file: ["resolved", "same file", "Defined in the calling file."],
  import: ["resolved", "import", "Defined in a file the caller imports."],
  name: ["guess", "name only", "Matched by its name only: the only definition with this name in the repository, or a call on another object (adapter.send()) whose name matches a method of the caller's class. No import or self links them."],
};

const FILE_WEIGHT = "Reference weight: for each name one file uses and the other defines, 1 (×10 for a compound name of 8+ letters, ×0.1 for a _private or a common name), dampened by the square root of its uses, summed.";

// renderEdges fills box; go(target) selects {path, def, line}.
export function renderEdges(box, sel, e, go) {
  const d = sel.def;
  const legend = el("div", "edge-legend");
  legend.appendChild(el("span", "via resolved", "resolved"));
  legend.appendChild(document.createTextNode(" linked through the caller's class, file or imports   "));
  legend.appendChild(el("span", "via guess", "name only"));
  legend.appendChild(document.createTextNode(" matched by the name alone: not proven"));
  box.appendChild(legend);
  if (d) {
    section(box, `Callers of ${d.name}`, e.callers.map((x) => ({
      label: x.label, sub: `${x.path}:${x.line}`, weight: x.weight, unit: "call sites", via: x.via,
      target: { path: x.path, def: x.def || null, line: x.line },
    })), go);
    section(box, `Callees of ${d.name}`, e.callees.map((x) => ({
      label: x.label, sub: `${x.path}:${x.line}`, weight: x.weight, unit: "call sites", via: x.via,
      target: { path: x.path, def: x.def || null },
    })), go);
  }
  section(box, `Imports of ${sel.path}`, e.imports.map((im) => ({
    label: im.module + (im.names && im.names.length ? " → " + im.names.join(", ") : "") + (im.alias ? " as " + im.alias : ""),
    sub: (im.def ? `${im.def.qname} · ${im.def.path}:${im.def.start_line}` : im.resolved || "external") + ` · line ${im.line}`,
    via: im.resolved ? "import" : "",
    target: im.def ? { path: im.def.path, def: im.def } : im.resolved ? { path: im.resolved, def: null } : null,
  })), go);
  const fileItem = (p, x) => ({ label: p, sub: (x.names || []).slice(0, 4).join(", "), weight: x.weight, unit: "reference weight", title: FILE_WEIGHT, target: { path: p, def: null } });
  section(box, `${sel.path} refers to`, e.refers.map((x) => fileItem(x.path, x)), go);
  section(box, `Files that refer to ${sel.path}`, e.importers.map((x) => fileItem(x.path, x)), go);
}

function section(box, title, items, go) {
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
    const li = el("li", "edge" + (x.target ? " nav" : ""));
    const lab = el(x.target ? "a" : "span", "edge-label");
    if (x.via && VIA[x.via]) {
      const [cls, text, why] = VIA[x.via];
      const b = el("span", "via " + cls, text);
      b.title = why;
      lab.appendChild(b);
    }
    lab.appendChild(document.createTextNode(x.label));
    if (x.sub) lab.appendChild(el("span", "muted", x.sub));
    li.appendChild(lab);
    const w = el("span", "edge-w");
    if (x.weight !== undefined) {
      const track = el("span", "sig-track");
      const bar = el("span", "sig-bar");
      bar.style.width = Math.max(2, (100 * x.weight) / max) + "%";
      track.appendChild(bar);
      w.appendChild(track);
      w.appendChild(el("span", "edge-n", x.unit === "call sites" ? `${x.weight} call${x.weight === 1 ? "" : "s"}` : fmt(x.weight)));
      w.title = x.title || `${fmt(x.weight)} ${x.unit}`;
    }
    li.appendChild(w);
    if (x.target) {
      lab.href = urlFor(x.target, x.target.line ? "code" : state.tab, state.q);
      lab.addEventListener("click", (ev) => {
        if (ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
        ev.preventDefault();
        go(x.target);
      });
    }
    ul.appendChild(li);
  }
  sec.appendChild(ul);
  box.appendChild(sec);
}
