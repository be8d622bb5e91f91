// The bundle the .vsix ships (dist/extension.js, built by `npm run build`) loads
// with the real vscode-languageclient inside it and exports activate/deactivate.
// `vscode` is a catch-all stand-in here: loading only defines classes.
const test = require("node:test");
const assert = require("node:assert");
const fs = require("fs");
const path = require("path");
const Module = require("module");

function anything() {
  const f = function () {};
  return new Proxy(f, {
    get: (target, prop) => (prop === "prototype" ? target.prototype : prop in target ? target[prop] : anything()),
    construct: () => anything(),
    apply: () => anything(),
  });
}

test("dist/extension.js loads and exports activate/deactivate", () => {
  const bundle = path.join(__dirname, "..", "dist", "extension.js");
  assert.ok(fs.existsSync(bundle), "run `npm run build` first");
  const original = Module._load;
  const asked = new Set();
  Module._load = function (request, ...rest) {
    asked.add(request);
    return request === "vscode" ? anything() : original.call(this, request, ...rest);
  };
  try {
    const ext = require(bundle);
    assert.strictEqual(typeof ext.activate, "function");
    assert.strictEqual(typeof ext.deactivate, "function");
  } finally {
    Module._load = original;
  }
  // everything but vscode and node's own modules is inside the bundle
  const builtins = new Set(Module.builtinModules);
  const outside = [...asked].filter((r) => r !== bundle && r !== "vscode" && !builtins.has(r.replace(/^node:/, "")));
  assert.deepStrictEqual(outside, []);
});
