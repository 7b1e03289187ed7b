import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const DIST = path.join(import.meta.dirname, "../../dist/code/index.js");

/**
 * `run()` on the process's shared sandbox, from the compiled package in a child process: the
 * program runs, and the process then exits on its own — the idle worker does not keep it alive.
 */
describe("run: the shared sandbox", () => {
  it("runs programs and lets the process exit when idle", async () => {
    const script = `
const { run } = await import(${JSON.stringify(DIST)});
const api = { math: { square: { call: async ({ n }) => ({ content: [], structuredContent: { n: n * n } }) } } };
const first = await run("return (await math.square({ n: 7 })).n;", { api });
const second = await run("console.log('hi'); return typeof process;", { api });
console.log(JSON.stringify([first, second].map(({ ok, value, logs, calls }) => ({ ok, value, logs, calls: calls.length }))));
`;
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], {
      timeout: 60_000,
    });
    expect(JSON.parse(stdout)).toStrictEqual([
      { ok: true, value: 49, logs: [], calls: 1 },
      { ok: true, value: "undefined", logs: [{ level: "log", text: "hi" }], calls: 0 },
    ]);
  });
});
