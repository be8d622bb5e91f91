// The extension's discovery and settings against the real jobspec-lsp server:
// found on PATH, or as `python3 -m jobspec_lsp lsp`; initializationOptions and
// workspace/configuration answered the way VS Code answers them.
// Needs the directory holding jobspec-lsp and its python in JOBSPEC_LSP_BIN
// (scripts/test-vscode passes the project's virtualenv); skipped without it.
const test = require("node:test");
const assert = require("node:assert");
const cp = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const rpc = require("vscode-languageserver-protocol/node");
const { findServer, serverSettings, DEFAULT_FILES } = require("../out/config.js");

const BIN = process.env.JOBSPEC_LSP_BIN;
const skip = BIN ? false : "set JOBSPEC_LSP_BIN to the directory of jobspec-lsp (scripts/test-vscode does)";
const SYSTEM_PATH = ["/usr/bin", "/bin"].join(path.delimiter);

// what VS Code returns for getConfiguration().get("jobspec") with every setting at its default
const VSCODE_SECTION = {
  select: [], ignore: ["JS8"], versionRules: "auto", files: DEFAULT_FILES, format: { sortKeys: true },
  docsUrl: "", server: { path: "", args: [] }, trace: { server: "off" },
};

const BROKEN = `version: 1
resources:
  - type: node
    count: 0
    exclusive: true
    with:
      - type: slot
        count: 1
        label: task
        with:
          - {type: core, count: 1}
tasks:
  - command: [app]
    slot: tsak
    count: {per_slot: 1}
attributes:
  system: {duration: "1h", queue: yes}
`;

/**
 * Start the discovered server with these initializationOptions, open BROKEN, and
 * return the first diagnostics that satisfy `until` (line:code strings).
 */
async function diagnose(server, { initializationOptions, pullConfiguration, until = () => true }) {
  const proc = cp.spawn(server.command, server.args, { stdio: ["pipe", "pipe", "inherit"] });
  const conn = rpc.createProtocolConnection(new rpc.StreamMessageReader(proc.stdout),
                                            new rpc.StreamMessageWriter(proc.stdin));
  const asked = [];
  conn.onRequest("workspace/configuration", (params) => {
    asked.push(...params.items.map((i) => i.section));
    return params.items.map(() => VSCODE_SECTION);
  });
  let wanted;
  const done = new Promise((resolve) => { wanted = resolve; });
  conn.onNotification("textDocument/publishDiagnostics", (params) => {
    const codes = params.diagnostics.map((d) => `${d.range.start.line + 1}:${d.code}`);
    if (until(codes)) wanted(codes);
  });
  conn.listen();
  try {
    await conn.sendRequest("initialize", {
      processId: process.pid, rootUri: null,
      capabilities: pullConfiguration ? { workspace: { configuration: true } } : {},
      initializationOptions,
    });
    conn.sendNotification("initialized", {});
    conn.sendNotification("textDocument/didOpen", { textDocument: {
      uri: "file:///tmp/jobspec-vscode-test/job.jobspec.yaml", languageId: "yaml", version: 1, text: BROKEN } });
    let timer;
    const codes = await Promise.race([done, new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error("no matching diagnostics within 30 s")), 30000);
    })]);
    clearTimeout(timer);
    await conn.sendRequest("shutdown");
    const exited = new Promise((resolve) => proc.once("exit", resolve));
    await conn.sendNotification("exit");
    await exited;
    return { codes, asked };
  } finally {
    conn.dispose();
    if (proc.exitCode === null) proc.kill();
  }
}

const noJS8 = (codes) => !codes.some((c) => c.includes(":JS8"));

function expectDiagnostics(codes) {
  for (const want of ["4:JS202", "14:JS307", "17:JS405", "17:JS905"]) {
    assert.ok(codes.includes(want), `${want} in ${codes.join(" ")}`);
  }
  assert.ok(noJS8(codes), codes.join(" "));  // 5:JS804 (exclusive node) is ignored by the settings
}

test("jobspec-lsp on PATH, initializationOptions", { skip }, async () => {
  const found = findServer({}, [BIN, SYSTEM_PATH].join(path.delimiter));
  assert.strictEqual(found.server.source, "path");
  assert.strictEqual(found.server.command, path.join(BIN, "jobspec-lsp"));
  const opts = serverSettings({ ignore: ["JS8"], versionRules: "auto", docsUrl: "" });
  const { codes } = await diagnose(found.server, { initializationOptions: opts, pullConfiguration: false });
  expectDiagnostics(codes);
  // without the setting the note is there
  const plain = await diagnose(found.server, { initializationOptions: serverSettings({}), pullConfiguration: false });
  assert.ok(plain.codes.includes("5:JS804"), plain.codes.join(" "));
});

test("python3 -m jobspec_lsp lsp, settings pulled through workspace/configuration", { skip }, async () => {
  // a python3 on PATH that is the virtualenv's python, with no jobspec-lsp beside it
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "jobspec-py-"));
  fs.writeFileSync(path.join(dir, "python3"), `#!/bin/sh\nexec "${path.join(BIN, "python")}" "$@"\n`);
  fs.chmodSync(path.join(dir, "python3"), 0o755);
  const found = findServer({}, [dir, SYSTEM_PATH].join(path.delimiter));
  assert.deepStrictEqual(found.server,
    { command: path.join(dir, "python3"), args: ["-m", "jobspec_lsp", "lsp"], source: "python" });
  // nothing in initializationOptions: the ignore comes from the pulled section
  const { codes, asked } = await diagnose(found.server,
    { initializationOptions: serverSettings({}), pullConfiguration: true, until: noJS8 });
  assert.deepStrictEqual(asked, ["jobspec"]);
  expectDiagnostics(codes);
});
