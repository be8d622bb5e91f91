// The pure module, loaded directly: no vscode, no mocks.
const test = require("node:test");
const assert = require("node:assert");
const fs = require("fs");
const path = require("path");
const { documentSelector, findServer, onPath, serverSettings, DEFAULT_FILES } = require("../out/config.js");

/** Probes over a fake file system: `files` are the executables, `importers` the pythons with jobspec_lsp. */
function probes(files, importers = [], platform = "linux") {
  return {
    isExecutable: (p) => files.includes(p),
    canImport: (p) => importers.includes(p),
    platform,
    home: "/home/u",
  };
}
const PATH = "/usr/local/bin:/usr/bin";

test("discovery: the jobspec.server.path setting comes first, with its args", () => {
  const got = findServer({ server: { path: " /opt/j/jobspec-lsp ", args: ["--log-level", "DEBUG"] } }, PATH,
    probes(["/opt/j/jobspec-lsp", "/usr/bin/jobspec-lsp"]));
  assert.deepStrictEqual(got.server, { command: "/opt/j/jobspec-lsp", args: ["--log-level", "DEBUG"], source: "setting" });
  assert.deepStrictEqual(got.notes, ["jobspec.server.path: /opt/j/jobspec-lsp"]);
});

test("discovery: a server.path without a directory is looked up on PATH, ~ is the home directory", () => {
  assert.strictEqual(findServer({ server: { path: "my-lsp" } }, PATH, probes(["/usr/bin/my-lsp"])).server.command,
    "/usr/bin/my-lsp");
  assert.strictEqual(findServer({ server: { path: "~/venv/bin/jobspec-lsp" } }, PATH,
    probes(["/home/u/venv/bin/jobspec-lsp"])).server.command, "/home/u/venv/bin/jobspec-lsp");
});

test("discovery: a server.path that does not exist is reported, with no fallback", () => {
  const got = findServer({ server: { path: "/nowhere/jobspec-lsp" } }, PATH, probes(["/usr/bin/jobspec-lsp"]));
  assert.strictEqual(got.server, undefined);
  assert.strictEqual(got.problem, 'jobspec.server.path is "/nowhere/jobspec-lsp", which is not an executable file.');
  const bare = findServer({ server: { path: "nope" } }, PATH, probes([]));
  assert.match(bare.problem, /"nope", which is not an executable file on PATH/);
});

test("discovery: then jobspec-lsp on PATH (first directory wins)", () => {
  const got = findServer({ server: { args: ["-v"] } }, PATH,
    probes(["/usr/bin/jobspec-lsp", "/usr/local/bin/jobspec-lsp", "/usr/bin/python3"], ["/usr/bin/python3"]));
  assert.deepStrictEqual(got.server, { command: "/usr/local/bin/jobspec-lsp", args: ["-v"], source: "path" });
  assert.deepStrictEqual(got.notes, ["jobspec.server.path is not set.", "jobspec-lsp on PATH: /usr/local/bin/jobspec-lsp"]);
});

test("discovery: then python3 -m jobspec_lsp lsp, only if that python can import it", () => {
  const got = findServer({ server: { args: ["-v"] } }, PATH,
    probes(["/usr/bin/python3", "/usr/local/bin/python"], ["/usr/bin/python3"]));
  assert.deepStrictEqual(got.server,
    { command: "/usr/bin/python3", args: ["-m", "jobspec_lsp", "lsp", "-v"], source: "python" });
  assert.deepStrictEqual(got.notes, ["jobspec.server.path is not set.", "jobspec-lsp is not on PATH.",
    "/usr/bin/python3 can import jobspec_lsp.lsp.server."]);
  // python3 without the package, python with it
  const other = findServer({}, PATH, probes(["/usr/bin/python3", "/usr/local/bin/python"], ["/usr/local/bin/python"]));
  assert.strictEqual(other.server.command, "/usr/local/bin/python");
  assert.ok(other.notes.includes("/usr/bin/python3 cannot import jobspec_lsp.lsp.server."));
});

test("discovery: nothing found says what was looked at and how to install", () => {
  const got = findServer({}, PATH, probes(["/usr/bin/python3"]));
  assert.strictEqual(got.server, undefined);
  assert.deepStrictEqual(got.notes, ["jobspec.server.path is not set.", "jobspec-lsp is not on PATH.",
    "/usr/bin/python3 cannot import jobspec_lsp.lsp.server.", "python is not on PATH."]);
  assert.match(got.problem, /pip install jobspec-lsp/);
  assert.match(got.problem, /jobspec\.server\.path/);
  assert.strictEqual(findServer({}, undefined, probes([])).server, undefined);
});

test("PATH lookup on Windows tries the PATHEXT suffixes", () => {
  const p = probes(["C:\\py\\Scripts\\jobspec-lsp.EXE"], [], "win32");
  assert.strictEqual(onPath("jobspec-lsp", "C:\\Windows;C:\\py\\Scripts", p, ".COM;.EXE"),
    "C:\\py\\Scripts\\jobspec-lsp.EXE");
});

test("the real probes find a real executable", () => {
  assert.strictEqual(onPath("node", path.dirname(process.execPath)), process.execPath);
  assert.strictEqual(onPath("surely-not-a-command-here", process.env.PATH), undefined);
});

test("settings map to the server's initializationOptions, defaults left out", () => {
  assert.deepStrictEqual(serverSettings({
    server: { path: "/x", args: [] }, select: [], ignore: ["JS8"], versionRules: "v1", target: "fluxion",
    files: ["*.job.yaml"], format: { sortKeys: false }, docsUrl: "",
  }), { jobspec: { ignore: ["JS8"], versionRules: "v1", target: "fluxion", files: ["*.job.yaml"], format: { sortKeys: false } } });
  assert.deepStrictEqual(serverSettings({ select: ["JS2", "JS307"], docsUrl: "https://example.org/rules.md" }),
    { jobspec: { select: ["JS2", "JS307"], docsUrl: "https://example.org/rules.md" } });
  assert.deepStrictEqual(serverSettings({}), { jobspec: {} });
  assert.deepStrictEqual(serverSettings({ fluxVersion: "0.88" }), { jobspec: { fluxVersion: "0.88" } });
  assert.deepStrictEqual(serverSettings({ fluxVersion: "" }), { jobspec: {} });
  assert.deepStrictEqual(serverSettings({ site: "site" }), { jobspec: { site: "site" } });
  assert.deepStrictEqual(serverSettings({ site: "" }), { jobspec: {} });
});

test("document selector: YAML and JSON files with jobspec names, plus the jobspec.files globs", () => {
  const yaml = (pattern) => ({ scheme: "file", language: "yaml", pattern });
  const json = (pattern) => ({ scheme: "file", language: "json", pattern });
  const std = ["**/*.jobspec.{yaml,yml,json}", "**/jobspec.{yaml,yml,json}"];
  assert.deepStrictEqual(documentSelector(), [...std.map(yaml), ...std.map(json)]);
  assert.deepStrictEqual(documentSelector(DEFAULT_FILES), documentSelector([]));
  const extra = documentSelector([...DEFAULT_FILES, "*.job.yaml", "**/flux/*.yaml", ""]);
  const more = [...std, "**/*.job.yaml", "**/flux/*.yaml"];
  assert.deepStrictEqual(extra, [...more.map(yaml), ...more.map(json)]);
});

test("the server's default files are the extension's default jobspec.files", () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "package.json"), "utf8"));
  assert.deepStrictEqual(pkg.contributes.configuration.properties["jobspec.files"].default, DEFAULT_FILES);
});

test("... and the server's own JOBSPEC_GLOBS (jobspec_lsp/text/sources.py)", () => {
  const server = fs.readFileSync(path.join(__dirname, "..", "..", "..", "jobspec_lsp", "text", "sources.py"), "utf8");
  const globs = server.match(/^JOBSPEC_GLOBS = \(([^)]*)\)/m);
  assert.ok(globs, "JOBSPEC_GLOBS not found in sources.py");
  assert.deepStrictEqual([...globs[1].matchAll(/"([^"]+)"/g)].map((m) => m[1]), DEFAULT_FILES);
});

const { hasDirectives, hasFluxCommands, isScript, globMatch } = require("../out/config.js");

test("scripts: a #flux: sentinel (RFC 36) or #SBATCH line, in a script language", () => {
  assert.ok(hasDirectives("#!/bin/sh\n#flux: -N2\n"));
  assert.ok(hasDirectives('"""\nflux: -N2\n"""\n'));  // Python docstring: no prefix at all
  assert.ok(hasDirectives("-- FLUX: -n1\n"));
  assert.ok(hasDirectives("#!/bin/bash\n#SBATCH --nodes=2\n"));
  assert.ok(hasDirectives("#BSUB -nnodes 2\n"));
  assert.ok(hasDirectives("#!/bin/bash\n#PBS -l nodes=2\n"));
  assert.ok(!hasDirectives("#BSUBX\n#PBSX -l\n## PBS\n"));
  assert.ok(!hasDirectives("#!/bin/sh\necho flux: no\n"));
  assert.ok(!hasDirectives("#SBATCHX\n#fluxx: -N1\n"));
  assert.ok(isScript("shellscript", "/w/a.sh", "#flux: -N1\n"));
  assert.ok(!isScript("yaml", "/w/a.yaml", "#flux: -N1\n"));
  assert.ok(isScript("plaintext", "/w/jobs/run.flux", "", ["*.flux"]));
  // a shell script that runs Flux commands, without directives
  assert.ok(hasFluxCommands("#!/bin/sh\nflux run -n4 ./app\n"));
  assert.ok(hasFluxCommands("x=$(flux submit --urgency=0 a)\n"));
  assert.ok(hasFluxCommands("  flux mini run -n1 a\n"));
  assert.ok(!hasFluxCommands("echo fluxrun\nflux jobs\nmyflux run a\n"));
  assert.ok(isScript("shellscript", "/w/a.sh", "#!/bin/sh\nflux run a\n"));
  assert.ok(!isScript("python", "/w/a.py", "flux run a\n"));
  assert.ok(isScript("shellscript", "/w/jobs/run.sh", "", ["**/jobs/*.sh"]));
  assert.ok(!isScript("shellscript", "/w/other/run.sh", "", ["**/jobs/*.sh"]));
  assert.ok(globMatch("*.{sh,flux}", "/a/b/c.flux"));
});


function bundledProbes(files, recent, importers = []) {
  return { ...probes(files, importers), isRecentPython: (p) => recent.includes(p),
           exists: (p) => p === "/ext/bundled/server.py" };
}
const BUNDLED = { script: "/ext/bundled/server.py" };

test("discovery: the bundled server comes before PATH, run by the Python extension's interpreter", () => {
  const got = findServer({}, PATH, bundledProbes(["/usr/bin/python3", "/usr/bin/jobspec-lsp", "/venv/bin/python"],
    ["/usr/bin/python3", "/venv/bin/python"]), { ...BUNDLED, interpreter: "/venv/bin/python" });
  assert.deepStrictEqual(got.server, { command: "/venv/bin/python", args: ["-I", "/ext/bundled/server.py"],
                                       source: "bundled" });
  assert.deepStrictEqual(got.notes, ["jobspec.server.path is not set.",
    "The bundled server, run by the Python extension's interpreter: /venv/bin/python"]);
});

test("discovery: the bundled server with python3 on PATH; an old Python is passed over", () => {
  const got = findServer({ server: { args: ["-v"] } }, PATH,
    bundledProbes(["/usr/bin/python3", "/usr/local/bin/python"], ["/usr/local/bin/python"]), BUNDLED);
  assert.deepStrictEqual(got.server.args, ["-I", "/ext/bundled/server.py", "-v"]);
  assert.strictEqual(got.server.command, "/usr/local/bin/python");
  assert.ok(got.notes.includes("python3 on PATH (/usr/bin/python3) is older than Python 3.10."));
});

test("discovery: no recent Python says so; fromEnvironment skips the bundle", () => {
  const none = findServer({}, PATH, bundledProbes(["/usr/bin/python3"], []), BUNDLED);
  assert.strictEqual(none.server, undefined);
  assert.match(none.problem, /needs Python 3.10 or later/);
  const env = findServer({ server: { importStrategy: "fromEnvironment" } }, PATH,
    bundledProbes(["/usr/bin/python3", "/usr/bin/jobspec-lsp"], ["/usr/bin/python3"]), BUNDLED);
  assert.deepStrictEqual(env.server, { command: "/usr/bin/jobspec-lsp", args: [], source: "path" });
});
