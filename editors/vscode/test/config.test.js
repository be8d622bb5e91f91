const test = require("node:test");
const assert = require("node:assert");
require("./mocks");
const { findServer, serverSettings, onPath } = require("../out/extension.js").__test || {};

// config.ts is bundled into the extension; esbuild exposes it through a small test hook
test("discovery order: setting, then jobspec-lsp on PATH, then python3 -m", () => {
  const exists = (set) => (p) => set.has(p);
  const env = ["/a", "/b"].join(require("path").delimiter);
  assert.deepStrictEqual(findServer({ server: { path: " /x/lsp ", args: ["-v"] } }, env, exists(new Set())),
    { command: "/x/lsp", args: ["-v"], source: "setting" });
  assert.deepStrictEqual(findServer({}, env, exists(new Set(["/b/jobspec-lsp", "/a/python3"]))),
    { command: "/b/jobspec-lsp", args: [], source: "path" });
  assert.deepStrictEqual(findServer({}, env, exists(new Set(["/a/python3"]))),
    { command: "/a/python3", args: ["-m", "jobspec_lsp", "lsp"], source: "python" });
  assert.strictEqual(findServer({}, env, exists(new Set())), undefined);
  assert.strictEqual(onPath("x", undefined, () => true), undefined);
});

test("settings map to the server's jobspec section, empty ones left out", () => {
  assert.deepStrictEqual(serverSettings({ select: [], ignore: ["JS8"], versionRules: "auto",
                                          files: ["*.job.yaml"], format: { sortKeys: false }, docsUrl: "" }),
    { jobspec: { ignore: ["JS8"], versionRules: "auto", files: ["*.job.yaml"], format: { sortKeys: false } } });
});
