// The pure part of the extension: which documents, which server command, which
// settings. No `vscode` import, so the unit tests load it directly; the few
// things that touch the machine (is this file executable? can this python
// import jobspec_lsp.lsp.server?) are parameters with real defaults.
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

/** The `jobspec` section of the VS Code settings, as the extension reads it. */
export interface JobspecSettings {
  server?: { path?: string; args?: string[]; importStrategy?: string };
  select?: string[];
  ignore?: string[];
  versionRules?: string;
  target?: string;
  fluxVersion?: string;
  site?: string;
  files?: string[];
  scripts?: string[];
  format?: { sortKeys?: boolean };
  docsUrl?: string;
}

/** The server's own default `files` globs (jobspec_lsp/lsp/server.py). */
export const DEFAULT_FILES = [
  "*.jobspec.yaml", "*.jobspec.yml", "*.jobspec.json", "jobspec.yaml", "jobspec.yml", "jobspec.json",
];

/** File patterns of jobspec documents, whatever `jobspec.files` says. */
export const JOBSPEC_PATTERNS = ["**/*.jobspec.{yaml,yml,json}", "**/jobspec.{yaml,yml,json}"];

export interface DocumentFilter {
  scheme: string;
  language: string;
  pattern?: string;
}

/** VS Code languages batch scripts are written in. */
export const SCRIPT_LANGUAGES = ["shellscript", "python", "lua", "perl", "plaintext"];

// RFC 36's sentinel, ^([^\w]*)(flux|FLUX):, or a Slurm, LSF or PBS directive (#SBATCH,
// #BSUB, #PBS: the server converts those), on any line
const DIRECTIVE = /^(?:[^\w\n]*(?:flux|FLUX):|#(?:SBATCH|BSUB|PBS)(?=[ \t\r]|$))/m;
const SCAN = 200_000; // characters looked at, as the server does

/** Whether a script's text holds a `#flux:`, `#SBATCH`, `#BSUB` or `#PBS` directive. */
export function hasDirectives(text: string): boolean {
  return DIRECTIVE.test(text.length > SCAN ? text.slice(0, SCAN) : text);
}

// a Flux submission command line; the server decides exactly what it is
const FLUX_COMMAND = /(?:^|[\s;&|(`])flux\s+(?:mini\s+)?(?:run|submit|batch|alloc|bulksubmit)(?=\s|$)/m;

/** Whether a shell script runs `flux run|submit|batch|alloc|bulksubmit`. */
export function hasFluxCommands(text: string): boolean {
  return FLUX_COMMAND.test(text.length > SCAN ? text.slice(0, SCAN) : text);
}

/** A document the server gets as a batch script: a script language, and a directive
 * in its text or its path matching one of the `jobspec.scripts` globs; or a shell
 * script with a Flux command line (the server checks those lines). */
export function isScript(languageId: string, fsPath: string, text: string,
                         scripts: string[] = []): boolean {
  if (!SCRIPT_LANGUAGES.includes(languageId)) return false;
  return scripts.some((g) => globMatch(g, fsPath)) || hasDirectives(text)
    || (languageId === "shellscript" && hasFluxCommands(text));
}

/** VS Code's glob syntax as far as settings use it: **, *, ?, {a,b}; a glob without a
 * slash matches the file name anywhere. */
export function globMatch(glob: string, fsPath: string): boolean {
  const g = glob.includes("/") ? glob : `**/${glob}`;
  let re = "";
  for (let i = 0; i < g.length; i++) {
    const ch = g[i];
    if (g.startsWith("**/", i)) { re += "(?:.*/)?"; i += 2; }
    else if (ch === "*") re += "[^/]*";
    else if (ch === "?") re += "[^/]";
    else if (ch === "{") re += "(?:";
    else if (ch === "}") re += ")";
    else if (ch === ",") re += "|";
    else re += ch.replace(/[.+^$()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`).test(fsPath.replace(/\\/g, "/"));
}

/**
 * The documents the client hands to the server: files in VS Code's own YAML
 * and JSON languages whose names say they are jobspec, plus whatever the user
 * added to `jobspec.files`. The extension contributes no language or grammar,
 * so these files keep their YAML/JSON highlighting and every other YAML tool,
 * and the server is never offered other YAML (no formatter or completion
 * provider from this extension on a docker-compose.yml).
 */
export function documentSelector(files: string[] = []): DocumentFilter[] {
  const patterns = [...JOBSPEC_PATTERNS];
  for (const glob of files) {
    if (DEFAULT_FILES.includes(glob) || !glob.trim()) continue;
    const p = glob.startsWith("/") || glob.startsWith("**/") ? glob : `**/${glob}`;
    if (!patterns.includes(p)) patterns.push(p);
  }
  const out: DocumentFilter[] = [];
  for (const language of ["yaml", "json"]) {
    for (const pattern of patterns) out.push({ scheme: "file", language, pattern });
  }
  return out;
}

/** The selector with the script languages too: the client middleware then sends the
 * server only the scripts that hold directives (see extension.ts). */
export function clientSelector(files: string[] = []): DocumentFilter[] {
  return [...documentSelector(files),
          ...SCRIPT_LANGUAGES.map((language) => ({ scheme: "file", language }))];
}

export interface ServerCommand {
  command: string;
  args: string[];
  source: "setting" | "bundled" | "path" | "python";
}

export interface Discovery {
  /** How to start the server; undefined when nothing usable was found. */
  server?: ServerCommand;
  /** What was looked at, one line each, for the output channel. */
  notes: string[];
  /** Why nothing was found, for the error message. */
  problem?: string;
}

export interface Probes {
  /** Is this path an executable file? */
  isExecutable(p: string): boolean;
  /** Can this python interpreter import jobspec_lsp.lsp.server (the package and its dependencies)? */
  canImport(python: string): boolean;
  /** Is this python interpreter Python 3.10 or later (what the bundled server needs)? */
  isRecentPython(python: string): boolean;
  /** Does this file exist? */
  exists(p: string): boolean;
  platform: string;
  home: string;
}

export const realProbes: Probes = {
  isExecutable(p) {
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return fs.statSync(p).isFile();
    } catch {
      return false;
    }
  },
  canImport(python) {
    const r = spawnSync(python, ["-c", "import jobspec_lsp.lsp.server"], { timeout: 10000, stdio: "ignore" });
    return r.status === 0;
  },
  isRecentPython(python) {
    const r = spawnSync(python, ["-c", "import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)"],
                        { timeout: 10000, stdio: "ignore" });
    return r.status === 0;
  },
  exists(p) {
    return fs.existsSync(p);
  },
  platform: process.platform,
  home: os.homedir(),
};

/** The full path of `name` on `envPath` (with PATHEXT suffixes on Windows). */
export function onPath(name: string, envPath: string | undefined, probes: Probes = realProbes,
                       pathext: string | undefined = process.env.PATHEXT): string | undefined {
  const win = probes.platform === "win32";
  const sep = win ? ";" : ":";
  const suffixes = win ? ["", ...(pathext || ".EXE;.CMD;.BAT").split(";").filter(Boolean)] : [""];
  for (const dir of (envPath || "").split(sep)) {
    if (!dir) continue;
    for (const suffix of suffixes) {
      const candidate = (win ? path.win32 : path.posix).join(dir, name + suffix);
      if (probes.isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/** The server the .vsix carries (bundled/server.py and its libs) and the Python
 * interpreter the Python extension has selected, if any. */
export interface Bundled {
  script: string;
  interpreter?: string;
}

export const INSTALL_HINT = "install it with `pip install jobspec-lsp`, or set jobspec.server.path to its jobspec-lsp";

/**
 * How to start the server: the `jobspec.server.path` setting (a path, or a
 * name looked up on PATH; no fallback when it is set but unusable); else, with
 * `jobspec.server.importStrategy` "useBundled" (the default), the server bundled in
 * the extension run by the Python extension's interpreter or `python3`/`python` on
 * PATH (3.10 or later); else `jobspec-lsp` on PATH, else `python3 -m jobspec_lsp lsp`
 * (python3, or python, that can import jobspec_lsp.lsp.server).
 * `jobspec.server.args` are appended.
 */
export function findServer(settings: JobspecSettings, envPath: string | undefined,
                           probes: Probes = realProbes, bundled?: Bundled): Discovery {
  const extra = settings.server?.args ?? [];
  const notes: string[] = [];
  let configured = (settings.server?.path ?? "").trim();
  if (configured) {
    if (configured === "~" || configured.startsWith("~/")) configured = probes.home + configured.slice(1);
    const hasDir = configured.includes("/") || (probes.platform === "win32" && configured.includes("\\"));
    const full = hasDir ? (probes.isExecutable(configured) ? configured : undefined)
                        : onPath(configured, envPath, probes);
    if (!full) {
      const problem = `jobspec.server.path is "${configured}", which is not an executable file` +
        (hasDir ? "" : " on PATH") + ".";
      notes.push(problem);
      return { notes, problem };
    }
    notes.push(`jobspec.server.path: ${full}`);
    return { server: { command: full, args: [...extra], source: "setting" }, notes };
  }
  notes.push("jobspec.server.path is not set.");
  const strategy = settings.server?.importStrategy || "useBundled";
  let noPython = false;
  if (strategy === "useBundled" && bundled && probes.exists(bundled.script)) {
    const candidates: [string, string | undefined][] = [
      ["the Python extension's interpreter", bundled.interpreter],
      ["python3 on PATH", onPath("python3", envPath, probes)],
      ["python on PATH", onPath("python", envPath, probes)],
    ];
    for (const [what, python] of candidates) {
      if (!python) continue;
      if (probes.isRecentPython(python)) {
        notes.push(`The bundled server, run by ${what}: ${python}`);
        return { server: { command: python, args: ["-I", bundled.script, ...extra], source: "bundled" }, notes };
      }
      notes.push(`${what} (${python}) is older than Python 3.10.`);
    }
    notes.push("No Python 3.10 or later for the bundled server.");
    noPython = true;
  } else if (strategy !== "useBundled") {
    notes.push(`jobspec.server.importStrategy is "${strategy}": the bundled server is not used.`);
  }
  const lsp = onPath("jobspec-lsp", envPath, probes);
  if (lsp) {
    notes.push(`jobspec-lsp on PATH: ${lsp}`);
    return { server: { command: lsp, args: [...extra], source: "path" }, notes };
  }
  notes.push("jobspec-lsp is not on PATH.");
  for (const name of ["python3", "python"]) {
    const python = onPath(name, envPath, probes);
    if (!python) {
      notes.push(`${name} is not on PATH.`);
      continue;
    }
    if (probes.canImport(python)) {
      notes.push(`${python} can import jobspec_lsp.lsp.server.`);
      return { server: { command: python, args: ["-m", "jobspec_lsp", "lsp", ...extra], source: "python" }, notes };
    }
    notes.push(`${python} cannot import jobspec_lsp.lsp.server.`);
  }
  return {
    notes,
    problem: noPython
      ? "The jobspec language server needs Python 3.10 or later: install it (or select one with " +
        "the Python extension), or " + INSTALL_HINT + "."
      : "The jobspec language server was not found: " + INSTALL_HINT + ".",
  };
}

/**
 * The settings the server understands, as `initializationOptions`
 * (`{"jobspec": {...}}`, see docs/server.md). Settings left at "everything"
 * or "the server's default" are left out.
 */
export function serverSettings(settings: JobspecSettings): { jobspec: Record<string, unknown> } {
  const out: Record<string, unknown> = {};
  if (settings.select && settings.select.length) out.select = [...settings.select];
  if (settings.ignore && settings.ignore.length) out.ignore = [...settings.ignore];
  if (settings.versionRules) out.versionRules = settings.versionRules;
  if (settings.target) out.target = settings.target;
  if (settings.fluxVersion) out.fluxVersion = settings.fluxVersion;
  if (settings.site) out.site = settings.site;
  if (settings.files && settings.files.length) out.files = [...settings.files];
  if (typeof settings.format?.sortKeys === "boolean") out.format = { sortKeys: settings.format.sortKeys };
  if (settings.docsUrl) out.docsUrl = settings.docsUrl;
  return { jobspec: out };
}

/** Setting sections whose change needs a new client (command, or document selector). */
export const RESTART_SECTIONS = ["jobspec.server", "jobspec.files", "jobspec.scripts"];
