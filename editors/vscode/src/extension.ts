// VS Code client for jobspec-lsp: starts the server, forwards settings, offers
// a restart command, and says plainly when the server cannot start.
import * as vscode from "vscode";
import { LanguageClient, LanguageClientOptions, ServerOptions } from "vscode-languageclient/node";
import { DOCUMENT_SELECTOR, JobspecSettings, findServer, notFoundMessage, onPath, serverSettings } from "./config";

// the pure helpers, for the unit tests (they run the bundle with a mocked vscode)
export const __test = { findServer, serverSettings, onPath };

let client: LanguageClient | undefined;
let output: vscode.OutputChannel | undefined;

function readSettings(): JobspecSettings {
  const c = vscode.workspace.getConfiguration("jobspec");
  return {
    server: { path: c.get<string>("server.path", ""), args: c.get<string[]>("server.args", []) },
    select: c.get<string[]>("select", []),
    ignore: c.get<string[]>("ignore", []),
    versionRules: c.get<string>("versionRules", "auto"),
    files: c.get<string[]>("files", []),
    format: { sortKeys: c.get<boolean>("format.sortKeys", true) },
    docsUrl: c.get<string>("docsUrl", ""),
  };
}

export async function startClient(): Promise<boolean> {
  const settings = readSettings();
  const found = findServer(settings, process.env.PATH);
  if (!found) {
    output?.appendLine(notFoundMessage());
    await reportFailure(notFoundMessage());
    return false;
  }
  output?.appendLine(`Starting ${found.command} ${found.args.join(" ")} (found via ${found.source})`);
  const serverOptions: ServerOptions = { command: found.command, args: found.args };
  const clientOptions: LanguageClientOptions = {
    documentSelector: DOCUMENT_SELECTOR,
    initializationOptions: serverSettings(settings),
    synchronize: { configurationSection: "jobspec" },
    outputChannel: output,
  };
  client = new LanguageClient("jobspec", "Flux Jobspec", serverOptions, clientOptions);
  try {
    await client.start();
    return true;
  } catch (err) {
    const message = `The Flux jobspec language server could not start (${found.command}): ${err}`;
    output?.appendLine(message);
    client = undefined;
    await reportFailure(message);
    return false;
  }
}

async function reportFailure(message: string): Promise<void> {
  const choice = await vscode.window.showErrorMessage(message, "Open settings", "Show output");
  if (choice === "Open settings") {
    await vscode.commands.executeCommand("workbench.action.openSettings", "jobspec.server");
  } else if (choice === "Show output") {
    output?.show();
  }
}

export async function restart(): Promise<boolean> {
  if (client) {
    try {
      await client.stop();
    } catch (err) {
      output?.appendLine(`Stopping the server failed: ${err}`);
    }
    client = undefined;
  }
  return startClient();
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel("Flux Jobspec");
  context.subscriptions.push(output);
  context.subscriptions.push(vscode.commands.registerCommand("jobspec.restartServer", restart));
  context.subscriptions.push(vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration("jobspec.server")) {
      void restart();
    }
  }));
  await startClient();
}

export async function deactivate(): Promise<void> {
  if (client) {
    await client.stop();
    client = undefined;
  }
}
