import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startScriptedModel } from "@mcp-gen/runtime/testing";
import { readableJson, type Shown, writtenFiles } from "../../../../scripts/docs/markers.ts";
import { desktopEntries, type Entry, inspectorTranscript } from "./docs-clients.ts";
import { watchTranscript } from "./docs-watch.ts";
import { lockedVersion, npmInit, npmInstall } from "./packages.ts";
import { describeRun, ok, REPO_ROOT, run } from "./run.ts";

/** The pages whose examples come from the getting-started project (their markers are filled from it). */
export const TRANSCRIBED_PAGES = [
  "README.md",
  "docs/guide/getting-started.md",
  "docs/guide/providers.md",
  "docs/guide/watch.md",
  "docs/guide/agent.md",
];

/** Where the docs say the project is: the user made it with `mkdir calc && cd calc`. */
const SHOWN_DIR = "~/calc";

export interface DocsProject {
  dir: string;
  /** Project files the pages show (`<!-- file:… -->`), as the run left them. */
  files: Record<string, string>;
  /** What each step printed (`<!-- transcript:… -->`). */
  transcripts: Record<string, Shown>;
  /** The Claude Desktop / Cursor entries the getting-started page's command printed (real paths). */
  desktop: Record<string, Entry>;
}

/**
 * Output that differs from run to run (vitest's clock, durations, slow tests) made stable, and the project's
 * temporary folder shown as the docs name it.
 */
function stable(text: string, dir: string): string {
  return (
    text
      .replaceAll(dir, SHOWN_DIR)
      .split("\n")
      // vitest's clock, and the single tests it lists only when they were slow (under load)
      .filter((line) => !/^\s*(Start at|Duration)\s/.test(line) && !/^ {5,}✓ /.test(line))
      .map((line) =>
        line
          .replace(/\s+\d+(\.\d+)?m?s$/, "")
          .replace(/\(\d+ ms\)/g, "(N ms)")
          .trimEnd(),
      )
      .join("\n")
      .replace(/\n{3,}/g, "\n\n")
      .trim()
  );
}

/**
 * Runs a command line through bash (stderr merged into stdout, in order) and shows it as typed; it
 * must exit with `exitCode`.
 */
async function step(
  dir: string,
  line: string,
  { exitCode = 0, env: extra = {} }: { exitCode?: number; env?: Record<string, string> } = {},
): Promise<Shown> {
  const env = { NO_COLOR: "1", FORCE_COLOR: "0", ...extra };
  const ran = await run("bash", ["-c", `${line} 2>&1`], { cwd: dir, env });
  if (ran.code !== exitCode) throw new Error(`${describeRun(ran, dir)}\n  expected exit code ${exitCode}`);
  return {
    lang: "console",
    text: `$ ${line.replace("npx --offline --no -- ", "npx ")}\n${stable(ran.stdout, dir)}`,
  };
}

/** `mcp-gen chat` over the calc tools, the Anthropic API played by a scripted model on 127.0.0.1. */
async function chatTranscript(dir: string): Promise<Shown> {
  const model = await startScriptedModel({
    script: [
      { toolCalls: [{ name: "add", arguments: { a: 0.1, b: 0.2 } }] },
      (request) => ({ text: `0.1 + 0.2 = ${request.toolResults[0]?.content}` }),
    ],
  });
  try {
    return await step(dir, 'npx --offline --no -- mcp-gen chat calc "What is 0.1 + 0.2?"', {
      env: model.env(),
    });
  } finally {
    await model.close();
  }
}

const pageOf = (page: string) => readFileSync(path.join(REPO_ROOT, page), "utf8");

/**
 * The getting-started page, run: a new folder, the packed packages installed, `mcp-gen init`, the
 * dev tools installed, `npm run build`, `npm test`, the page's `src/call.ts` compiled and run
 * against the stdio server, the Inspector's CLI calling it. Returns what the pages show.
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
  const written = writtenFiles(pageOf("docs/guide/getting-started.md"));
  for (const [file, text] of Object.entries(written)) writeFileSync(path.join(dir, file), text);
  await ok("npx", ["--offline", "--no", "--", "tsc"], { cwd: dir });
  transcripts.call = await step(dir, "node dist/src/call.js");
  const desktop = await desktopEntries(dir);
  transcripts.desktop = desktop.shown;
  transcripts.inspector = await inspectorTranscript(dir);
  // a hand-written contract the providers' rules reject, linted, then removed again
  const badContracts = writtenFiles(pageOf("docs/guide/providers.md"));
  for (const [file, text] of Object.entries(badContracts)) writeFileSync(path.join(dir, file), text);
  transcripts.lint = await step(dir, "npx --offline --no -- mcp-gen lint", { exitCode: 1 });
  for (const file of Object.keys(badContracts)) rmSync(path.join(dir, file));
  transcripts.watch = await watchTranscript(dir);
  await ok("npx", ["--offline", "--no", "--", "mcp-gen", "build"], { cwd: dir });
  // the model adapters' SDKs, which the agent pages tell users to install
  await npmInstall(
    dir,
    ["@anthropic-ai/sdk", "openai"].map((n) => `${n}@${lockedVersion(n)}`),
  );
  transcripts.chat = await chatTranscript(dir);
  const files: Record<string, string> = {};
  for (const file of ["src/tools.ts", ...Object.keys(written)]) {
    files[file] = readFileSync(path.join(dir, file), "utf8");
  }
  return { dir, files, transcripts, desktop: desktop.entries };
}
