// VS Code client for jobspec-lsp. Thin on purpose: it finds the server, starts
// it once a jobspec document is open, forwards the `jobspec` settings, offers
// "Jobspec: Restart server", and says plainly when the server cannot start.
// Everything that can be decided without VS Code is in ./config.
import * as path from "path";
import * as vscode from "vscode";
import { CloseAction, ErrorHandler, LanguageClient, LanguageClientOptions, Middleware } from "vscode-languageclient/node";
import { JobspecSettings, RESTART_SECTIONS, SCRIPT_LANGUAGES, clientSelector, documentSelector, findServer,
         isScript, serverSettings } from "./config";

export const OUTPUT_NAME = "Flux Jobspec";
export const RESTART_COMMAND = "jobspec.restartServer";
export const SHOW_COMMAND = "jobspec.showBatchJobspec";

let output: vscode.OutputChannel | undefined;
let client: LanguageClient | undefined;
// set once a jobspec document was opened (or the restart command ran): from then
// on a change of the server settings restarts the server
let wanted = false;
let starting: Promise<boolean> | undefined;

function readSettings(): JobspecSettings {
  const c = vscode.workspace.getConfiguration("jobspec");
  return {
    server: { path: c.get<string>("server.path", ""), args: c.get<string[]>("server.args", []),
              importStrategy: c.get<string>("server.importStrategy", "useBundled") },
    select: c.get<string[]>("select", []),
    ignore: c.get<string[]>("ignore", []),
    versionRules: c.get<string>("versionRules", "auto"),
    target: c.get<string>("target", ""),
    fluxVersion: c.get<string>("fluxVersion", ""),
    site: c.get<string>("site", ""),
    files: c.get<string[]>("files", []),
    scripts: c.get<string[]>("scripts", []),
    format: { sortKeys: c.get<boolean>("format.sortKeys", true) },
    docsUrl: c.get<string>("docsUrl", ""),
  };
}

function log(line: string): void {
  output?.appendLine(line);
}

// Not awaited by its callers: the notification can stay up long after the
// failure, and a restart must not wait for it.
async function reportFailure(message: string): Promise<void> {
  const choice = await vscode.window.showErrorMessage(message, "Open settings", "Show output");
  if (choice === "Open settings") {
    await vscode.commands.executeCommand("workbench.action.openSettings", "jobspec.server");
  } else if (choice === "Show output") {
    output?.show(true);
  }
}

let extensionPath = "";

/** The Python extension's selected interpreter, when that extension is installed. */
async function pythonExtensionInterpreter(): Promise<string | undefined> {
  try {
    const ext = vscode.extensions?.getExtension("ms-python.python");
    if (!ext) return undefined;
    const api = ext.isActive ? ext.exports : await ext.activate();
    const env = await api?.environments?.getActiveEnvironmentPath?.();
    return typeof env?.path === "string" && env.path ? env.path : undefined;
  } catch (err) {
    log(`The Python extension gave no interpreter: ${err}`);
    return undefined;
  }
}

async function startClient(): Promise<boolean> {
  const settings = readSettings();
  const bundled = { script: path.join(extensionPath, "bundled", "server.py"),
                    interpreter: await pythonExtensionInterpreter() };
  const found = findServer(settings, process.env.PATH, undefined, bundled);
  for (const note of found.notes) log(note);
  if (!found.server) {
    void reportFailure(found.problem ?? "The jobspec language server was not found.");
    return false;
  }
  const { command, args } = found.server;
  log(`Starting: ${[command, ...args].join(" ")}`);
  // A server that dies while starting is reported by the message below instead
  // of being restarted four times, a notification each time; once it runs,
  // the client's own handler restarts it after a crash.
  let fallback: ErrorHandler | undefined;
  const errorHandler: ErrorHandler = {
    error: (error, message, count) => fallback!.error(error, message, count),
    closed: () => (c.isRunning() ? fallback!.closed()
                                 : { action: CloseAction.DoNotRestart, handled: true }),
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: clientSelector(settings.files),
    middleware: scriptMiddleware(settings.scripts ?? []),
    initializationOptions: serverSettings(settings),
    synchronize: { configurationSection: "jobspec" },
    outputChannel: clientChannel(),
    errorHandler,
  };
  // the id "jobspec" makes the client read its trace level from jobspec.trace.server
  const c = new LanguageClient("jobspec", OUTPUT_NAME, { command, args }, clientOptions);
  fallback = c.createDefaultErrorHandler();
  client = c;
  try {
    await c.start();
    log("The server is running.");
    return true;
  } catch (err) {
    client = undefined;
    const message = `The jobspec language server could not start (${command}): ` +
      `${err instanceof Error ? err.message : String(err)}`;
    log(message);
    void reportFailure(message);
    return false;
  }
}

async function stopClient(): Promise<void> {
  const c = client;
  client = undefined;
  sentScripts.clear();
  if (!c) return;
  stopping = true;
  try {
    await c.stop();
  } catch (err) {
    log(`Stopping the server failed: ${err}`);
  } finally {
    // the process's exit is reported a moment after stop() resolves
    setTimeout(() => { stopping = false; }, 3000).unref?.();
  }
}

// True from the moment the extension asks the server to stop until it has: the
// client then logs the server's normal exit as "[Error] Server process exited with
// code 0." (vscode-languageclient does for any exit), which is no error.
let stopping = false;

/** The output channel as the language client writes to it, without that false error. */
function clientChannel(): vscode.OutputChannel {
  const ch = output!;
  return {
    name: ch.name,
    append: (v: string) => ch.append(v),
    appendLine: (v: string) => {
      if (stopping && /Server process exited with code 0\./.test(v)) {
        ch.appendLine("The server stopped.");
      } else {
        ch.appendLine(v);
      }
    },
    replace: (v: string) => ch.replace(v),
    clear: () => ch.clear(),
    show: (...args: unknown[]) => (ch.show as (...a: unknown[]) => void)(...args),
    hide: () => ch.hide(),
    dispose: () => undefined,  // the extension's channel outlives each client
  } as vscode.OutputChannel;
}

/** Start the server unless it is running or starting. */
function ensureStarted(): Promise<boolean> {
  wanted = true;
  if (client) return Promise.resolve(true);
  if (!starting) starting = startClient().finally(() => { starting = undefined; });
  return starting;
}

/** "Jobspec: Restart server" (also run when a server setting changes). */
export async function restart(): Promise<boolean> {
  if (starting) await starting;
  await stopClient();
  return ensureStarted();
}

function isJobspec(doc: vscode.TextDocument): boolean {
  return vscode.languages.match(documentSelector(readSettings().files), doc) > 0;
}

function isBatchScript(doc: vscode.TextDocument, scripts = readSettings().scripts ?? []): boolean {
  return doc.uri.scheme === "file" && isScript(doc.languageId, doc.uri.fsPath, doc.getText(), scripts);
}

// Script documents the server has been sent (by URI). The client's selector takes every
// document of the script languages; this middleware lets through only those with
// directives (or matching jobspec.scripts), so the user's other shell/Python files never
// reach the server. A script that gains its first directive is opened then.
const sentScripts = new Set<string>();

function scriptMiddleware(scripts: string[]): Middleware {
  const isScriptLanguage = (d: vscode.TextDocument) => SCRIPT_LANGUAGES.includes(d.languageId);
  return {
    didOpen: async (doc, next) => {
      if (!isScriptLanguage(doc)) return next(doc);
      if (!isBatchScript(doc, scripts)) return;
      sentScripts.add(doc.uri.toString());
      return next(doc);
    },
    didChange: async (event, next) => {
      const doc = event.document;
      if (!isScriptLanguage(doc) || sentScripts.has(doc.uri.toString())) return next(event);
      if (!isBatchScript(doc, scripts) || !client) return;
      sentScripts.add(doc.uri.toString());
      await client.sendNotification("textDocument/didOpen", {
        textDocument: { uri: doc.uri.toString(), languageId: doc.languageId, version: doc.version,
                        text: doc.getText() },
      });
    },
    didSave: async (doc, next) => {
      if (!isScriptLanguage(doc) || sentScripts.has(doc.uri.toString())) return next(doc);
    },
    didClose: async (doc, next) => {
      if (!isScriptLanguage(doc)) return next(doc);
      if (sentScripts.delete(doc.uri.toString())) return next(doc);
    },
  };
}

/** "Jobspec: Show the jobspec flux batch builds" for the active batch script. */
export async function showBatchJobspec(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || !isBatchScript(editor.document)) {
    void vscode.window.showInformationMessage("Open a batch script with #flux: directives first.");
    return;
  }
  if (!(await ensureStarted()) || !client) return;
  const got = await client.sendRequest("workspace/executeCommand", {
    command: "jobspec.showJobspec", arguments: [editor.document.uri.toString(), "yaml"],
  }) as { text?: string; language?: string; error?: string } | null;
  if (!got || got.error || got.text === undefined) {
    void vscode.window.showWarningMessage(`Jobspec: ${got?.error ?? "no answer from the server"}`);
    return;
  }
  const shown = await vscode.workspace.openTextDocument({ content: got.text, language: got.language ?? "yaml" });
  await vscode.window.showTextDocument(shown, { preview: true, viewColumn: vscode.ViewColumn.Beside });
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  extensionPath = context.extensionPath ?? "";
  output = vscode.window.createOutputChannel(OUTPUT_NAME);
  context.subscriptions.push(output);
  context.subscriptions.push(vscode.commands.registerCommand(RESTART_COMMAND, restart));
  context.subscriptions.push(vscode.commands.registerCommand(SHOW_COMMAND, showBatchJobspec));
  context.subscriptions.push(vscode.workspace.onDidChangeConfiguration((e) => {
    if (wanted && RESTART_SECTIONS.some((s) => e.affectsConfiguration(s))) void restart();
  }));
  // Activation comes with any YAML, JSON or script file; the server starts with the
  // first jobspec or batch script.
  const ours = (doc: vscode.TextDocument) => isJobspec(doc) || isBatchScript(doc);
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument((doc) => {
    if (!wanted && ours(doc)) void ensureStarted();
  }));
  context.subscriptions.push(vscode.workspace.onDidChangeTextDocument((e) => {
    if (!wanted && SCRIPT_LANGUAGES.includes(e.document.languageId) && isBatchScript(e.document)) {
      void ensureStarted();
    }
  }));
  if (vscode.workspace.textDocuments.some(ours)) await ensureStarted();
}

export async function deactivate(): Promise<void> {
  if (starting) await starting.catch(() => false);
  wanted = false;
  await stopClient();
}
