// The playground's Python compiled to bytecode by the Python that runs it: Pyodide's own,
// under Node.js (web/build.py runs this at build time, with the npm tools' Pyodide). The
// page then imports .pyc files instead of compiling every module at its first check
// (about 40% of the first check's time).
//
//   node web/precompile.mjs NODE_MODULES SOURCE.zip OUT.zip
//
// The .pyc are unchecked-hash ones: valid whatever the files' times once unpacked.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [nodeModules, source, out] = process.argv.slice(2);
const { loadPyodide } = await import(
  pathToFileURL(path.join(nodeModules, "pyodide", "pyodide.mjs")).href
);
const py = await loadPyodide({ packages: [] });
py.unpackArchive(new Uint8Array(fs.readFileSync(source)), "zip", { extractDir: "/src" });
py.runPython(`
import compileall, os, py_compile, zipfile
ok = compileall.compile_dir(
    "/src", quiet=1, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH
)
assert ok, "a module did not compile"
with zipfile.ZipFile("/out.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
    for root, dirs, files in sorted(os.walk("/src")):
        dirs.sort()
        for f in sorted(files):
            p = os.path.join(root, f)
            info = zipfile.ZipInfo(os.path.relpath(p, "/src"), date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            with open(p, "rb") as fh:
                z.writestr(info, fh.read())
`);
fs.writeFileSync(out, py.FS.readFile("/out.zip"));
