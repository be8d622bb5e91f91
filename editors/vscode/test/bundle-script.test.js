// scripts/bundle.js, which `npm run package` runs first (prepackage) so the .vsix
// carries the server: which Python bundles it, and the refusals that say what to do.
// scripts/test-vscode packages for real and checks the .vsix holds the server.
const test = require("node:test");
const assert = require("node:assert");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { spawnSync } = require("child_process");
const { candidates, choosePython, checkBundled } = require("../scripts/bundle.js");

const SCRIPT = path.join(__dirname, "..", "scripts", "bundle.js");
const PKG = require("../package.json");

function quietly(fn) {
  const said = [];
  const original = console.error;
  console.error = (...a) => said.push(a.join(" "));
  try {
    return [fn(), said.join("\n")];
  } finally {
    console.error = original;
  }
}

test("npm run package bundles the server first; vsce's own prepublish refuses without it", () => {
  assert.strictEqual(PKG.scripts.prepackage, "npm run bundle");
  assert.match(PKG.scripts.bundle, /^node scripts\/bundle\.js\b/);
  assert.match(PKG.scripts["vscode:prepublish"], /^node scripts\/bundle\.js --check && /);
});

test("JOBSPEC_PYTHON is the only Python tried when it is set", () => {
  assert.deepStrictEqual(candidates({ JOBSPEC_PYTHON: "/opt/py/bin/python" }), ["/opt/py/bin/python"]);
  assert.strictEqual(candidates({}).at(-1), "python3");
});

test("a Python that cannot bundle is passed over, with its reason", () => {
  const why = [];
  assert.strictEqual(choosePython({ JOBSPEC_PYTHON: "/nonexistent/python3" }, why), null);
  assert.deepStrictEqual(why, ["/nonexistent/python3: not found"]);
});

test("no usable Python: npm run package stops and says how to get one", () => {
  const got = spawnSync(process.execPath, [SCRIPT], {
    env: { ...process.env, JOBSPEC_PYTHON: "/nonexistent/python3" }, encoding: "utf8" });
  assert.strictEqual(got.status, 1);
  assert.match(got.stderr, /needs a Python 3\.10 or later with pip and jobspec-lsp's dependencies/);
  assert.match(got.stderr, /python3 -m venv \.venv && \.venv\/bin\/pip install \./);
  assert.match(got.stderr, /then run `npm run package` again/);
});

test("--check refuses a bundled/ without the server, accepts one with it", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bundled-"));
  try {
    const [empty, said] = quietly(() => checkBundled(dir));
    assert.strictEqual(empty, false);
    assert.match(said, /has no bundled server.*`npm run package`/);
    fs.writeFileSync(path.join(dir, "server.py"), "");
    fs.mkdirSync(path.join(dir, "libs", "jobspec_lsp"), { recursive: true });
    assert.strictEqual(quietly(() => checkBundled(dir))[0], true);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
