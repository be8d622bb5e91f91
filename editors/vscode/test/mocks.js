// Stand-ins for the `vscode` module and vscode-languageclient's LanguageClient
// that record what the extension asks of them. Required before out/extension.js.
const Module = require("module");
const path = require("path");

const CloseAction = { DoNotRestart: 1, Restart: 2 };
const ErrorAction = { Continue: 1, Shutdown: 2 };

const state = {};

function reset() {
  Object.assign(state, {
    config: {},           // "jobspec.server.path" -> value
    commands: {},         // registered commands
    executed: [],         // executeCommand calls
    errors: [],           // showErrorMessage calls
    errorChoice: undefined,
    clients: [],          // every LanguageClient created
    start: "ok",          // "ok" | "throws" | "dies" (the server exits while starting)
    output: [],           // lines in the output channel
    shown: false,
    documents: [],        // workspace.textDocuments
    configListeners: [],
    openListeners: [],
  });
}
reset();

// enough of VS Code's glob syntax for document filters: **/, *, {a,b}
function globToRegExp(glob) {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i];
    if (glob.startsWith("**/", i)) { re += "(?:.*/)?"; i += 2; }
    else if (ch === "*") re += "[^/]*";
    else if (ch === "?") re += "[^/]";
    else if (ch === "{") re += "(?:";
    else if (ch === "}") re += ")";
    else if (ch === ",") re += "|";
    else re += ch.replace(/[.+^$()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

function matches(filter, doc) {
  return (!filter.language || filter.language === doc.languageId)
    && (!filter.scheme || filter.scheme === doc.uri.scheme)
    && (!filter.pattern || globToRegExp(filter.pattern).test(doc.uri.fsPath));
}

/** A text document as VS Code would hand it over. */
function doc(fsPath, languageId = fsPath.endsWith(".json") ? "json" : "yaml", scheme = "file") {
  return { languageId, uri: { scheme, fsPath: path.resolve(fsPath) } };
}

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
    get textDocuments() { return state.documents; },
    onDidChangeConfiguration(listener) {
      state.configListeners.push(listener);
      return { dispose() {} };
    },
    onDidOpenTextDocument(listener) {
      state.openListeners.push(listener);
      return { dispose() {} };
    },
  },
  languages: {
    match(selector, document) {
      return selector.some((f) => matches(f, document)) ? 10 : 0;
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
    Object.assign(this, { id, name, serverOptions, clientOptions, running: false, stopped: false });
    state.clients.push(this);
  }
  createDefaultErrorHandler() {
    return { error: () => ({ action: ErrorAction.Continue }), closed: () => ({ action: CloseAction.Restart }) };
  }
  isRunning() {
    return this.running;
  }
  async start() {
    if (state.start === "throws") throw new Error("spawn jobspec-lsp ENOENT");
    if (state.start === "dies") {
      // what vscode-languageclient does when the process exits during initialize
      this.closedWhileStarting = await this.clientOptions.errorHandler.closed();
      throw new Error("Pending response rejected since connection got disposed");
    }
    this.running = true;
  }
  async stop() {
    this.running = false;
    this.stopped = true;
  }
}

const original = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === "vscode") return vscode;
  if (request === "vscode-languageclient/node") return { LanguageClient, CloseAction, ErrorAction };
  return original.call(this, request, parent, isMain);
};

module.exports = { state, reset, doc, CloseAction, globToRegExp };
