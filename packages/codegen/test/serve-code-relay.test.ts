import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { connectStdio, type StdioConnection } from "@mcp-gen/runtime/client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { askingState, serveAskingHttp } from "./support/asking-server.ts";
import { BIN } from "./support/cli.ts";
import { REPO_ROOT, tempProject } from "./support/project.ts";

/**
 * `mcp-gen serve ledger --code-only --mcp asking=… --mcp everything=…` as a real stdio child,
 * driven by the SDK v2 client in both protocol eras: what the `--mcp` servers ask while serving a
 * call from a program — elicitation (form and URL), sampling, roots — goes to the client that sent
 * the program, their progress and log messages reach it, and cancelling the program cancels their
 * call. The upstream servers: a fixture on the SDK v2 server (it answers 2026-07-28, so its
 * questions are `input_required` rounds), the third-party server-everything (2025 only: requests;
 * its task-only research query), and a user's project served by `mcp-gen serve` whose tool runs
 * only as a task.
 */
const ASKING = path.join(import.meta.dirname, "support/asking-stdio.ts");
const EVERYTHING = path.join(REPO_ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const closing: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const c of closing.splice(0).reverse()) await c.close();
});

interface Asked {
  elicit: string[];
  /** URL-mode elicitations: the URL, and the `elicitationId` (its type on 2025, absent on 2026-07-28). */
  urls: string[];
  sample: string[];
  progress: string[];
  logs: string[];
}

/** Starts the server; it is closed after the test unless `shared` (then by its `close`). */
async function start(options: {
  era: "legacy" | "2026-07-28";
  capable: boolean;
  /** Declares form elicitation only (no URL mode), with the capable client's handlers. */
  formOnly?: boolean;
  asking?: string;
  shared?: boolean;
  /** More `--mcp name=…` servers. */
  mcp?: string[];
}) {
  const dir = mkdtempSync(path.join(tmpdir(), "mcp-gen-serve-relay-"));
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(VITEST|__VITEST)/.test(k))),
    LEDGER_DB: path.join(dir, "ledger.sqlite"),
    NO_COLOR: "1",
  } as Record<string, string>;
  const open: StdioConnection = await connectStdio(
    {
      command: process.execPath,
      args: [
        BIN,
        "serve",
        "ledger",
        "--code-only",
        "--mcp",
        `asking=${options.asking ?? `${process.execPath} --import tsx ${ASKING}`}`,
        "--mcp",
        `everything=${process.execPath} ${EVERYTHING} stdio`,
        ...(options.mcp ?? []).flatMap((m) => ["--mcp", m]),
      ],
      cwd: REPO_ROOT,
      env,
      stderr: "pipe",
    },
    {
      protocol: options.era,
      clientOptions: {
        capabilities: options.capable
          ? { elicitation: options.formOnly ? { form: {} } : { form: {}, url: {} }, sampling: {}, roots: {} }
          : {},
      },
    },
  );
  if (!options.shared) closing.push(open);
  const { client } = open;
  const asked: Asked = { elicit: [], urls: [], sample: [], progress: [], logs: [] };
  const era = options.era;
  if (options.capable) {
    client.setRequestHandler("elicitation/create", (request) => {
      asked.elicit.push(request.params.message);
      if (request.params.mode === "url") {
        const { url, elicitationId } = request.params;
        asked.urls.push(`${url} ${era === "legacy" ? typeof elicitationId : String(elicitationId)}`);
        return { action: "accept" };
      }
      const props = Object.keys(
        (request.params as { requestedSchema?: { properties?: object } }).requestedSchema?.properties ?? {},
      );
      // the fixture asks for a name; server-everything for a form whose required fields these fill
      return props.includes("name") && props.length === 1
        ? { action: "accept", content: { name: "ada" } }
        : { action: "decline" };
    });
    client.setRequestHandler("sampling/createMessage", (request) => {
      const first = request.params.messages[0]?.content as { text?: string };
      asked.sample.push(first.text ?? "");
      return { model: "scripted", role: "assistant", content: { type: "text", text: "short" } };
    });
    client.setRequestHandler("roots/list", () => ({ roots: [{ uri: "file:///work/project" }] }));
  }
  client.setNotificationHandler("notifications/message", (n) => {
    asked.logs.push(`${n.params.logger ?? ""}: ${String(n.params.data)}`);
  });
  if (options.era === "legacy") await client.setLoggingLevel("info");
  return { client, asked, close: () => open.close() };
}

/** The server shared by the tests of one era that need a capable client, with what it was asked cleared. */
function fresh(server: Awaited<ReturnType<typeof start>>) {
  for (const list of Object.values(server.asked)) list.length = 0;
  return server;
}

const textOf = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;
const LOG_LEVEL = { "io.modelcontextprotocol/logLevel": "info" };

describe.each([
  "legacy",
  "2026-07-28",
] as const)("serve --code --mcp relays the upstream's questions (%s client)", (era) => {
  let capable: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    capable = await start({ era, capable: true, shared: true });
  });
  afterAll(() => capable.close());

  it("elicitation, sampling and roots of a 2026-07-28 upstream go to the client that sent the program", async () => {
    const { client, asked } = fresh(capable);
    const result = await client.callTool({
      name: "run_program",
      arguments: {
        program: `const hello = await asking.ask_name();
const summary = await asking.summarize({ text: "a long story" });
const roots = await asking.list_roots();
return { hello, summary, roots };`,
      },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(JSON.parse(textOf(result))).toStrictEqual({
      hello: "hello ada",
      summary: "summary: short",
      roots: "file:///work/project",
    });
    expect(asked.elicit).toStrictEqual(["What is your name?"]);
    expect(asked.sample).toStrictEqual(["Summarize: a long story"]);
  });

  it("URL-mode elicitation of a 2026-07-28 upstream goes to a client that declares it", async () => {
    const { client, asked } = fresh(capable);
    const result = await client.callTool({
      name: "run_program",
      arguments: { program: "return await asking.open_url();" },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(JSON.parse(textOf(result))).toBe("you chose accept");
    expect(asked.elicit).toStrictEqual(["Sign in to continue"]);
    // a 2025 client gets an elicitationId (the 2025 revisions require one), a 2026-07-28 client none
    expect(asked.urls).toStrictEqual([
      `https://example.com/login ${era === "legacy" ? "string" : "undefined"}`,
    ]);
  });

  it("a client with form elicitation only gets a URL elicitation refused, as an error the program catches", async () => {
    const { client, asked } = await start({ era, capable: true, formOnly: true });
    const result = await client.callTool({
      name: "run_program",
      arguments: {
        program: "try { return await asking.open_url(); } catch (e) { return (e as Error).message; }",
      },
    });
    expect(JSON.parse(textOf(result).split("\n\n")[0]!)).toBe(
      "asking.open_url failed: asking.open_url asked the user to open https://example.com/login (URL-mode elicitation), which the client that sent the program does not support; it was refused.",
    );
    expect(asked.elicit).toStrictEqual([]);
  });

  it("progress and log messages of the upstream call reach the client while the call runs", async () => {
    // the upstream over Streamable HTTP in this process, so the test can end its held call
    const state = askingState();
    const http = await serveAskingHttp(state);
    closing.push(http);
    const { client, asked } = await start({ era, capable: true, asking: http.url });
    let seen!: () => void;
    const both = new Promise<void>((resolve) => {
      seen = resolve;
    });
    const check = () => asked.progress.length > 0 && asked.logs.length > 0 && seen();
    client.setNotificationHandler("notifications/message", (n) => {
      asked.logs.push(`${n.params.logger ?? ""}: ${String(n.params.data)}`);
      check();
    });
    const held = client.callTool(
      { name: "run_program", arguments: { program: "return await asking.hold();" }, _meta: LOG_LEVEL },
      {
        onprogress: (p) => {
          asked.progress.push(`${p.progress}: ${p.message ?? ""}`);
          check();
        },
      },
    );
    // the upstream call holds until released: both reached this client while it ran
    await both;
    expect(state.held).toHaveLength(1);
    for (const release of state.held.splice(0)) release();
    expect(JSON.parse(textOf(await held))).toBe("released");
    expect(asked.progress).toStrictEqual(["1: asking.hold: holding"]);
    expect(asked.logs).toStrictEqual(["hold: holding"]);
  });

  it("a client that cannot answer gets the upstream's questions refused, as errors the program catches", async () => {
    const { client } = await start({ era, capable: false });
    const result = await client.callTool({
      name: "run_program",
      arguments: {
        program: `const caught: string[] = [];
const calls = [() => asking.ask_name(), () => asking.summarize({ text: "x" }), () => everything.trigger_elicitation_request()];
for (const call of calls) {
  try { await call(); } catch (e) { caught.push((e as Error).name + ": " + (e as Error).message); }
}
return caught;`,
      },
    });
    const refused = (call: string, what: string) =>
      `${call} asked for ${what}, which the client that sent the program does not support; it was refused.`;
    expect(JSON.parse(textOf(result).split("\n\n")[0]!)).toStrictEqual([
      `ToolError: asking.ask_name failed: ${refused("asking.ask_name", "elicitation")}`,
      `ToolError: asking.summarize failed: ${refused("asking.summarize", "sampling")}`,
      // a 2025 server gets the refusal as the error of its request, and fails its call with it
      // (the refusal names the tool as the server does)
      `ToolError: everything.trigger_elicitation_request failed: MCP error -32603: ${refused("everything.trigger-elicitation-request", "elicitation")}`,
    ]);
  });

  it("a 2025 upstream (server-everything) elicits and samples through the client that sent the program", async () => {
    const { client, asked } = fresh(capable);
    const result = await client.callTool({
      name: "run_program",
      arguments: {
        program: `const form = await everything.trigger_elicitation_request();
const sampled = await everything.trigger_sampling_request({ prompt: "Say hi", maxTokens: 10 });
return { form, sampled };`,
      },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const value = JSON.parse(textOf(result));
    expect(JSON.stringify(value.form)).toContain("decline");
    expect(JSON.stringify(value.sampled)).toContain("short");
    expect(asked.elicit).toStrictEqual(["Please provide inputs for the following fields:"]);
    expect(asked.sample).toStrictEqual(["Resource trigger-sampling-request context: Say hi"]);
  });

  it("a 2025 upstream's task-only tool (server-everything's research query) is followed to its result", async () => {
    const { client } = fresh(capable);
    const result = await client.callTool({
      name: "run_program",
      arguments: {
        program: `const report = await everything.simulate_research_query({ topic: "tides" });
return JSON.stringify(report);`,
      },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(JSON.parse(textOf(result))).toContain("tides");
  });

  it("cancelling the program's call cancels the upstream call", async () => {
    const { client } = fresh(capable);
    const abort = new AbortController();
    const waiting = client.callTool(
      { name: "run_program", arguments: { program: "return await asking.wait_for_cancel();" } },
      { signal: abort.signal, onprogress: () => abort.abort() },
    );
    await expect(waiting).rejects.toThrow();
    // answers once the upstream saw its call cancelled (it waits for that, however long it takes)
    const count = await client.callTool({
      name: "run_program",
      arguments: { program: "return await asking.cancelled_count();" },
    });
    expect(JSON.parse(textOf(count))).toBe("1");
  });
});

// a user's project whose tool runs only as a task, built by the CLI and served by `mcp-gen serve`
const JOBS = `/**
 * Adds two numbers, as a task only.
 * @readOnly
 * @task required
 */
export async function slow_sum(a: number, b: number): Promise<number> {
  return a + b;
}
`;

describe.each([
  "legacy",
  "2026-07-28",
] as const)("serve --code --mcp follows a task-only tool of an mcp-gen server (%s client)", (era) => {
  let project: string;
  beforeAll(() => {
    project = tempProject({
      "package.json": JSON.stringify({ type: "module" }),
      "mcp-gen.config.json": JSON.stringify({ servers: { jobs: { tools: ["src/jobs.ts"] } } }),
      "src/jobs.ts": JOBS,
    });
    execFileSync(process.execPath, [BIN, "build"], { cwd: project, stdio: "pipe" });
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it("calls it as a task and returns the task's result", async () => {
    const config = path.join(project, "mcp-gen.config.json");
    const { client } = await start({
      era,
      capable: true,
      mcp: [`jobs=${process.execPath} ${BIN} serve jobs --config ${config}`],
    });
    const result = await client.callTool({
      name: "run_program",
      arguments: { program: "return await jobs.slow_sum({ a: 2, b: 3 });" },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(JSON.parse(textOf(result))).toBe(5);
  });
});
