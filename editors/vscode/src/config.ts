// Pure helpers of the extension: no `vscode` import, tested directly.
import * as fs from "fs";
import * as path from "path";

export interface JobspecSettings {
  server?: { path?: string; args?: string[] };
  select?: string[];
  ignore?: string[];
  versionRules?: string;
  files?: string[];
  format?: { sortKeys?: boolean };
  docsUrl?: string;
}

// YAML and JSON documents whose names say they are jobspec. The extension
// does not ship a grammar: jobspec files keep the editor's YAML/JSON
// highlighting, and the server also looks at YAML whose top level has
// `resources` and `tasks`.
export const DOCUMENT_SELECTOR = [
  { scheme: "file", language: "yaml" },
  { scheme: "untitled", language: "yaml" },
  { scheme: "file", language: "json", pattern: "**/*.jobspec.json" },
  { scheme: "file", language: "json", pattern: "**/jobspec.json" },
];

export interface ServerCommand {
  command: string;
  args: string[];
  source: "setting" | "path" | "python";
}

/** Is `name` an executable file on `envPath`? Returns its full path. */
export function onPath(name: string, envPath: string | undefined,
                       exists: (p: string) => boolean = isExecutable): string | undefined {
  for (const dir of (envPath || "").split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (exists(candidate)) return candidate;
  }
  return undefined;
}

function isExecutable(p: string): boolean {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/**
 * How to start the server: the `jobspec.server.path` setting, else
 * `jobspec-lsp` on PATH, else `python3 -m jobspec_lsp lsp`; undefined when
 * none of them exists.
 */
export function findServer(settings: JobspecSettings, envPath: string | undefined,
                           exists: (p: string) => boolean = isExecutable): ServerCommand | undefined {
  const extra = settings.server?.args ?? [];
  const configured = (settings.server?.path ?? "").trim();
  if (configured) {
    return { command: configured, args: [...extra], source: "setting" };
  }
  const lsp = onPath("jobspec-lsp", envPath, exists);
  if (lsp) return { command: lsp, args: [...extra], source: "path" };
  const python = onPath("python3", envPath, exists) ?? onPath("python", envPath, exists);
  if (python) {
    return { command: python, args: ["-m", "jobspec_lsp", "lsp", ...extra], source: "python" };
  }
  return undefined;
}

/** The `jobspec` settings the server understands (initializationOptions). */
export function serverSettings(settings: JobspecSettings): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (settings.select && settings.select.length) out.select = settings.select;
  if (settings.ignore && settings.ignore.length) out.ignore = settings.ignore;
  if (settings.versionRules) out.versionRules = settings.versionRules;
  if (settings.files && settings.files.length) out.files = settings.files;
  if (settings.format && typeof settings.format.sortKeys === "boolean") {
    out.format = { sortKeys: settings.format.sortKeys };
  }
  if (settings.docsUrl) out.docsUrl = settings.docsUrl;
  return { jobspec: out };
}

export function notFoundMessage(): string {
  return "The Flux jobspec language server was not found: install it (`pip install jobspec-lsp`) " +
    "or set `jobspec.server.path`.";
}
