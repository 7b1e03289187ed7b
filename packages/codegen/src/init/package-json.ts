import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { initError } from "./error.ts";
import type { InitVersions } from "./versions.ts";

type Fields = Record<string, unknown>;

/** The test script `npm init` writes: a placeholder `init` may replace. */
export const NPM_DEFAULT_TEST = 'echo "Error: no test specified" && exit 1';

const DEPENDENCY_FIELDS = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"];

/** A project's package.json as read: its fields and its text (to write back only what it was). */
export interface PackageJsonFile {
  fields: Fields;
  text: string;
}

/** What `init` does to package.json: the new text (none when it has everything) and what changed. */
export interface PackageJsonChange {
  content: string | undefined;
  /** One line per change or kept script, e.g. `added scripts build, check`. */
  notes: string[];
  /** The scripts after the change. */
  scripts: Record<string, unknown>;
  /** Set when `type` stays a CommonJS value, which the generated ESM code cannot run under. */
  commonjs?: string;
}

/** The scripts `init` adds to a project serving `server`. */
export function initScripts(server: string): Record<string, string> {
  return {
    build: "mcp-gen build && tsc",
    check: "mcp-gen build --check && tsc --noEmit",
    serve: `mcp-gen serve ${server}`,
    start: "node dist/src/server.js",
    // dist/ holds compiled copies of the tests: run the sources only
    test: "vitest run --dir test",
  };
}

function initDependencies(
  v: InitVersions,
): Record<"dependencies" | "devDependencies", Record<string, string>> {
  return {
    dependencies: { "@mcp-gen/runtime": v.mcpGen },
    devDependencies: {
      "@mcp-gen/codegen": v.mcpGen,
      "@types/node": v.typesNode,
      typescript: v.typescript,
      vitest: v.vitest,
    },
  };
}

/**
 * Reads `<dir>/package.json`; `undefined` when there is none. Text that is not a JSON object, or
 * `scripts`/dependency fields that are not objects, throw an MCPG096 `McpGenError` naming the file.
 */
export function readPackageJson(dir: string, display: string): PackageJsonFile | undefined {
  const file = path.join(dir, "package.json");
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, "utf8");
  const fix = "correct package.json (or move it away to have one created), then run mcp-gen init again";
  let fields: unknown;
  try {
    fields = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    const { message } = error as Error;
    const at = /at position (\d+)/.exec(message);
    throw initError({
      message: `package.json is not valid JSON: ${message}`,
      file: at ? `${display}:${lineColumn(text, Number(at[1]))}` : display,
      fix,
    });
  }
  if (!isObject(fields))
    throw initError({ message: "package.json does not hold a JSON object", file: display, fix });
  for (const key of ["scripts", ...DEPENDENCY_FIELDS]) {
    if (Object.hasOwn(fields, key) && !isObject(fields[key])) {
      throw initError({ message: `"${key}" of package.json is not an object`, file: display, fix });
    }
  }
  return { fields, text };
}

/** The package.json of a folder that has none. */
export function newPackageJson(options: { name: string; server: string; versions: InitVersions }): string {
  const fields = {
    name: options.name,
    private: true,
    type: "module",
    scripts: initScripts(options.server),
    ...initDependencies(options.versions),
  };
  return `${JSON.stringify(fields, null, 2)}\n`;
}

/**
 * Adds what a project needs to an existing package.json without replacing any value, except two
 * placeholders of `npm init`: its test script, and its `"type": "commonjs"` while `main` names
 * no file yet. Keys keep their order; new ones go last (dependencies sorted, as npm keeps them).
 *
 * @example
 * mergePackageJson({ file, dir, server: "calc", versions: initVersions() }).notes;
 * // ['added "type": "module"', "added scripts build, check, serve, start, test", …]
 */
export function mergePackageJson(options: {
  file: PackageJsonFile;
  dir: string;
  server: string;
  versions: InitVersions;
}): PackageJsonChange {
  const fields: Fields = { ...options.file.fields };
  const scripts: Fields = { ...((fields.scripts as Fields | undefined) ?? {}) };
  const fresh = scripts.test === NPM_DEFAULT_TEST && !mainExists(fields.main, options.dir);
  const notes: string[] = [];
  let changed = false;
  const change = (note: string) => {
    notes.push(note);
    changed = true;
  };

  if (!Object.hasOwn(fields, "type")) {
    fields.type = "module";
    change('added "type": "module"');
  } else if (fields.type === "commonjs" && fresh) {
    fields.type = "module";
    change('changed "type": "commonjs" (npm init\'s default) to "module": the generated code is ESM');
  }

  const added: string[] = [];
  for (const [name, command] of Object.entries(initScripts(options.server))) {
    if (!Object.hasOwn(scripts, name)) added.push(name);
    else if (name === "test" && scripts.test === NPM_DEFAULT_TEST)
      change(`replaced npm init's placeholder test script with "${command}"`);
    else {
      if (scripts[name] !== command)
        notes.push(
          `skipped script "${name}" (exists: ${JSON.stringify(scripts[name])}; init's: "${command}")`,
        );
      continue;
    }
    scripts[name] = command;
  }
  if (added.length > 0) change(`added scripts ${added.join(", ")}`);
  fields.scripts = scripts; // in place when it was there; rendered only when something changed

  const present = (name: string) =>
    DEPENDENCY_FIELDS.some((f) => isObject(fields[f]) && Object.hasOwn(fields[f], name));
  for (const [field, wanted] of Object.entries(initDependencies(options.versions))) {
    const missing = Object.entries(wanted).filter(([name]) => !present(name));
    if (missing.length === 0) continue;
    fields[field] = withKeys((fields[field] as Fields | undefined) ?? {}, missing);
    change(`added ${field} ${missing.map(([n, v]) => `${n} ${v}`).join(", ")}`);
  }

  return {
    content: changed ? render(fields, options.file.text) : undefined,
    notes,
    scripts,
    ...(fields.type !== "module" ? { commonjs: JSON.stringify(fields.type) } : {}),
  };
}

/** `line:column` (1-based) of an offset in a text. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split("\n");
  return `${before.length}:${before[before.length - 1]!.length + 1}`;
}

function isObject(value: unknown): value is Fields {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function mainExists(main: unknown, dir: string): boolean {
  return existsSync(path.join(dir, typeof main === "string" ? main : "index.js"));
}

const byName = (a: string, b: string) => a.localeCompare(b, "en");

/** `map` plus `entries`, sorted by name when `map` already was (npm sorts dependencies), else appended. */
function withKeys(map: Record<string, unknown>, entries: [string, string][]): Record<string, unknown> {
  const keys = Object.keys(map);
  const merged = { ...map, ...Object.fromEntries(entries) };
  const sorted = keys.every((k, i) => i === 0 || byName(keys[i - 1]!, k) <= 0);
  return sorted ? Object.fromEntries(Object.entries(merged).sort(([a], [b]) => byName(a, b))) : merged;
}

/** JSON with the file's own indentation and line endings (2 spaces and `\n` by default), ending in a newline. */
function render(fields: Fields, original: string): string {
  const indent = /^([ \t]+)"/m.exec(original)?.[1] ?? "  ";
  const json = `${JSON.stringify(fields, null, indent)}\n`;
  return original.includes("\r\n") ? json.replace(/\n/g, "\r\n") : json;
}
