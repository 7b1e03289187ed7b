import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Shown } from "../../../../scripts/docs/markers.ts";
import { childEnv } from "./run.ts";

/**
 * `mcp-gen build --watch` in the getting-started project, as the watch-mode page shows it: the first
 * build, then one edit of the tool's summary and the rebuild it triggers. Times vary, so they read `N`.
 */
export async function watchTranscript(dir: string): Promise<Shown> {
  const bin = path.join(dir, "node_modules/@mcp-gen/codegen/bin/mcp-gen.js");
  const child = spawn(process.execPath, [bin, "build", "--watch"], {
    cwd: dir,
    env: childEnv({ NO_COLOR: "1" }),
  });
  let output = "";
  let notify = () => {};
  const onData = (chunk: Buffer) => {
    output += chunk.toString("utf8");
    notify();
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const until = (pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`watch never printed ${pattern}:\n${output}`)),
        120_000,
      );
      notify = () => {
        if (pattern.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      };
      notify();
    });
  const tools = path.join(dir, "src/tools.ts");
  const original = readFileSync(tools, "utf8");
  try {
    await until(/watching .*\n/);
    writeFileSync(tools, original.replace("Add two numbers and round", "Add two numbers, then round"));
    await until(/rebuilt .*\nwatching .*\n/);
  } finally {
    child.kill("SIGTERM");
    writeFileSync(tools, original);
  }
  const text = output.replace(/ in \d+ ms/g, " in N ms").trim();
  return { lang: "console", text: `$ npx mcp-gen build --watch\n${text}\n^C` };
}
