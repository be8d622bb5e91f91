// A stand-in for the `vscode` module and vscode-languageclient's LanguageClient,
// recording what the extension asks of them.
const Module = require("module");

const state = {
  config: {},
  commands: {},
  executed: [],
  errors: [],
  errorChoice: undefined,
  clients: [],
  startFails: false,
  output: [],
  configListeners: [],
};

const vscode = {
  workspace: {
    getConfiguration(section) {
      return {
        get(key, dflt) {
          const full = `${section}.${key}`;
          return Object.prototype.hasOwnProperty.call(state.config, full) ? state.config[full] : dflt;
        },
      };
    },
    onDidChangeConfiguration(listener) {
      state.configListeners.push(listener);
      return { dispose() {} };
    },
  },
  window: {
    createOutputChannel(name) {
      return { name, appendLine: (l) => state.output.push(l), show() { state.shown = true; }, dispose() {} };
    },
    async showErrorMessage(message, ...items) {
      state.errors.push({ message, items });
      return state.errorChoice;
    },
  },
  commands: {
    registerCommand(name, fn) {
      state.commands[name] = fn;
      return { dispose() {} };
    },
    async executeCommand(name, ...args) {
      state.executed.push([name, ...args]);
    },
  },
};

class LanguageClient {
  constructor(id, name, serverOptions, clientOptions) {
    Object.assign(this, { id, name, serverOptions, clientOptions, started: false, stopped: false });
    state.clients.push(this);
  }
  async start() {
    if (state.startFails) throw new Error("spawn jobspec-lsp ENOENT");
    this.started = true;
  }
  async stop() {
    this.stopped = true;
  }
}

const original = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === "vscode") return vscode;
  if (request === "vscode-languageclient/node") return { LanguageClient };
  return original.call(this, request, parent, isMain);
};

function reset() {
  Object.assign(state, { config: {}, commands: {}, executed: [], errors: [], errorChoice: undefined,
                         clients: [], startFails: false, output: [], configListeners: [] });
}

module.exports = { state, reset };
