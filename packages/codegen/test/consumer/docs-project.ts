import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { readableJson, type Shown, writtenFiles } from "../../../../scripts/docs/markers.ts";
import { npmInit, npmInstall } from "./packages.ts";
import { ok, REPO_ROOT } from "./run.ts";

/** The pages whose examples come from the getting-started project (their markers are filled from it). */
export const TRANSCRIBED_PAGES = ["README.md", "docs/guide/getting-started.md"];

/** Where the docs say the project is: the user made it with `mkdir calc && cd calc`. */
const SHOWN_DIR = "~/calc";

export interface DocsProject {
  dir: string;
  /** Project files the pages show (`<!-- file:… -->`), as the run left them. */
  files: Record<string, string>;
  /** What each step printed (`<!-- transcript:… -->`). */
  transcripts: Record<string, Shown>;
}

/**
 * Output that differs from run to run (vitest's clock and durations) made stable, and the project's
 * temporary folder shown as the docs name it.
 */
function stable(text: string, dir: string): string {
  return text
    .replaceAll(dir, SHOWN_DIR)
    .split("\n")
    .filter((line) => !/^\s*(Start at|Duration)\s/.test(line))
    .map((line) => line.replace(/\s+\d+(\.\d+)?m?s$/, "").trimEnd())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** Runs a command line through bash (stderr merged into stdout, in order) and shows it as typed. */
async function step(dir: string, line: string): Promise<Shown> {
  const ran = await ok("bash", ["-c", `${line} 2>&1`], {
    cwd: dir,
    env: { NO_COLOR: "1", FORCE_COLOR: "0" },
  });
  return {
    lang: "console",
    text: `$ ${line.replace("npx --offline --no -- ", "npx ")}\n${stable(ran.stdout, dir)}`,
  };
}

/**
 * The getting-started page, run: a new folder, the packed packages installed, `mcp-gen init`, the
 * dev tools installed, `npm run build`, `npm test`, and the page's `src/call.ts` compiled and run
 * against the stdio server. Returns what the pages show.
 */
export async function runDocsProject(root: string, tarballs: readonly string[]): Promise<DocsProject> {
  const dir = path.join(root, "calc");
  await npmInit(dir);
  await npmInstall(dir, tarballs);
  const transcripts: Record<string, Shown> = {};
  transcripts.init = await step(dir, "npx --offline --no -- mcp-gen init --name calc");
  await npmInstall(dir, []);
  transcripts.build = await step(dir, "npm run build");
  const contract = JSON.parse(readFileSync(path.join(dir, "schemas/calc.tools.json"), "utf8"));
  transcripts.contract = { lang: "json", text: readableJson(contract.tools[0]) };
  transcripts.test = await step(dir, "npm test");
  const page = readFileSync(path.join(REPO_ROOT, "docs/guide/getting-started.md"), "utf8");
  const written = writtenFiles(page);
  for (const [file, text] of Object.entries(written)) writeFileSync(path.join(dir, file), text);
  await ok("npx", ["--offline", "--no", "--", "tsc"], { cwd: dir });
  transcripts.call = await step(dir, "node dist/src/call.js");
  const files: Record<string, string> = {};
  for (const file of ["src/tools.ts", ...Object.keys(written)]) {
    files[file] = readFileSync(path.join(dir, file), "utf8");
  }
  return { dir, files, transcripts };
}
