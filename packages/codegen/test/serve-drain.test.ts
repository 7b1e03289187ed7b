import { spawn } from "node:child_process";
import { connectHttp } from "@mcp-gen/runtime/client";
import { describe, expect, it } from "vitest";
import { BIN } from "./support/cli.ts";
import { REPO_ROOT } from "./support/project.ts";

/** `mcp-gen serve conformance --http` as a child process, with its URL and exit. */
async function serveConformance(drainTimeoutMs: number) {
  const child = spawn(
    process.execPath,
    [BIN, "serve", "conformance", "--http", "--port", "0", "--drain-timeout", String(drainTimeoutMs)],
    { cwd: REPO_ROOT, env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const match = /serving conformance \(\d+ tools\) on (\S+)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`mcp-gen serve exited (${code}): ${stderr}`)));
  });
  return { child, url, exited, stderr: () => stderr };
}

/**
 * A sampling call held open by the client: the tool waits for the client's model, which answers
 * only when the test says so; `asked` resolves once the server has asked.
 */
async function heldSamplingCall(url: string) {
  const { client } = await connectHttp(url, {
    protocol: "legacy",
    clientOptions: { capabilities: { sampling: {} } },
  });
  let asked!: () => void;
  const wasAsked = new Promise<void>((resolve) => {
    asked = resolve;
  });
  let answer!: () => void;
  const answered = new Promise<void>((resolve) => {
    answer = resolve;
  });
  client.setRequestHandler("sampling/createMessage", async () => {
    asked();
    await answered;
    return { role: "assistant", model: "test-model", content: { type: "text", text: "done" } };
  });
  const call = client.callTool({ name: "test_sampling", arguments: { prompt: "hi" } });
  call.catch(() => {});
  return { client, call, wasAsked, answer };
}

describe("mcp-gen serve --http on SIGTERM", () => {
  it("exits 0 once the calls being answered have finished", async () => {
    const served = await serveConformance(60_000);
    const held = await heldSamplingCall(served.url);
    await held.wasAsked;
    served.child.kill("SIGTERM");
    // Draining: health turns 503 while the call is still open.
    await expect.poll(async () => (await fetch(new URL("/healthz", served.url))).status).toBe(503);
    held.answer();
    expect((await held.call).content).toStrictEqual([{ type: "text", text: "LLM response: done" }]);
    expect(await served.exited).toBe(0);
    expect(served.stderr()).not.toMatch(/cut off/);
    await held.client.close();
  });

  it("exits 1 and says so when the drain timeout cut calls off", async () => {
    const served = await serveConformance(200);
    const held = await heldSamplingCall(served.url);
    await held.wasAsked;
    served.child.kill("SIGTERM");
    expect(await served.exited).toBe(1);
    expect(served.stderr()).toMatch(/mcp-gen: the drain timeout \(200 ms\) cut off 1 call\n/);
    // The call's stream ended without an answer; closing the client ends the wait for it.
    await held.client.close();
    await expect(held.call).rejects.toThrow();
  });
});
