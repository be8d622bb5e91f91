// The extension against a mocked `vscode` and LanguageClient (test/mocks.js).
const test = require("node:test");
const assert = require("node:assert");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { state, reset, doc, CloseAction } = require("./mocks");
const ext = require("../out/extension.js");

const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "package.json"), "utf8"));

/** A directory of executables (shell scripts exiting 0), to put on PATH. */
function fakeBin(names) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "jobspec-bin-"));
  for (const n of names) {
    fs.writeFileSync(path.join(dir, n), "#!/bin/sh\nexit 0\n");
    fs.chmodSync(path.join(dir, n), 0o755);
  }
  return dir;
}

const savedPath = process.env.PATH;
test.afterEach(async () => {
  await ext.deactivate();
  process.env.PATH = savedPath;
});

function fresh(pathDirs = [], extensionPath = path.join(os.tmpdir(), "jobspec-no-extension")) {
  reset();
  process.env.PATH = pathDirs.join(path.delimiter);
  return { subscriptions: [], extensionPath };
}

const tick = () => new Promise((r) => setTimeout(r, 10));

test("package.json: activation, the restart command and the settings of docs/editors.md", () => {
  assert.deepStrictEqual(pkg.activationEvents, ["onLanguage:yaml", "onLanguage:json", "onLanguage:shellscript",
    "onLanguage:python", "onLanguage:lua", "onLanguage:perl", "onLanguage:plaintext"]);
  assert.deepStrictEqual(pkg.contributes.commands, [
    { command: "jobspec.restartServer", title: "Jobspec: Restart server" },
    { command: "jobspec.showBatchJobspec", title: "Jobspec: Show the jobspec flux batch builds" }]);
  assert.deepStrictEqual(Object.keys(pkg.contributes.configuration.properties), [
    "jobspec.select", "jobspec.ignore", "jobspec.target", "jobspec.fluxVersion", "jobspec.site", "jobspec.versionRules", "jobspec.files", "jobspec.scripts",
    "jobspec.format.sortKeys",
    "jobspec.docsUrl", "jobspec.server.path", "jobspec.server.importStrategy", "jobspec.server.args",
    "jobspec.trace.server"]);
  assert.strictEqual(pkg.engines.vscode, "^1.82.0");
  assert.strictEqual(pkg.main, "./dist/extension.js");
});

test("activation registers the command; the server starts with the first jobspec document", async () => {
  const bin = fakeBin(["jobspec-lsp"]);
  const ctx = fresh([bin]);
  state.config["jobspec.ignore"] = ["JS8"];
  state.config["jobspec.versionRules"] = "v1";
  state.documents = [doc("/w/docker-compose.yml")];
  await ext.activate(ctx);
  assert.strictEqual(typeof state.commands["jobspec.restartServer"], "function");
  assert.ok(ctx.subscriptions.length >= 4);
  assert.strictEqual(state.clients.length, 0, "no jobspec open yet: no server");

  for (const l of state.openListeners) l(doc("/w/other.yaml"));
  await tick();
  assert.strictEqual(state.clients.length, 0);
  for (const l of state.openListeners) l(doc("/w/jobs/run.jobspec.yaml"));
  await tick();
  assert.strictEqual(state.clients.length, 1);
  const c = state.clients[0];
  assert.ok(c.running);
  assert.strictEqual(c.id, "jobspec");  // so the client reads jobspec.trace.server
  assert.deepStrictEqual(c.serverOptions, { command: path.join(bin, "jobspec-lsp"), args: [] });
  const opts = c.clientOptions;
  assert.deepStrictEqual(opts.initializationOptions,
    { jobspec: { ignore: ["JS8"], versionRules: "v1", format: { sortKeys: true } } });
  assert.deepStrictEqual(opts.synchronize, { configurationSection: "jobspec" });
  assert.deepStrictEqual(opts.documentSelector.map((f) => `${f.language} ${f.pattern ?? "(middleware)"}`), [
    "yaml **/*.jobspec.{yaml,yml,json}", "yaml **/jobspec.{yaml,yml,json}",
    "json **/*.jobspec.{yaml,yml,json}", "json **/jobspec.{yaml,yml,json}",
    "shellscript (middleware)", "python (middleware)", "lua (middleware)", "perl (middleware)",
    "plaintext (middleware)"]);
  assert.strictEqual(opts.outputChannel.name, "Flux Jobspec");
  assert.deepStrictEqual(state.output.slice(0, 3), ["jobspec.server.path is not set.",
    `jobspec-lsp on PATH: ${path.join(bin, "jobspec-lsp")}`, `Starting: ${path.join(bin, "jobspec-lsp")}`]);

  // a second jobspec does not start a second server
  for (const l of state.openListeners) l(doc("/w/jobspec.json"));
  await tick();
  assert.strictEqual(state.clients.length, 1);
  await ext.deactivate();
  assert.ok(c.stopped);
});

test("a jobspec already open at activation starts the server at once", async () => {
  const ctx = fresh([fakeBin(["jobspec-lsp"])]);
  state.documents = [doc("/w/a.jobspec.json")];
  await ext.activate(ctx);
  assert.strictEqual(state.clients.length, 1);
  assert.ok(state.clients[0].running);
});

test("globs added to jobspec.files widen the document selector", async () => {
  const ctx = fresh([fakeBin(["jobspec-lsp"])]);
  state.config["jobspec.files"] = ["*.flux.yaml"];
  state.documents = [doc("/w/big.flux.yaml")];
  await ext.activate(ctx);
  assert.strictEqual(state.clients.length, 1);
  assert.ok(state.clients[0].clientOptions.documentSelector.some((f) => f.pattern === "**/*.flux.yaml"));
  assert.deepStrictEqual(state.clients[0].clientOptions.initializationOptions.jobspec.files, ["*.flux.yaml"]);
});

test("the python3 -m jobspec_lsp lsp fallback, and server.args", async () => {
  const bin = fakeBin(["python3"]);  // exits 0: "can import jobspec_lsp.lsp.server"
  const ctx = fresh([bin]);
  state.config["jobspec.server.args"] = ["--log-level", "DEBUG"];
  state.documents = [doc("/w/jobspec.yaml")];
  await ext.activate(ctx);
  assert.deepStrictEqual(state.clients[0].serverOptions,
    { command: path.join(bin, "python3"), args: ["-m", "jobspec_lsp", "lsp", "--log-level", "DEBUG"] });
  assert.ok(state.output.includes("jobspec-lsp is not on PATH."));
  assert.ok(state.output.includes(`${path.join(bin, "python3")} can import jobspec_lsp.lsp.server.`));
});

test("the server.path setting wins over PATH", async () => {
  const own = fakeBin(["my-jobspec-lsp"]);
  const ctx = fresh([fakeBin(["jobspec-lsp"])]);
  state.config["jobspec.server.path"] = path.join(own, "my-jobspec-lsp");
  state.documents = [doc("/w/x.jobspec.yml")];
  await ext.activate(ctx);
  assert.deepStrictEqual(state.clients[0].serverOptions, { command: path.join(own, "my-jobspec-lsp"), args: [] });
});

test("restart: the command stops the old client and starts a new one; server settings restart too", async () => {
  const ctx = fresh([fakeBin(["jobspec-lsp"])]);
  state.documents = [doc("/w/x.jobspec.yaml")];
  await ext.activate(ctx);
  const first = state.clients[0];
  assert.strictEqual(await state.commands["jobspec.restartServer"](), true);
  assert.ok(first.stopped);
  assert.strictEqual(state.clients.length, 2);
  assert.ok(state.clients[1].running);

  const change = (section) => ({ affectsConfiguration: (s) => s === section });
  for (const l of state.configListeners) l(change("jobspec.select"));  // reaches the server by sync
  await tick();
  assert.strictEqual(state.clients.length, 2);
  for (const l of state.configListeners) l(change("jobspec.server"));
  await tick();
  assert.strictEqual(state.clients.length, 3);
  assert.ok(state.clients[1].stopped);
  for (const l of state.configListeners) l(change("jobspec.files"));
  await tick();
  assert.strictEqual(state.clients.length, 4);
});

test("restart with no jobspec open starts the server (it is what the user asked for)", async () => {
  const ctx = fresh([fakeBin(["jobspec-lsp"])]);
  await ext.activate(ctx);
  assert.strictEqual(state.clients.length, 0);
  for (const l of state.configListeners) l({ affectsConfiguration: () => true });
  await tick();
  assert.strictEqual(state.clients.length, 0, "settings changes alone do not start it");
  assert.strictEqual(await state.commands["jobspec.restartServer"](), true);
  assert.strictEqual(state.clients.length, 1);
});

test("error: a server.path that does not exist gives a readable message and opens the settings", async () => {
  const ctx = fresh([fakeBin(["jobspec-lsp"])]);
  state.config["jobspec.server.path"] = "/nowhere/jobspec-lsp";
  state.errorChoice = "Open settings";
  state.documents = [doc("/w/x.jobspec.yaml")];
  await ext.activate(ctx);
  await tick();
  assert.strictEqual(state.clients.length, 0);
  assert.deepStrictEqual(state.errors, [{
    message: 'jobspec.server.path is "/nowhere/jobspec-lsp", which is not an executable file.',
    items: ["Open settings", "Show output"] }]);
  assert.deepStrictEqual(state.executed, [["workbench.action.openSettings", "jobspec.server"]]);
  assert.ok(state.output.includes('jobspec.server.path is "/nowhere/jobspec-lsp", which is not an executable file.'));

  // fixing the setting restarts, and this time it runs
  state.config["jobspec.server.path"] = "jobspec-lsp";
  for (const l of state.configListeners) l({ affectsConfiguration: (s) => s === "jobspec.server" });
  await tick();
  assert.strictEqual(state.clients.length, 1);
  assert.ok(state.clients[0].running);
});

test("error: no server anywhere says how to install it; Show output reveals the channel", async () => {
  const ctx = fresh([fakeBin([])]);
  state.errorChoice = "Show output";
  state.documents = [doc("/w/x.jobspec.yaml")];
  await ext.activate(ctx);
  await tick();
  assert.strictEqual(state.clients.length, 0);
  assert.match(state.errors[0].message, /not found: install it with `pip install jobspec-lsp`/);
  assert.ok(state.shown);
  assert.deepStrictEqual(state.output.slice(0, 4), ["jobspec.server.path is not set.", "jobspec-lsp is not on PATH.",
    "python3 is not on PATH.", "python is not on PATH."]);
});

test("error: a server that cannot start is reported, with a way to the settings", async () => {
  const ctx = fresh([fakeBin(["jobspec-lsp"])]);
  state.start = "throws";
  state.errorChoice = "Open settings";
  state.documents = [doc("/w/x.jobspec.yaml")];
  await ext.activate(ctx);
  await tick();
  assert.strictEqual(state.errors.length, 1);
  assert.match(state.errors[0].message,
    /^The jobspec language server could not start \(.*jobspec-lsp\): spawn jobspec-lsp ENOENT$/);
  assert.deepStrictEqual(state.errors[0].items, ["Open settings", "Show output"]);
  assert.deepStrictEqual(state.executed, [["workbench.action.openSettings", "jobspec.server"]]);
  // the restart command tries again
  state.start = "ok";
  assert.strictEqual(await state.commands["jobspec.restartServer"](), true);
  assert.ok(state.clients[1].running);
});

test("error: a server that exits while starting is not restarted behind the user's back", async () => {
  const ctx = fresh([fakeBin(["jobspec-lsp"])]);
  state.start = "dies";
  state.documents = [doc("/w/x.jobspec.yaml")];
  await ext.activate(ctx);
  const c = state.clients[0];
  assert.deepStrictEqual(c.closedWhileStarting, { action: CloseAction.DoNotRestart, handled: true });
  assert.strictEqual(state.errors.length, 1);
  assert.match(state.errors[0].message, /could not start .*connection got disposed/);
  // once running, a crash is left to the client's own handler (which restarts)
  c.running = true;
  assert.deepStrictEqual(c.clientOptions.errorHandler.closed(), { action: CloseAction.Restart });
});


const SCRIPT = "#!/bin/sh\n#flux: -N2\nflux run ./a\n";

test("batch scripts: a script with directives starts the server; only such scripts reach it", async () => {
  const ctx = fresh([fakeBin(["jobspec-lsp"])]);
  await ext.activate(ctx);
  for (const l of state.openListeners) l(doc("/w/plain.sh", "shellscript", "file", "#!/bin/sh\necho hi\n"));
  await tick();
  assert.strictEqual(state.clients.length, 0, "a script without directives starts nothing");
  const script = doc("/w/job.sh", "shellscript", "file", SCRIPT);
  for (const l of state.openListeners) l(script);
  await tick();
  assert.strictEqual(state.clients.length, 1);
  const mw = state.clients[0].clientOptions.middleware;
  const sent = [];
  const next = (d) => { sent.push(d.uri.fsPath); };
  await mw.didOpen(doc("/w/plain.sh", "shellscript", "file", "echo hi\n"), next);
  await mw.didOpen(script, next);
  await mw.didOpen(doc("/w/slurm.sh", "shellscript", "file", "#!/bin/bash\n#SBATCH -N 2\n"), next);
  await mw.didOpen(doc("/w/x.jobspec.yaml"), next);
  assert.deepStrictEqual(sent, ["/w/job.sh", "/w/slurm.sh", "/w/x.jobspec.yaml"]);
  // a change to an unsent script is dropped; once it holds a directive it is opened
  const later = doc("/w/plain.sh", "shellscript", "file", "echo hi\n");
  await mw.didChange({ document: later }, () => sent.push("change"));
  assert.deepStrictEqual(state.notifications, []);
  later.getText = () => "#!/bin/sh\n#flux: -n1\n";
  await mw.didChange({ document: later }, () => sent.push("change"));
  assert.deepStrictEqual(state.notifications.map(([m, p]) => [m, p.textDocument.uri, p.textDocument.text]),
    [["textDocument/didOpen", "file:///w/plain.sh", "#!/bin/sh\n#flux: -n1\n"]]);
  await mw.didChange({ document: later }, () => sent.push("change"));
  assert.deepStrictEqual(sent.slice(3), ["change"]);
  // closing: only what was sent is closed
  const closed = [];
  await mw.didClose(doc("/w/never.sh", "shellscript"), (d) => closed.push(d.uri.fsPath));
  await mw.didClose(later, (d) => closed.push(d.uri.fsPath));
  assert.deepStrictEqual(closed, ["/w/plain.sh"]);
});

test("batch scripts: jobspec.scripts globs send a script without directives", async () => {
  const ctx = fresh([fakeBin(["jobspec-lsp"])]);
  state.config["jobspec.scripts"] = ["**/*.flux"];
  state.documents = [doc("/w/run.flux", "shellscript", "file", "echo hi\n")];
  await ext.activate(ctx);
  assert.strictEqual(state.clients.length, 1);
  const sent = [];
  await state.clients[0].clientOptions.middleware.didOpen(state.documents[0], (d) => sent.push(d));
  assert.strictEqual(sent.length, 1);
});

test("Show the jobspec: asks the server and opens the answer beside the script", async () => {
  const ctx = fresh([fakeBin(["jobspec-lsp"])]);
  const script = doc("/w/job.sh", "shellscript", "file", SCRIPT);
  state.documents = [script];
  await ext.activate(ctx);
  state.active = undefined;
  await state.commands["jobspec.showBatchJobspec"]();
  assert.deepStrictEqual(state.infos, ["Open a batch script with #flux: directives first."]);
  state.active = { document: script };
  state.answer = { text: "version: 1\n", language: "yaml" };
  await state.commands["jobspec.showBatchJobspec"]();
  assert.deepStrictEqual(state.requests, [["workspace/executeCommand",
    { command: "jobspec.showJobspec", arguments: ["file:///w/job.sh", "yaml"] }]]);
  assert.deepStrictEqual(state.opened, [{ content: "version: 1\n", language: "yaml" }]);
  assert.strictEqual(state.shownDocument.options.viewColumn, -2);
  state.answer = { error: "flux batch would refuse this script: more nodes than slots" };
  await state.commands["jobspec.showBatchJobspec"]();
  assert.deepStrictEqual(state.infos.slice(1), ["Jobspec: flux batch would refuse this script: more nodes than slots"]);
});
