import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type ProgramApi, type RunResult, type Sandbox } from "../../src/code/index.ts";

/**
 * Escapes and abuse: each is stopped with a message that names what happened, and the host (this
 * process) and the sandbox stay usable — every case is followed by a program that must still run.
 */
let sandbox: Sandbox;
let served = 0;
const api: ProgramApi = {
  counter: {
    next: {
      call: async () => {
        served++;
        return { content: [], structuredContent: { n: served } };
      },
    },
  },
};

async function failure(program: string, limits: Parameters<Sandbox["run"]>[1]["limits"] = {}) {
  const result = await sandbox.run(program, { api, limits });
  const after = await sandbox.run("return [1, 2, 3].map((x) => x * 2);", { api });
  expect(after).toStrictEqual({ ok: true, value: [2, 4, 6], logs: [], calls: [] });
  if (result.ok) throw new Error(`the program was not stopped: ${JSON.stringify(result.value)}`);
  return result.error;
}

// The engine in the calling thread (the default) and in a worker thread of its own.
describe.each(["caller", "worker"] as const)("run: escapes and abuse (engine in the %s thread)", (thread) => {
  beforeAll(() => {
    sandbox = createSandbox({ limits: { timeMs: 20_000 }, thread });
  });
  afterAll(() => sandbox.close());

  it("stops an infinite loop at the time limit", async () => {
    const error = await failure("while (true) {}", { timeMs: 500 });
    expect(error).toMatchObject({ kind: "time" });
    expect(error.message).toBe("the program ran past its time limit and was stopped (limit: 500 ms)");
  });

  it("keeps what a program logged before it was stopped", async () => {
    const result = await sandbox.run('console.log("before");\nawait counter.next({});\nwhile (true) {}', {
      api,
      limits: { timeMs: 500 },
    });
    expect(result).toMatchObject({
      ok: false,
      error: { kind: "time" },
      logs: [{ level: "log", text: "before" }],
    });
  });

  it("stops a memory bomb at the memory limit", async () => {
    const error = await failure("const a = []; for (;;) a.push(new Array(100000).fill(a.length));");
    expect(error).toMatchObject({ kind: "memory", line: 1 });
    expect(error.message).toBe(
      "the program ran out of memory (over the sandbox's memory limit) and was stopped (limit: 64 MiB)",
    );
  });

  it("stops deep recursion at the stack limit, with the line", async () => {
    const error = await failure("function down(n) {\n  return down(n + 1) + 1;\n}\nreturn down(0);");
    expect(error).toStrictEqual({
      kind: "stack",
      message:
        "the program's recursion went too deep (over the sandbox's stack limit) and was stopped (limit: 256 KiB)",
      line: 2,
      column: 14,
    });
  });

  it("stops recursion deeper than the thread's own stack allows, and starts a fresh engine", async () => {
    // 64 MiB of engine stack is more than any thread has: the host's stack runs out first
    // (in the caller's thread) or the worker's engine stops it — never the host.
    const error = await failure("function down(n) {\n  return down(n + 1) + 1;\n}\nreturn down(0);", {
      stackBytes: 64 * 1024 * 1024,
    });
    expect(error.kind).toBe("stack");
    expect(error.message).toMatch(/^the program's recursion went too deep/);
  });

  it("reaches no process through the Function constructor", async () => {
    const error = await failure('return globalThis.constructor.constructor("return process")();');
    expect(error).toMatchObject({
      kind: "error",
      name: "ReferenceError",
      message: "'process' is not defined",
    });
  });

  it("loads no module with import()", async () => {
    const error = await failure(
      'const fs = await import("node:fs");\nreturn fs.readFileSync("/etc/passwd", "utf8");',
    );
    expect(error).toMatchObject({
      kind: "error",
      name: "ReferenceError",
      message: "could not load module 'node:fs'",
    });
  });

  it.each([
    ["require", 'return require("node:child_process");'],
    ["fetch", 'return await fetch("http://127.0.0.1:1/");'],
    ["process", "return process.env;"],
    ["setTimeout", "await new Promise((r) => setTimeout(r, 1));"],
  ])("has no %s", async (name, program) => {
    const error = await failure(program);
    expect(error).toMatchObject({
      kind: "error",
      name: "ReferenceError",
      message: `'${name}' is not defined`,
      line: 1,
    });
  });

  it("refuses a result of 50 MB before serialising it", async () => {
    const error = await failure('return { data: "x".repeat(50 * 1024 * 1024) };');
    expect(error).toStrictEqual({
      kind: "result",
      message:
        "the return value is larger than the result limit of 1048576 characters of JSON; return less (filter, summarise or slice it)",
    });
  });

  it("refuses a tool result too large for the engine as a catchable error", async () => {
    const huge = {
      call: async () => ({ content: [], structuredContent: { data: "x".repeat(20 * 1024 * 1024) } }),
    };
    const result = await sandbox.run(
      "try { await big.get({}); } catch (e) { return e.name + ': ' + e.message; }",
      {
        api: { big: { get: huge } },
      },
    );
    expect(result).toMatchObject({
      ok: true,
      value:
        "ToolError: big.get returned 20971531 characters of JSON, more than the sandbox takes in one result (16777216); ask for less (a filter, a limit, a page)",
      calls: [{ tool: "big.get", outcome: "tool-error" }],
    });
  });

  it("stops 10,000 calls at the call limit, after the allowed ones ran", async () => {
    served = 0;
    const result = await sandbox.run(
      "for (let i = 0; i < 10000; i++) await counter.next({});\nreturn 'done';",
      {
        api,
      },
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toStrictEqual({
      kind: "calls",
      message:
        "the program made more than 1000 tool calls, the limit of one run, and was stopped; do the work in fewer calls",
    });
    expect(served).toBe(1000);
    expect(result.calls).toHaveLength(1000);
    expect(await sandbox.run("return 1;", { api })).toMatchObject({ ok: true, value: 1 });
  });

  it("says what is not JSON in the return value, with its pointer", async () => {
    const cases: [string, string][] = [
      ["return { f() {} };", "a function at /f"],
      ["return { when: 1n };", "a BigInt (convert it to a string) at /when"],
      ["return { items: [new Map()] };", "a Map object (convert it to a plain object or array) at /items/0"],
      ["return { later: counter.next({}) };", "a Promise (await it first) at /later"],
      ["const a = {}; a.self = a; return a;", "a circular reference at /self"],
    ];
    for (const [program, what] of cases) {
      const result: RunResult = await sandbox.run(program, { api });
      expect(result).toMatchObject({
        ok: false,
        error: {
          kind: "result",
          message: `the return value is not JSON: ${what}; return plain data (objects, arrays, strings, numbers, booleans, null)`,
        },
      });
    }
  });

  it("reports a syntax error and a thrown error with their lines", async () => {
    const syntax = await sandbox.run("const x = ;", { api });
    expect(syntax).toMatchObject({ ok: false, error: { kind: "error", name: "SyntaxError" } });
    const thrown = await sandbox.run('const x = 1;\nthrow new TypeError("no " + x);', { api });
    expect(thrown).toMatchObject({
      ok: false,
      error: { kind: "error", name: "TypeError", message: "no 1", line: 2 },
    });
  });

  it("refuses an API namespace that would hide a global", async () => {
    const result = await sandbox.run("return JSON.stringify({});", { api: { JSON: api.counter! } });
    expect(result).toMatchObject({
      ok: false,
      error: {
        kind: "error",
        message: 'the API namespace "JSON" would hide the global "JSON": give the namespace another name',
      },
    });
  });

  it("ends a program that waits for a promise nothing settles", async () => {
    const error = await failure("await new Promise(() => {});");
    expect(error.kind).toBe("deadlock");
  });

  it("captures console output up to the log limit", async () => {
    const result = await sandbox.run(
      'console.log("a", { b: 1 }, [2]);\nconsole.error(new Error("e"));\nfor (let i = 0; i < 100; i++) console.info("x".repeat(10));\nreturn null;',
      { api, limits: { logBytes: 60 } },
    );
    expect(result).toMatchObject({ ok: true, value: null });
    expect(result.logs.slice(0, 2)).toStrictEqual([
      { level: "log", text: 'a {"b":1} [2]' },
      { level: "error", text: "Error: e" },
    ]);
    expect(result.logs.at(-1)?.text).toMatch(/over the log limit of 60 characters: the rest was dropped\]$/);
    expect(result.logs.reduce((n, l) => n + l.text.length, 0)).toBeLessThan(60 + 100);
  });
});
