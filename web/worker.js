// The playground's Python: Pyodide in a Web Worker, so typing never waits for it.
//
// The page sends {id, op, ...} requests; each is answered {id, ...} with what
// jobspec_playground.call returns (web/playground.py). Analyses are coalesced: while
// one runs, a newer "analyse" replaces any older one still waiting, so the worker
// never falls behind the typing. Everything is fetched from this site: Pyodide's
// runtime from ./pyodide/, the package and its dependencies from ./jobspec.zip.
import { loadPyodide } from "./pyodide/pyodide.mjs";

let py = null;
let call = null;
const queue = [];
let running = false;

function post(msg) {
  self.postMessage(msg);
}

async function start(config) {
  const t0 = performance.now();
  const base = new URL("./", self.location.href);
  const zip = fetch(new URL(`jobspec.zip?v=${config.python.digest}`, base)).then((r) => {
    if (!r.ok) throw new Error(`jobspec.zip: ${r.status}`);
    return r.arrayBuffer();
  });
  py = await loadPyodide({
    indexURL: new URL("pyodide/", base).href,
    // no package is loaded from Pyodide's set: nothing is fetched from elsewhere
    packages: [],
    stdout: (s) => console.log(s),
    stderr: (s) => console.warn(s),
  });
  const tRuntime = performance.now();
  py.unpackArchive(new Uint8Array(await zip), "zip", { extractDir: "/lib/jobspec" });
  py.runPython("import sys; sys.path.insert(0, '/lib/jobspec')");
  const mod = py.pyimport("jobspec_playground");
  call = mod.call;
  const init = JSON.parse(call(JSON.stringify({ op: "init", docsUrl: config.docsUrl })));
  if (init.error) throw new Error(init.error);
  let site = null;
  if (config.site) {
    const files = {};
    for (const [name, path] of Object.entries(config.site.files)) {
      const r = await fetch(new URL(path, base));
      if (!r.ok) throw new Error(`${path}: ${r.status}`);
      files[name] = await r.text();
    }
    site = JSON.parse(call(JSON.stringify({ op: "site", files, name: config.site.name })));
    site.name = config.site.name;
  }
  return {
    runtimeMs: Math.round(tRuntime - t0),
    readyMs: Math.round(performance.now() - t0),
    python: py.runPython("import sys; sys.version.split()[0]"),
    site,
  };
}

function warm() {
  // what the first check of each kind would import, done while the user reads the page
  if (!call || queue.length || running) return;
  call(JSON.stringify({ op: "warm" }));
}

async function pump() {
  if (running) return;
  running = true;
  try {
    while (queue.length) {
      const req = queue.shift();
      if (req.op === "start") {
        try {
          const info = await start(req.config);
          post({ id: req.id, ok: true, ...info });
          setTimeout(warm, 0);
        } catch (err) {
          post({ id: req.id, error: `Python could not start: ${err.message || err}` });
        }
        continue;
      }
      if (!call) {
        post({ id: req.id, error: "Python has not started" });
        continue;
      }
      const t = performance.now();
      let answer;
      try {
        answer = JSON.parse(call(JSON.stringify(req)));
      } catch (err) {
        answer = { error: String(err.message || err) };
      }
      answer.id = req.id;
      answer.version = req.version;
      answer.workerMs = Math.round((performance.now() - t) * 10) / 10;
      post(answer);
    }
  } finally {
    running = false;
  }
}

self.onmessage = (event) => {
  const req = event.data;
  if (req.op === "analyse") {
    // a newer analysis replaces the one still waiting (its answer is never needed)
    for (let i = queue.length - 1; i >= 0; i--) {
      if (queue[i].op === "analyse") {
        post({ id: queue[i].id, superseded: true });
        queue.splice(i, 1);
      }
    }
  }
  queue.push(req);
  // a macrotask between requests lets newer messages arrive (and replace) first
  setTimeout(pump, 0);
};
