import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PROVIDER_TARGETS } from "../../src/config/define.ts";
import type { ResolvedConfig } from "../../src/config/load.ts";
import type { NamingStyle } from "../../src/index.ts";

export const REPO_ROOT = path.resolve(import.meta.dirname, "../../../..");

/** A config for one server built from the `tools.ts` of a fixture folder. */
export function fixtureConfig(
  dir: string,
  options: { naming?: NamingStyle; tools?: string[] } = {},
): ResolvedConfig {
  return {
    file: path.join(dir, "mcp-gen.config.json"),
    displayFile: "mcp-gen.config.json",
    root: dir,
    schemasDir: path.join(dir, "schemas"),
    generatedDir: path.join(dir, "generated"),
    tsconfig: undefined,
    targets: [...PROVIDER_TARGETS],
    servers: [
      {
        name: path.basename(dir),
        tools: options.tools ?? ["tools.ts"],
        naming: options.naming ?? "preserve",
      },
    ],
  };
}

/** The tool naming a golden fixture is built with: its `case.json`'s `naming`, else `"preserve"`. */
export function fixtureNaming(fixtures: string, name: string): NamingStyle {
  const file = path.join(fixtures, name, "case.json");
  const options = existsSync(file)
    ? (JSON.parse(readFileSync(file, "utf8")) as { naming?: NamingStyle })
    : {};
  return options.naming ?? "preserve";
}

/** One config over several fixture folders of `root`, each a server built from its `tools.ts`. */
export function fixturesConfig(
  root: string,
  cases: readonly string[],
  options: { naming?: (name: string) => NamingStyle; targets?: ResolvedConfig["targets"] } = {},
): ResolvedConfig {
  return {
    file: path.join(root, "mcp-gen.config.json"),
    displayFile: "mcp-gen.config.json",
    root,
    schemasDir: path.join(root, "schemas"),
    generatedDir: path.join(root, "generated"),
    tsconfig: undefined,
    // the repository's own convention (its tsconfig allows `.ts` imports), as in generated/
    importExtension: ".ts",
    targets: options.targets ?? [...PROVIDER_TARGETS],
    servers: cases.map((name) => ({
      name,
      tools: [`${name}/tools.ts`],
      naming: options.naming?.(name) ?? "preserve",
    })),
  };
}

/**
 * A throwaway project folder outside the repo whose `node_modules` links to the repo's,
 * so tool modules can import `@mcp-gen/runtime`.
 */
export function tempProject(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-test-"));
  symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  return dir;
}
