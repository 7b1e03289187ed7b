import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { writeOutputs } from "../write/atomic.ts";
import { initError } from "./error.ts";
import { type InitPlan, planInit } from "./plan.ts";

export type { InitPlan, InitWarning, PlannedFile } from "./plan.ts";

/**
 * Sets up an mcp-gen project in `dir` (default: the working directory; created when missing):
 * `mcp-gen.config.ts`, an example tool, the production entry, a test, package.json scripts and
 * dependencies, a tsconfig and a .gitignore. Never overwrites a file (package.json is merged);
 * everything is planned before anything is written, and a problem throws an MCPG096
 * `McpGenError` with nothing written.
 *
 * @example
 * const { server, files } = init({ dir: "weather", name: "weather" });
 * for (const f of files) console.log(f.status, f.path);
 */
export function init(options: { dir?: string; name?: string; cwd?: string } = {}): InitPlan {
  const plan = planInit(options);
  writeInit(plan);
  return plan;
}

/** Writes a plan's new and merged files, each to a temporary name first, then renamed into place. */
export function writeInit(plan: InitPlan): void {
  for (const file of plan.files) {
    const full = path.join(plan.dir, file.path);
    const changed =
      file.status === "written"
        ? existsSync(full)
        : file.status === "merged" && readFileSync(full, "utf8") !== file.original;
    if (changed) {
      throw initError({
        message: `${file.path} changed while mcp-gen init was running`,
        file: full,
        fix: "run mcp-gen init again",
      });
    }
  }
  const files = plan.files.flatMap((f) =>
    f.content === undefined ? [] : [{ path: f.path, content: f.content }],
  );
  if (files.length === 0) return;
  mkdirSync(plan.dir, { recursive: true });
  writeOutputs({ files, ownedDirs: [] }, plan.dir);
}
