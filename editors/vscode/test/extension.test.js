const test = require("node:test");
const assert = require("node:assert");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { state, reset } = require("./mocks");

const ext = require("../out/extension.js");

function context() {
  return { subscriptions: [] };
}

function fakeBin(names) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "jobspec-bin-"));
  for (const n of names) {
    const p = path.join(dir, n);
    fs.writeFileSync(p, "#!/bin/sh\n");
    fs.chmodSync(p, 0o755);
  }
  return dir;
}

test("activation registers the restart command and starts the client on PATH", async () => {
  reset();
  const bin = fakeBin(["jobspec-lsp"]);
  const saved = process.env.PATH;
  process.env.PATH = bin;
  try {
    state.config["jobspec.ignore"] = ["JS8"];
    state.config["jobspec.versionRules"] = "v1";
    const ctx = context();
    await ext.activate(ctx);
    assert.ok(state.commands["jobspec.restartServer"]);
    assert.strictEqual(state.clients.length, 1);
    const c = state.clients[0];
    assert.ok(c.started);
    assert.deepStrictEqual(c.serverOptions, { command: path.join(bin, "jobspec-lsp"), args: [] });
    assert.deepStrictEqual(c.clientOptions.initializationOptions,
      { jobspec: { ignore: ["JS8"], versionRules: "v1", format: { sortKeys: true } } });
    assert.deepStrictEqual(c.clientOptions.synchronize, { configurationSection: "jobspec" });
    assert.ok(c.clientOptions.documentSelector.some((s) => s.language === "yaml"));
    assert.ok(state.output.some((l) => l.includes("found via path")));
    assert.ok(ctx.subscriptions.length >= 2);
    await ext.deactivate();
    assert.ok(c.stopped);
  } finally {
    process.env.PATH = saved;
  }
});

test("the server.path setting wins and its args are passed", async () => {
  reset();
  state.config["jobspec.server.path"] = "/opt/flux/bin/jobspec-lsp";
  state.config["jobspec.server.args"] = ["--log-level", "DEBUG"];
  await ext.activate(context());
  assert.deepStrictEqual(state.clients[0].serverOptions,
    { command: "/opt/flux/bin/jobspec-lsp", args: ["--log-level", "DEBUG"] });
  await ext.deactivate();
});

test("restart stops the old client and starts a new one", async () => {
  reset();
  state.config["jobspec.server.path"] = "jobspec-lsp";
  await ext.activate(context());
  const first = state.clients[0];
  assert.strictEqual(await state.commands["jobspec.restartServer"](), true);
  assert.ok(first.stopped);
  assert.strictEqual(state.clients.length, 2);
  assert.ok(state.clients[1].started);
  // changing a server setting restarts too
  await state.configListeners[0]({ affectsConfiguration: (s) => s === "jobspec.server" });
  await new Promise((r) => setTimeout(r, 10));
  assert.strictEqual(state.clients.length, 3);
  await ext.deactivate();
});

test("a server that cannot start gives a readable error with a way to settings", async () => {
  reset();
  state.config["jobspec.server.path"] = "/nowhere/jobspec-lsp";
  state.startFails = true;
  state.errorChoice = "Open settings";
  await ext.activate(context());
  assert.strictEqual(state.errors.length, 1);
  assert.match(state.errors[0].message, /could not start \(\/nowhere\/jobspec-lsp\): Error: spawn jobspec-lsp ENOENT/);
  assert.deepStrictEqual(state.errors[0].items, ["Open settings", "Show output"]);
  assert.deepStrictEqual(state.executed, [["workbench.action.openSettings", "jobspec.server"]]);
});

test("no server anywhere: say how to install it", async () => {
  reset();
  const saved = process.env.PATH;
  process.env.PATH = fakeBin([]);
  try {
    await ext.activate(context());
    assert.strictEqual(state.clients.length, 0);
    assert.match(state.errors[0].message, /pip install jobspec-lsp/);
  } finally {
    process.env.PATH = saved;
  }
});
