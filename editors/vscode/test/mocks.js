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
    changeListeners: [],
    active: undefined,    // window.activeTextEditor
    infos: [],            // showInformationMessage / showWarningMessage calls
    opened: [],           // workspace.openTextDocument calls
    requests: [],         // client.sendRequest calls
    notifications: [],    // client.sendNotification calls
    answer: undefined,    // what client.sendRequest resolves to
  });
}
reset();

// VS Code's glob syntax as far as document filters use it: the extension's own matcher
const { globMatch } = require("../out/config.js");

function matches(filter, doc) {
  return (!filter.language || filter.language === doc.languageId)
    && (!filter.scheme || filter.scheme === doc.uri.scheme)
    && (!filter.pattern || globMatch(filter.pattern, doc.uri.fsPath));
}

/** A text document as VS Code would hand it over. */
function doc(fsPath, languageId = fsPath.endsWith(".json") ? "json" : "yaml", scheme = "file", text = "") {
  const full = path.resolve(fsPath);
  return { languageId, version: 1, getText: () => text,
           uri: { scheme, fsPath: full, toString: () => `${scheme}://${full}` } };
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
    onDidChangeTextDocument(listener) {
      state.changeListeners.push(listener);
      return { dispose() {} };
    },
    async openTextDocument(options) {
      state.opened.push(options);
      return { options };
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
    async showInformationMessage(message) { state.infos.push(message); },
    async showWarningMessage(message) { state.infos.push(message); },
    async showTextDocument(document, options) { state.shownDocument = { document, options }; },
    get activeTextEditor() { return state.active; },
  },
  ViewColumn: { Beside: -2 },
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
  async sendRequest(method, params) {
    state.requests.push([method, params]);
    return state.answer;
  }
  async sendNotification(method, params) {
    state.notifications.push([method, params]);
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

module.exports = { state, reset, doc, CloseAction };
