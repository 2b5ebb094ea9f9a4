// grit explore: the Model tab. It asks the configured model to rewrite the
// selected definition (streamed), shows the quality monitor's verdict and
// the diff, and writes only on Apply; Undo restores.
import { el, clear } from "./code.js";
import { api, post, toast } from "./net.js";
import { $, state, select } from "./app.js";

let def = null;      // the selected definition, null for a file
let abort = null;
let proposal = null; // the last accepted replacement

export function resetModel(d) {
  def = d || null;
  proposal = null;
  $("apply-btn").disabled = true;
  $("ask-btn").disabled = !def;
  for (const id of ["reply", "diff", "verdict", "reply-meta", "model-note"]) clear($(id));
  if (!def) note("", ["Select a definition (a result, a symbol, or a name in the Code tab) to ask the model about it."]);
  $("model-target").textContent = def ? def.qname : "";
}

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

async function ask(ev) {
  ev.preventDefault();
  if (!def) { toast("Select a definition first."); return; }
  const task = $("task").value.trim();
  if (!task) { note("err", ["Say what should change first."]); $("task").focus(); return; }
  const target = def;
  for (const id of ["reply", "diff", "verdict", "model-note", "reply-meta"]) clear($(id));
  proposal = null;
  $("apply-btn").disabled = true;
  $("ask-btn").disabled = true;
  $("stop-btn").disabled = false;
  const ctl = new AbortController();
  abort = ctl;
  try {
    const r = await post("/api/model", { def_id: target.id, task }, ctl.signal);
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
        onProposal(target, data, task);
      } else if (event === "error") {
        note("err", [data.error].concat(data.help ? [data.help] : []), data.commands || []);
      }
    });
  } catch (e) {
    if (e.name !== "AbortError") note("err", [e.message]);
  } finally {
    $("ask-btn").disabled = !def;
    $("stop-btn").disabled = true;
    abort = null;
  }
}

function onProposal(target, data, task) {
  const v = $("verdict");
  v.textContent = data.verdict.accept ? "passes the quality monitor" : "rejected: " + data.verdict.reason;
  v.className = "verdict " + (data.verdict.accept ? "accept" : "reject");
  $("reply-meta").textContent = data.model ? `· ${data.model} · ${data.usage.output_tokens || 0} tokens out` : "";
  if (data.diff) renderDiff(data.diff);
  if (data.verdict.accept && def === target) {
    proposal = { def: target, replacement: data.replacement, hash: data.file_hash, task };
    $("apply-btn").disabled = false;
  }
}

export function initModel() {
  $("model-form").addEventListener("submit", ask);
  $("stop-btn").addEventListener("click", () => { if (abort) abort.abort(); });
  $("apply-btn").addEventListener("click", async () => {
    const p = proposal;
    if (!p) return;
    $("apply-btn").disabled = true;
    const r = await post("/api/apply", { def_id: p.def.id, replacement: p.replacement, file_hash: p.hash, task: p.task });
    const b = await r.json().catch(() => ({}));
    if (!r.ok) { note("err", [b.error || r.statusText]); $("apply-btn").disabled = false; return; }
    proposal = null;
    state.files.delete(b.path);
    const msg = `Applied to ${b.path} (snapshot ${b.snapshot}). Undo restores it.`;
    if (b.def) await select({ path: b.def.path, def: b.def }, { push: false });
    note("ok", [msg]);
  });
  $("undo-btn").addEventListener("click", async () => {
    const r = await post("/api/undo", {});
    const b = await r.json().catch(() => ({}));
    if (!r.ok) { note("err", [b.error || r.statusText]); return; }
    for (const p of b.restored || []) state.files.delete(p);
    const msg = `Restored ${(b.restored || []).join(", ")}.`;
    if (state.sel && state.sel.def) {
      const d = state.sel.def;
      try {
        const res = await api("/api/symbols", { path: d.path });
        const same = res.symbols.find((s) => s.qname === d.qname) || res.symbols[0];
        if (same) await select({ path: same.path, def: same }, { push: false });
      } catch (e) { toast(e.message); }
    }
    note("ok", [msg]);
  });
}
