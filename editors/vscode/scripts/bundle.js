// Puts the language server into bundled/ before the .vsix is packaged, so that
// `npm run package` always builds a .vsix that carries its server.
//
//   node scripts/bundle.js [--platform linux-x64|universal]   bundle (npm run bundle)
//   node scripts/bundle.js --check                           only refuse when bundled/ is missing
//
// scripts/bundle_server.py does the work; it needs a Python 3.10 or later with pip and
// the server's dependencies installed. The first of these that has them runs it:
// $JOBSPEC_PYTHON (then no other is tried), the checkout's .venv (the one
// ./scripts/test makes), python3 on PATH.
"use strict";
const { spawnSync } = require("child_process");
const fs = require("fs");
const path = require("path");

const EXT = path.resolve(__dirname, "..");
const REPO = path.resolve(EXT, "..", "..");
const BUNDLER = path.join(__dirname, "bundle_server.py");
const SETUP =
  "python3 -m venv .venv && .venv/bin/pip install .   (in the repository root; " +
  "or set JOBSPEC_PYTHON to a Python that has jobspec-lsp installed)";

function candidates(env) {
  if (env.JOBSPEC_PYTHON) return [env.JOBSPEC_PYTHON];
  const venv = process.platform === "win32" ? [".venv", "Scripts", "python.exe"] : [".venv", "bin", "python"];
  const own = path.join(REPO, ...venv);
  return [...(fs.existsSync(own) ? [own] : []), "python3"];
}

// The first candidate that can bundle, or null; `why` collects each one's answer.
function choosePython(env, why) {
  for (const python of candidates(env)) {
    const got = spawnSync(python, [BUNDLER, "--probe"], { encoding: "utf8" });
    if (got.status === 0) return python;
    why.push(got.error ? `${python}: ${got.error.code === "ENOENT" ? "not found" : got.error.message}`
                       : (got.stderr || `${python}: exit ${got.status}`).trim());
  }
  return null;
}

function checkBundled(dir) {
  if (fs.existsSync(path.join(dir, "server.py")) && fs.existsSync(path.join(dir, "libs", "jobspec_lsp"))) return true;
  console.error(
    `${path.relative(process.cwd(), dir) || dir}/ has no bundled server, and a .vsix without it ` +
    "cannot start one. Build the .vsix with `npm run package` (it bundles the server first).");
  return false;
}

function main(argv, env) {
  if (argv.includes("--check")) return checkBundled(path.join(EXT, "bundled")) ? 0 : 1;
  const why = [];
  const python = choosePython(env, why);
  if (python === null) {
    console.error(
      "The .vsix carries the language server, bundled by scripts/bundle_server.py, which needs " +
      "a Python 3.10 or later with pip and jobspec-lsp's dependencies installed. None was found:\n  " +
      why.join("\n  ") + `\nSet one up:\n  ${SETUP}\nthen run \`npm run package\` again.`);
    return 1;
  }
  console.log(`bundling the server with ${python}`);
  const platform = argv.includes("--platform") ? argv[argv.indexOf("--platform") + 1] : "linux-x64";
  const run = spawnSync(python, [BUNDLER, "--platform", platform], { stdio: "inherit" });
  return run.status === null ? 1 : run.status;
}

if (require.main === module) process.exit(main(process.argv.slice(2), process.env));

module.exports = { candidates, choosePython, checkBundled };
