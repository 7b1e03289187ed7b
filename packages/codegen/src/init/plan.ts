import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { CONFIG_NAMES } from "../config/load.ts";
import { initError } from "./error.ts";
import { chooseServerName, toServerName } from "./names.ts";
import { initScripts, mergePackageJson, newPackageJson, readPackageJson } from "./package-json.ts";
import { initTemplates, TOOLS_FILE } from "./templates.ts";
import { initVersions } from "./versions.ts";

/** What `init` does to one file. */
export interface PlannedFile {
  /** Relative to the project folder, with `/`. */
  path: string;
  status: "written" | "skipped" | "merged";
  /** Why a file is skipped: `exists`, … */
  reason?: string;
  /** Details worth a line each: what a merge added, which scripts it kept … */
  notes: string[];
  /** The text to write (written and merged files). */
  content?: string;
  /** The text a merged file had when read; the write stops if it changed meanwhile. */
  original?: string;
}

/** A problem that does not stop `init` but will stop the project until fixed. */
export interface InitWarning {
  message: string;
  file?: string;
  fix: string;
}

/** Everything `init` will do, computed before anything is written. */
export interface InitPlan {
  /** The project folder (absolute); created when missing. */
  dir: string;
  server: string;
  files: PlannedFile[];
  warnings: InitWarning[];
  /** The commands to run next, in order. */
  next: string[];
}

/**
 * Plans `mcp-gen init` for `dir` (relative to `cwd`, default the working directory): which files
 * to write, skip or merge. Reads only; throws an MCPG096 `McpGenError` for a `dir` that is a file, an
 * invalid `name` or a broken package.json.
 *
 * @example
 * const plan = planInit({ dir: "my-tools", name: "calc" });
 * plan.files.map((f) => `${f.status} ${f.path}`); // ["written mcp-gen.config.ts", …]
 */
export function planInit(options: { dir?: string; name?: string; cwd?: string } = {}): InitPlan {
  const cwd = options.cwd ?? process.cwd();
  const dir = path.resolve(cwd, options.dir ?? ".");
  const display = (file: string) => {
    const relative = path.relative(cwd, path.resolve(dir, file));
    return relative === "" ? "." : relative.startsWith("..") ? path.resolve(dir, file) : relative;
  };
  checkFolder(dir, display);
  const pkg = readPackageJson(dir, display("package.json"));
  const server = chooseServerName({
    dir,
    packageName: pkg?.fields.name,
    ...(options.name !== undefined ? { explicit: options.name } : {}),
  });
  const versions = initVersions();
  const templates = initTemplates(server);
  const exists = (file: string) => existsSync(path.join(dir, file));
  const read = (file: string) => (exists(file) ? readFileSync(path.join(dir, file), "utf8") : undefined);
  const fresh = (file: string, notes: string[] = []): PlannedFile =>
    exists(file)
      ? { path: file, status: "skipped", reason: "exists", notes }
      : { path: file, status: "written", notes: [], content: templates[file]! };

  const configFile = CONFIG_NAMES.find(exists);
  const config: PlannedFile = configFile
    ? { path: configFile, status: "skipped", reason: "exists", notes: [] }
    : fresh("mcp-gen.config.ts");
  const entry = fresh("src/server.ts");
  // The test calls the example tool: not written beside someone's own src/tools.ts.
  const test: PlannedFile =
    (read("src/tools.ts") ?? TOOLS_FILE) !== TOOLS_FILE && !exists("test/tools.test.ts")
      ? {
          path: "test/tools.test.ts",
          status: "skipped",
          reason: "it tests the example tool; src/tools.ts is yours",
          notes: [],
        }
      : fresh("test/tools.test.ts");
  const importsGenerated = entry.status === "written" || test.status === "written";
  if (configFile && importsGenerated && read(configFile) !== templates["mcp-gen.config.ts"]) {
    config.notes.push(
      `the new files import generated/${server}/: the config needs a server "${server}", or pass --name`,
    );
  }
  const files = [config, fresh("src/tools.ts"), entry, test];

  const warnings: InitWarning[] = [];
  let scripts: Record<string, unknown> = initScripts(server);
  if (!pkg) {
    const name = toServerName(path.basename(dir));
    files.push({
      path: "package.json",
      status: "written",
      notes: [],
      content: newPackageJson({ name, server, versions }),
    });
  } else {
    const change = mergePackageJson({ file: pkg, dir, server, versions });
    scripts = change.scripts;
    files.push(
      change.content === undefined
        ? { path: "package.json", status: "skipped", reason: "exists", notes: change.notes }
        : {
            path: "package.json",
            status: "merged",
            notes: change.notes,
            content: change.content,
            original: pkg.text,
          },
    );
    if (change.commonjs !== undefined) {
      warnings.push({
        message: `package.json has "type": ${change.commonjs}, but src/server.ts and the generated code are ES modules (top-level await, import.meta): tsc would compile them to CommonJS, which fails`,
        file: display("package.json"),
        fix: 'set "type": "module" in package.json',
      });
    }
  }
  const tsconfig = read("tsconfig.json");
  files.push(
    fresh(
      "tsconfig.json",
      tsconfig !== undefined && tsconfig !== templates["tsconfig.json"]
        ? ["generated imports follow its settings; `npm start` runs what tsc emits as dist/src/server.js"]
        : [],
    ),
    fresh(".gitignore"),
  );
  return {
    dir,
    server,
    files,
    warnings,
    next: nextCommands({
      folder: display(""),
      scripts,
      server,
      test: test.status === "written" || exists("test/tools.test.ts"),
    }),
  };
}

function checkFolder(dir: string, display: (file: string) => string): void {
  let existing = dir;
  while (!existsSync(existing)) existing = path.dirname(existing);
  if (!statSync(existing).isDirectory()) {
    throw initError({
      message:
        existing === dir
          ? "--dir names a file, not a folder"
          : `${display(existing)} is a file, not a folder`,
      file: display(""),
      fix: "pass the folder to set up (a missing one is created), or leave --dir out to use the working directory",
    });
  }
}

function nextCommands(options: {
  folder: string;
  scripts: Record<string, unknown>;
  server: string;
  /** Whether test/tools.test.ts is there to run. */
  test: boolean;
}): string[] {
  const ours = initScripts(options.server);
  const { folder, scripts } = options;
  return [
    ...(folder === "." ? [] : [`cd ${/^[\w./-]+$/.test(folder) ? folder : JSON.stringify(folder)}`]),
    "npm install",
    scripts.build === ours.build ? "npm run build" : "npx mcp-gen build && npx tsc",
    ...(!options.test ? [] : [scripts.test === ours.test ? "npm test" : "npx vitest run --dir test"]),
  ];
}
