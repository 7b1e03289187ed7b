import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type ProgramTool, type Sandbox } from "../../src/code/index.ts";

/** Concurrency, time limit, cancellation and permission as the tools see them. */
let sandbox: Sandbox;
beforeAll(() => {
  sandbox = createSandbox();
});
afterAll(() => sandbox.close());

/** A tool that answers only once `expected` calls are in flight together, and records what it saw. */
function gate(expected: number) {
  const seen = { started: 0, maxInFlight: 0, aborted: 0 };
  let inFlight = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  const binding: ProgramTool = {
    async call(args, { signal }) {
      seen.started++;
      inFlight++;
      seen.maxInFlight = Math.max(seen.maxInFlight, inFlight);
      if (inFlight === expected) open();
      if (signal.aborted) seen.aborted++;
      else signal.addEventListener("abort", () => seen.aborted++);
      await opened;
      inFlight--;
      return { content: [], structuredContent: { echo: args } };
    },
  };
  return { seen, binding };
}

describe("run: concurrency, time limit and cancellation", () => {
  it("runs the calls of Promise.all concurrently in the host", async () => {
    const { seen, binding } = gate(3);
    const result = await sandbox.run("return await Promise.all([1, 2, 3].map((i) => gate.wait({ i })));", {
      api: { gate: { wait: binding } },
    });
    expect(result).toMatchObject({
      ok: true,
      value: [{ echo: { i: 1 } }, { echo: { i: 2 } }, { echo: { i: 3 } }],
    });
    expect(seen.maxInFlight).toBe(3);
  });

  it("stops a run whose call never answers at the time limit, aborting the call", async () => {
    const { seen, binding } = gate(2);
    const result = await sandbox.run("return await gate.wait({});", {
      api: { gate: { wait: binding } },
      limits: { timeMs: 300 },
    });
    expect(result).toMatchObject({
      ok: false,
      error: { kind: "time", message: "the program ran past its time limit and was stopped (limit: 300 ms)" },
      calls: [{ tool: "gate.wait", outcome: "cancelled" }],
    });
    expect(seen.aborted).toBe(1);
  });

  it("cancels the whole run through its AbortSignal", async () => {
    const { seen, binding } = gate(5);
    const controller = new AbortController();
    const cancelling: ProgramTool = {
      call: async (args, options) => {
        controller.abort();
        return binding.call(args, options);
      },
    };
    const result = await sandbox.run('await gate.cancel({});\nreturn "not reached";', {
      api: { gate: { cancel: cancelling } },
      signal: controller.signal,
    });
    expect(result).toMatchObject({
      ok: false,
      error: { kind: "cancelled", message: "the run was cancelled" },
      calls: [{ tool: "gate.cancel", outcome: "cancelled" }],
    });
    expect(seen).toStrictEqual({ started: 1, maxInFlight: 1, aborted: 1 });
    const started = gate(1);
    const busy = new AbortController();
    const running = sandbox.run("while (true) {}", { api: {}, signal: busy.signal });
    setImmediate(() => busy.abort());
    expect(await running).toMatchObject({ ok: false, error: { kind: "cancelled" } });
    expect(
      await sandbox.run("return await gate.wait({ x: 1 });", { api: { gate: { wait: started.binding } } }),
    ).toMatchObject({
      ok: true,
      value: { echo: { x: 1 } },
    });
  });
});

it("refuses a destructive call when the permission hook fails, with its reason", async () => {
  let ran = 0;
  const drop: ProgramTool = {
    destructive: true,
    call: async () => {
      ran++;
      return { content: [{ type: "text", text: "dropped" }] };
    },
  };
  const result = await sandbox.run(
    "try { return await db.drop({}); } catch (e) { return e.name + ': ' + e.message; }",
    {
      api: { db: { drop } },
      permission: () => {
        throw new Error("no terminal to ask on");
      },
    },
  );
  expect(result).toMatchObject({
    ok: true,
    value:
      "PermissionError: db.drop was not run: it is destructive and the permission check failed (no terminal to ask on). Do not retry it; tell the user what you meant to do.",
    calls: [{ tool: "db.drop", outcome: "denied" }],
  });
  expect(ran).toBe(0);
  const allowed = await sandbox.run("return await db.drop({});", {
    api: { db: { drop } },
    permission: () => true,
  });
  expect(allowed).toMatchObject({ ok: true, value: "dropped" });
  expect(ran).toBe(1);
});

it("ends a run in progress when its sandbox is closed", async () => {
  const own = createSandbox();
  const { seen, binding } = gate(2);
  const running = own.run("return await gate.wait({});", { api: { gate: { wait: binding } } });
  const started = new Promise<void>((resolve) => {
    const poll = () => (seen.started > 0 ? resolve() : setImmediate(poll));
    poll();
  });
  await started;
  await own.close();
  expect(await running).toMatchObject({
    ok: false,
    error: { kind: "sandbox", message: "the sandbox was closed during the run" },
    calls: [{ tool: "gate.wait", outcome: "cancelled" }],
  });
  expect(seen.aborted).toBe(1);
});

it("does not run a call the program never awaited, and records it", async () => {
  const { seen, binding } = gate(1);
  const result = await sandbox.run('gate.wait({ late: true });\nreturn "done";', {
    api: { gate: { wait: binding } },
  });
  expect(result).toStrictEqual({
    ok: true,
    value: "done",
    logs: [],
    calls: [
      {
        tool: "gate.wait",
        arguments: { late: true },
        outcome: "cancelled",
        error: "not run: the program ended without awaiting it",
        ms: 0,
      },
    ],
  });
  expect(seen.started).toBe(0);
});
