// The playground's page: a CodeMirror 6 editor, the findings of the text in it, the
// Flux script a Slurm, LSF or PBS script becomes, and "Show the jobspec". Python (the
// jobspec_lsp package under Pyodide) runs in web/worker.js; this thread only draws.
//
// One analysis is in flight at a time: an edit made meanwhile is analysed as soon as the
// answer comes, and that answer is drawn at once, its positions mapped through the edits
// made since it was asked (so findings follow the typing, never behind by more than one
// analysis). scripts/build-web bundles this file with esbuild.
import { ChangeSet, Compartment, EditorState } from "@codemirror/state";
import {
  EditorView,
  drawSelection,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
  placeholder,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import {
  StreamLanguage,
  bracketMatching,
  defaultHighlightStyle,
  syntaxHighlighting,
} from "@codemirror/language";
import { shell } from "@codemirror/legacy-modes/mode/shell";
import { yaml } from "@codemirror/lang-yaml";
import { json } from "@codemirror/lang-json";
import { lintGutter, lintKeymap, setDiagnostics } from "@codemirror/lint";
import { highlightSelectionMatches, searchKeymap } from "@codemirror/search";
import { originalDocChangeEffect, unifiedMergeView } from "@codemirror/merge";

const $ = (id) => document.getElementById(id);
const KIND_NAMES = {
  "jobspec-yaml": "a jobspec (YAML)",
  "jobspec-json": "a jobspec (JSON)",
  "flux-script": "a Flux batch script",
  "slurm-script": "a Slurm batch script",
  "lsf-script": "an LSF batch script",
  "pbs-script": "a PBS batch script",
  unknown: "not a jobspec or batch script",
};
const GROUPS = [
  ["carried", "Carried"],
  ["approximated", "Approximated"],
  ["refused", "Not carried"],
];

// ------------------------------------------------------------------ the worker
class Python {
  constructor(url) {
    this.worker = new Worker(url, { type: "module" });
    this.next = 1;
    this.waiting = new Map();
    this.worker.onmessage = (e) => {
      const answer = e.data;
      const resolve = this.waiting.get(answer.id);
      if (resolve) {
        this.waiting.delete(answer.id);
        resolve(answer);
      }
    };
    this.worker.onerror = (e) => setStatus(`The worker failed: ${e.message}`, "error");
  }
  ask(request) {
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.worker.postMessage({ ...request, id });
    });
  }
}

// ------------------------------------------------------------------ state
let python = null;
let ready = false;
let config = null;
let fileName = null; // the opened or dropped file's name: the kind is told by it too
let version = 0; // of the editor's text, one more at each change
let changesSince = []; // [version, ChangeSet]: the edits after an asked analysis
let inflight = false;
let last = null; // the last answer drawn: {result, map}
let showingJobspec = false;
let fluxText = "";
let languageKind = "";

function setStatus(text, level = "") {
  const el = $("status");
  el.textContent = text;
  el.className = level;
}

// ------------------------------------------------------------------ the editor
const language = new Compartment();

function languageFor(kind) {
  if (kind === "jobspec-json") return json();
  if (kind === "jobspec-yaml") return yaml();
  if (kind.endsWith("-script")) return StreamLanguage.define(shell);
  return [];
}

const view = new EditorView({
  parent: $("editor"),
  state: EditorState.create({
    doc: "",
    extensions: [
      lineNumbers(),
      highlightActiveLineGutter(),
      highlightSpecialChars(),
      history(),
      drawSelection(),
      highlightActiveLine(),
      highlightSelectionMatches(),
      bracketMatching(),
      syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
      lintGutter(),
      language.of([]),
      placeholder("Paste, type or drop a jobspec (YAML or JSON), a #flux: batch script, or a Slurm, LSF or PBS script"),
      keymap.of([
        { key: "Alt-Enter", run: () => fixesAtCursor() },
        { key: "Mod-.", run: () => fixesAtCursor() },
        ...defaultKeymap,
        ...historyKeymap,
        ...searchKeymap,
        ...lintKeymap,
      ]),
      EditorView.contentAttributes.of({ "aria-label": "Script or jobspec" }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) {
          version += 1;
          changesSince.push([version, update.changes]);
          markStale();
          analyse();
        }
      }),
      EditorView.domEventHandlers({
        drop(event) {
          const file = event.dataTransfer && event.dataTransfer.files[0];
          if (!file) return false;
          event.preventDefault();
          openFile(file);
          return true;
        },
      }),
    ],
  }),
});

// the one change that turns ``old`` into ``text``: the part between what they share at
// their start and at their end
function middle(old, text) {
  let a = 0;
  while (a < old.length && a < text.length && old[a] === text[a]) a++;
  let b = 0;
  while (b < old.length - a && b < text.length - a && old[old.length - 1 - b] === text[text.length - 1 - b]) b++;
  return { from: a, to: old.length - b, insert: text.slice(a, text.length - b) };
}

function replaceText(text, name = undefined) {
  if (name !== undefined) fileName = name;
  const old = view.state.doc.toString();
  // only the part that differs (the cursor and the undo history keep their sense)
  view.dispatch({ changes: middle(old, text), userEvent: "input.replace" });
  if (old === text) analyse(true);
}

async function openFile(file) {
  const text = await file.text();
  replaceText(text, file.name);
  view.focus();
}

// ------------------------------------------------------------------ analysis
let again = false; // an option changed while an analysis was in flight: analyse anew
function analyse(force = false) {
  if (!ready) return;
  if (inflight) {
    again = again || force; // asked again when the answer comes
    return;
  }
  if (!force && last && last.version === version) return;
  inflight = true;
  again = false;
  const asked = version;
  const options = optionsChanged;
  python
    .ask({ op: "analyse", text: view.state.doc.toString(), name: fileName, kind: $("kind").value, version: asked })
    .then((result) => {
      inflight = false;
      if (result.superseded) return analyse();
      if (result.error) {
        setStatus(`Python failed: ${result.error}`, "error");
        if (result.traceback) console.error(result.traceback);
      } else {
        draw(result, asked, options === optionsChanged);
      }
      if (again) analyse(true);
      else if (version !== asked) analyse();
    });
}

// the positions of an answer to the text at ``asked``, in today's text
function mapper(asked) {
  let changes = null;
  for (const [v, ch] of changesSince) if (v > asked) changes = changes ? changes.compose(ch) : ch;
  changesSince = changesSince.filter(([v]) => v > asked);
  const len = view.state.doc.length;
  const clamp = (p) => Math.max(0, Math.min(len, p));
  return changes ? (p, assoc = 1) => clamp(changes.mapPos(p, assoc)) : clamp;
}

// an option changed (the site, the target, the kind): the findings drawn are not of it
let optionsChanged = 0;
function markStale(option = false) {
  if (option) optionsChanged += 1;
  $("findings").setAttribute("aria-busy", "true");
}

let firstMarked = false;
function draw(result, asked, sameOptions = true) {
  const map = mapper(asked);
  const current = asked === version && sameOptions;
  if (!firstMarked && view.state.doc.length) {
    firstMarked = true; // since the page was opened (benchmarks/bench_web.py reads it)
    performance.mark("jobspec-first-findings");
  }
  last = { result, map, version: asked };
  if (current) $("findings").removeAttribute("aria-busy");
  const kind = result.kind;
  if (kind !== languageKind) {
    languageKind = kind;
    view.dispatch({ effects: language.reconfigure(languageFor(kind)) });
  }
  const detected = $("kind").value === "auto" ? "detected as " : "read as ";
  $("kind-label").textContent = view.state.doc.length
    ? `${detected}${KIND_NAMES[kind] || kind}` + (fileName ? ` (${fileName})` : "")
    : "";
  const diags = result.diagnostics.map((d) => ({ ...d, from: map(d.from, 1), to: map(d.to, -1) }));
  for (const d of diags) if (d.to < d.from) d.to = d.from;
  const t0 = performance.now();
  view.dispatch(setDiagnostics(view.state, diags.map(toLint)));
  const t1 = performance.now();
  drawFindings(diags);
  const t2 = performance.now();
  drawConversion(result.conversion, map);
  const t3 = performance.now();
  last.drawMs = { lint: t1 - t0, findings: t2 - t1, conversion: t3 - t2 };
  const showable = result.features.includes("show-jobspec");
  $("show-jobspec").hidden = !showable;
  if (!showable && showingJobspec) toggleJobspec(false);
  if (showingJobspec && current) refreshJobspec();
  $("timing").textContent = `checked in ${result.ms} ms`;
}

function toLint(d) {
  return {
    from: d.from,
    to: d.to,
    severity: d.severity,
    source: d.code,
    message: d.message,
    renderMessage: () => {
      const span = document.createElement("span");
      span.append(d.message + " ");
      const a = document.createElement("a");
      a.href = d.url;
      a.target = "_blank";
      a.rel = "noopener";
      a.textContent = `${d.code} ${d.name}`;
      span.append(a);
      return span;
    },
    actions: d.fixes.map((f) => ({ name: f.safe ? f.title : `${f.title} (unsafe)`, apply: () => applyFix(f, d) })),
  };
}

function position(pos) {
  const line = view.state.doc.lineAt(pos);
  return { line: line.number, col: pos - line.from + 1 };
}

// the findings drawn: their keys (what they say), and each one's list item; an analysis
// whose findings say the same (only their places moved, as they do while typing) updates
// the items in place instead of drawing the list anew
let drawnKeys = [];
let drawnItems = [];

function findingKey(d) {
  return [d.code, d.severity, d.message, ...d.fixes.map((f) => f.title + (f.safe ? "" : "?"))].join("\u0000");
}

function setText(el, text) {
  if (el.textContent !== text) el.textContent = text; // (an unchanged item is not laid out again)
}

function placeItem(li, d) {
  li._finding = d;
  const p = position(d.from);
  setText(li.querySelector(".where"), `line ${p.line}, column ${p.col}`);
  const word = view.state.doc.sliceString(d.from, Math.min(d.to, d.from + 40));
  const w = li.querySelector(".word");
  const hidden = !word || word.includes("\n");
  if (w.hidden !== hidden) w.hidden = hidden;
  setText(w, hidden ? "" : word);
}

function makeItem(d) {
  const li = document.createElement("li");
  li.className = `finding ${d.severity}`;
  li.dataset.code = d.code;
  const sev = document.createElement("span");
  sev.className = "severity";
  sev.textContent = d.severity;
  const code = document.createElement("a");
  code.className = "code";
  code.href = d.url;
  code.target = "_blank";
  code.rel = "noopener";
  code.textContent = d.code;
  code.title = `${d.code} ${d.name}: the rule's page`;
  const where = document.createElement("button");
  where.type = "button";
  where.className = "where";
  where.title = "Select it in the editor";
  where.addEventListener("click", () => {
    const f = li._finding;
    view.dispatch({ selection: { anchor: f.from, head: f.to }, scrollIntoView: true });
    view.focus();
  });
  const w = document.createElement("code");
  w.className = "word";
  const msg = document.createElement("span");
  msg.className = "message";
  msg.textContent = d.message;
  const head = document.createElement("div");
  head.className = "head";
  head.append(sev, " ", code, " ", where, " ", w);
  li.append(head, msg);
  if (d.fixes.length) {
    const fixes = document.createElement("div");
    fixes.className = "fixes";
    d.fixes.forEach((f, i) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = f.safe ? "fix safe" : "fix unsafe";
      b.textContent = `Fix: ${f.title}`;
      if (!f.safe) b.title = "Not applied by check --fix (a guess, or it changes what Flux reads): look before you keep it";
      b.addEventListener("click", () => applyFix(li._finding.fixes[i], li._finding));
      fixes.append(b);
    });
    li.append(fixes);
  }
  placeItem(li, d);
  return li;
}

function drawFindings(diags) {
  const counts = { error: 0, warning: 0, info: 0, hint: 0 };
  for (const d of diags) counts[d.severity] += 1;
  const parts = [];
  for (const s of ["error", "warning", "info", "hint"]) {
    if (counts[s]) parts.push(`${counts[s]} ${s === "info" ? "note" : s}${counts[s] > 1 ? "s" : ""}`);
  }
  $("findings-count").textContent = parts.join(", ");
  $("findings-empty").hidden = diags.length > 0;
  $("findings-empty").textContent = view.state.doc.length ? "No findings: all checks passed." : "Nothing to check yet.";
  const safe = diags.reduce((n, d) => n + d.fixes.filter((f) => f.safe && f.preferred).length, 0);
  const button = $("fix-all");
  button.disabled = safe === 0;
  button.textContent = safe ? `Apply the safe fixes (${safe})` : "Apply the safe fixes";
  const keys = diags.map(findingKey);
  if (keys.length === drawnKeys.length && keys.every((k, i) => k === drawnKeys[i])) {
    diags.forEach((d, i) => placeItem(drawnItems[i], d));
    return;
  }
  // the items of findings that still say the same are kept (moved, not made anew)
  const pool = new Map();
  drawnKeys.forEach((k, i) => {
    if (!pool.has(k)) pool.set(k, []);
    pool.get(k).push(drawnItems[i]);
  });
  drawnKeys = keys;
  drawnItems = diags.map((d, i) => {
    const kept = pool.get(keys[i]);
    if (kept && kept.length) {
      const li = kept.shift();
      placeItem(li, d);
      return li;
    }
    return makeItem(d);
  });
  const plain = [];
  const hints = [];
  drawnItems.forEach((li, i) => (diags[i].severity === "hint" ? hints : plain).push(li));
  const list = $("findings-list");
  reconcile(list, plain, hintsItem);
  // the hints (a directive Flux ignores, each with the whole conversion as its fix) are
  // folded away under the others
  reconcile(hintsItem.querySelector("ul"), hints, null);
  hintsItem.querySelector("summary").textContent = `${hints.length} hint${hints.length > 1 ? "s" : ""}`;
  hintsItem.hidden = hints.length === 0;
}

// ``parent``'s children made ``items`` (then ``tail``, kept last), moving only what is out
// of place: a list of hundreds is not laid out anew for one finding that changed
function reconcile(parent, items, tail) {
  let at = parent.firstChild;
  for (const item of items) {
    if (at === item) {
      at = at.nextSibling;
    } else {
      parent.insertBefore(item, at);
    }
  }
  while (at && at !== tail) {
    const next = at.nextSibling;
    at.remove();
    at = next;
  }
  if (tail && tail.parentNode !== parent) parent.append(tail);
}

const hintsItem = (() => {
  const li = document.createElement("li");
  li.className = "hints";
  li.hidden = true;
  const details = document.createElement("details");
  const summary = document.createElement("summary");
  details.append(summary, document.createElement("ul"));
  li.append(details);
  return li;
})();

function applyFix(fix, d) {
  const map = last ? last.map : (p) => p;
  // the edits are of the analysed text: mapped through what was typed since
  const changes = last.result.edits[fix.edits].map((e) => ({ from: map(e.from, 1), to: Math.max(map(e.from, 1), map(e.to, -1)), insert: e.insert }));
  view.dispatch({ changes, userEvent: "input.fix" });
  setStatus(`Fixed ${d.code}: ${fix.title}`);
  view.focus();
  return true;
}

function fixesAtCursor() {
  // the first fix of the finding under the cursor
  if (!last) return false;
  const pos = view.state.selection.main.head;
  const items = [...document.querySelectorAll("#findings-list li")];
  const hit = items.find((li) => li._finding && li._finding.from <= pos && pos <= li._finding.to && li.querySelector(".fix"));
  if (!hit) return false;
  hit.querySelector(".fix").focus();
  return true;
}

async function fixAll() {
  const asked = version;
  const answer = await python.ask({ op: "fixAll", text: view.state.doc.toString(), name: fileName, kind: $("kind").value });
  if (answer.error) return setStatus(`Python failed: ${answer.error}`, "error");
  if (asked !== version) return setStatus("The text changed meanwhile: try again");
  replaceText(answer.text);
  const codes = answer.applied.map((a) => a[0]);
  setStatus(codes.length ? `Applied ${codes.length} fix${codes.length > 1 ? "es" : ""}: ${codes.join(", ")}` : "No safe fix to apply");
}

// ------------------------------------------------------------------ the conversion
const fluxView = new EditorView({ parent: $("flux-editor") });

function fluxState(text, original) {
  return EditorState.create({
    doc: text,
    extensions: [
      lineNumbers(),
      highlightSpecialChars(),
      syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
      StreamLanguage.define(shell),
      EditorState.readOnly.of(true),
      EditorView.editable.of(false),
      EditorView.contentAttributes.of({ "aria-label": "The converted Flux script" }),
      $("flux-diff").checked
        ? unifiedMergeView({ original, mergeControls: false, highlightChanges: true, gutter: true })
        : [],
    ],
  });
}

let fluxOriginal = "";
let fluxFresh = true; // the view is made anew for the next conversion
function drawConversion(conv, map) {
  const section = $("flux");
  if (!conv) {
    fluxFresh = true;
    section.hidden = true;
    $("side").classList.toggle("migrate", false);
    return;
  }
  section.hidden = false;
  $("side").classList.toggle("migrate", true);
  const refused = $("flux-refused");
  refused.hidden = !conv.refused;
  refused.textContent = conv.refused ? `Not converted: ${conv.refused}` : "";
  const original = view.state.doc.toString();
  if (fluxFresh) {
    fluxFresh = false;
    fluxText = conv.text;
    fluxOriginal = original;
    fluxView.setState(fluxState(conv.text, original));
  } else if (conv.text !== fluxText || original !== fluxOriginal) {
    // edited in place, not made anew: the diff is brought up to date, the view's DOM kept
    const spec = {};
    if (conv.text !== fluxText) spec.changes = middle(fluxText, conv.text);
    if (original !== fluxOriginal && $("flux-diff").checked) {
      const changes = ChangeSet.of(middle(fluxOriginal, original), fluxOriginal.length);
      spec.effects = originalDocChangeEffect(fluxView.state, changes);
    }
    fluxText = conv.text;
    fluxOriginal = original;
    fluxView.dispatch(spec);
  }
  $("flux-editor").hidden = Boolean(conv.refused);
  for (const id of ["flux-copy", "flux-download", "flux-use"]) $(id).disabled = Boolean(conv.refused);
  const box = $("conversion");
  box.replaceChildren();
  const groups = { carried: [], approximated: [], refused: [] };
  for (const [from, to, text] of conv.lines) {
    const was = view.state.doc.sliceString(map(from, 1), map(to, -1));
    groups.carried.push({ from, was, now: text });
  }
  for (const f of conv.findings) groups[f.group].push(f);
  for (const [key, title] of GROUPS) {
    const items = groups[key];
    if (!items.length) continue;
    const h = document.createElement("h3");
    h.textContent = `${title} (${items.length})`;
    const ul = document.createElement("ul");
    ul.className = `conversion ${key}`;
    for (const it of items) {
      const li = document.createElement("li");
      if (it.now !== undefined) {
        const a = document.createElement("code");
        a.textContent = it.was;
        const b = document.createElement("code");
        b.textContent = it.now || "(nothing: carried by another line)";
        li.append(a, " → ", b);
      } else {
        const p = position(map(it.from, 1));
        li.textContent = `line ${p.line}: ${it.message}`;
      }
      ul.append(li);
    }
    box.append(h, ul);
  }
}

// ------------------------------------------------------------------ show the jobspec
function toggleJobspec(on) {
  showingJobspec = on;
  $("jobspec").hidden = !on;
  $("show-jobspec").setAttribute("aria-expanded", String(on));
  $("show-jobspec").textContent = on ? "Hide the jobspec" : "Show the jobspec";
  if (on) refreshJobspec();
}

async function refreshJobspec() {
  const answer = await python.ask({ op: "showJobspec", text: view.state.doc.toString(), name: fileName, format: $("jobspec-format").value });
  const err = $("jobspec-error");
  err.hidden = !answer.error;
  err.textContent = answer.error || "";
  $("jobspec-text").textContent = answer.text || "";
  $("jobspec-text").hidden = !answer.text;
}

// ------------------------------------------------------------------ site profile
function drawSite(answer, name) {
  const details = $("site-details");
  if (answer.error) {
    details.hidden = false;
    $("site-status").textContent = `Site profile not loaded: ${answer.error}`;
    $("site-status").className = "error";
    $("site-summary").textContent = "";
    $("site-clear").hidden = true;
    return;
  }
  const loaded = Boolean(answer.summary);
  details.hidden = !loaded;
  $("site-clear").hidden = !loaded;
  $("site-status").className = "";
  $("site-status").textContent = loaded ? `Site profile: ${name} (queue limits and node types checked)` : "";
  $("site-summary").textContent = answer.summary || "";
}

async function loadSite(fileList) {
  const files = {};
  for (const f of fileList) files[f.name] = await f.text();
  const name = fileList.map((f) => f.name).join(", ");
  markStale(true);
  const answer = await python.ask({ op: "site", files, name });
  drawSite(answer, name);
  markStale(true); // (an analysis sent meanwhile was of the old site)
  analyse(true);
}

// ------------------------------------------------------------------ wiring
function wire() {
  $("open").addEventListener("click", () => $("open-file").click());
  $("open-file").addEventListener("change", (e) => {
    if (e.target.files[0]) openFile(e.target.files[0]);
    e.target.value = "";
  });
  $("kind").addEventListener("change", () => {
    markStale(true);
    analyse(true);
  });
  $("target").addEventListener("change", async () => {
    markStale(true);
    await python.ask({ op: "options", target: $("target").value });
    markStale(true);
    analyse(true);
  });
  $("site-load").addEventListener("click", () => $("site-files").click());
  $("site-files").addEventListener("change", (e) => {
    const files = [...e.target.files]; // (the list empties with the value)
    if (files.length) loadSite(files);
    e.target.value = "";
  });
  $("site-clear").addEventListener("click", async () => {
    markStale(true);
    drawSite(await python.ask({ op: "site", files: {} }), "");
    markStale(true);
    analyse(true);
  });
  $("fix-all").addEventListener("click", fixAll);
  $("show-jobspec").addEventListener("click", () => toggleJobspec(!showingJobspec));
  $("jobspec-format").addEventListener("change", refreshJobspec);
  $("flux-diff").addEventListener("change", () => fluxView.setState(fluxState(fluxText, fluxOriginal)));
  $("flux-copy").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(fluxText);
      setStatus("The Flux script is copied");
    } catch {
      setStatus("The browser did not allow copying: select the text instead", "error");
    }
  });
  $("flux-download").addEventListener("click", () => {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([fluxText], { type: "text/x-shellscript" }));
    a.download = fileName ? fileName.replace(/(\.[^.]*)?$/, ".flux$1") : "job.flux.sh";
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  });
  $("flux-use").addEventListener("click", () => {
    replaceText(fluxText);
    view.focus();
  });
  $("example").addEventListener("change", async (e) => {
    const ex = config.examples.find((x) => x.file === e.target.value);
    e.target.value = "";
    if (!ex) return;
    const r = await fetch(ex.file);
    replaceText(await r.text(), ex.name);
    view.focus();
  });
  document.addEventListener("dragover", (e) => e.preventDefault());
  document.addEventListener("drop", (e) => {
    const file = e.dataTransfer && e.dataTransfer.files[0];
    if (!file) return;
    e.preventDefault();
    openFile(file);
  });
}

async function main() {
  const t0 = performance.now();
  wire();
  config = await (await fetch("build.json", { cache: "no-cache" })).json();
  $("docs-link").href = `${config.docsUrl.replace(/\/$/, "")}/rules/`;
  for (const ex of config.examples || []) {
    const o = document.createElement("option");
    o.value = ex.file;
    o.textContent = ex.title;
    $("example").append(o);
  }
  python = new Python(`worker.js?v=${config.files["worker.js"]}`);
  const started = await python.ask({ op: "start", config });
  if (started.error) {
    setStatus(started.error, "error");
    return;
  }
  if (started.site) drawSite(started.site, started.site.name);
  ready = true;
  // for tests and benchmarks: the editor, the start, the last answer drawn and of which text
  window.playground = {
    view,
    started,
    startMs: Math.round(performance.now() - t0),
    get last() {
      return last;
    },
    get version() {
      return version;
    },
  };
  setStatus(`Ready: Python ${started.python} started in ${(started.readyMs / 1000).toFixed(1)} s`);
  analyse(true);
}

main().catch((err) => setStatus(`The playground could not start: ${err.message || err}`, "error"));
