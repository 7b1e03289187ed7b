import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { moduleTrace } from "../../../codegen/test/consumer/trace.ts";

const here = path.dirname(new URL(import.meta.url).pathname);
const dir = path.join(here, "fixtures", ".tmp", "lazy-load");

/**
 * A server run by plain node from the compiled packages, with a manifest of one tool (and,
 * with `prompts`, one prompt), answering one call from an SDK client over linked in-memory
 * transports: the runtime modules it resolved, relative to the runtime's `dist/` (the schema
 * package's as `@mcp-gen/schema/<path in dist>`), and Node's built-ins (`node:…`).
 */
async function loadedBy(name: string, manifestExtra: string, usesContext = false): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const script = path.join(dir, `${name}.mjs`);
  writeFileSync(
    script,
    `import { createServer } from "@mcp-gen/runtime/server";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { Client } from "@modelcontextprotocol/client";
const ok = { ok: true };
const manifest = {
  server: "lazy",
  tools: [{
    definition: { name: "add", inputSchema: { type: "object" } },
    input: { check: () => ok, is: () => true },
    resultWrapped: false,
    usesContext: ${usesContext},
    invoke: () => "3",
  }],
  ${manifestExtra}
};
const server = createServer(manifest);
const [a, b] = InMemoryTransport.createLinkedPair();
await server.connect(a);
const client = new Client({ name: "c", version: "1" }, { versionNegotiation: { mode: "legacy" } });
await client.connect(b);
const result = await client.callTool({ name: "add", arguments: {} });
if (result.content[0].text !== "3") throw new Error("unexpected result " + JSON.stringify(result));
await client.close();
await server.close();
`,
  );
  const trace = moduleTrace(dir, name);
  await promisify(execFile)(process.execPath, [...trace.args, script], { cwd: dir });
  const dist = `${path.resolve(here, "../../dist")}/`;
  const schemaDist = `${path.resolve(here, "../../../schema/dist")}/`;
  return [
    ...new Set(
      trace
        .resolved()
        .flatMap((url) => (url.startsWith("node:") ? [url] : [new URL(url).pathname]))
        .flatMap((p) =>
          p.startsWith("node:")
            ? [p]
            : p.startsWith(dist)
              ? [p.slice(dist.length)]
              : p.startsWith(schemaDist)
                ? [`@mcp-gen/schema/${p.slice(schemaDist.length)}`]
                : [],
        ),
    ),
  ];
}

/** What serves tools that take a context: contexts, and the input machinery of both eras. */
const CONTEXT = [
  "server/context-support.js",
  "server/tool-context.js",
  "server/principal.js",
  "server/input/channel.js",
  "server/input/request-channel.js",
  "server/parked.js",
  "server/parked-store.js",
  "server/input/round-channel.js",
  "server/input/sealed-rounds.js",
];

const OPTIONAL = [
  ...CONTEXT,
  "server/task-store.js",
  "server/memory-tasks.js",
  "server/task-records.js",
  "server/http/body.js",
  "server/http/guard.js",
  "server/http/options.js",
  "server/tasks.js",
  "server/task-requests.js",
  "server/input/task-channels.js",
  "server/resource-catalog.js",
  "@mcp-gen/schema/uri-template/index.js",
  "server/resources.js",
  "server/prompts.js",
  "server/completions.js",
  "server/scoped-listing.js",
  "server/coerce.js",
];

describe("a server loads what its manifest uses", () => {
  it("serves a one-tool manifest without the modules of tasks, resources, prompts, completions, contexts and HTTP", async () => {
    const loaded = await loadedBy("one-tool", "");
    expect(loaded).toContain("server/execute.js");
    expect(OPTIONAL.filter((m) => loaded.includes(m))).toStrictEqual([]);
    // a connection's id comes from Web Crypto's global when first needed (node:crypto costs 2–5 ms to load)
    expect(loaded.filter((m) => m.startsWith("node:"))).toStrictEqual(["node:process"]);
  });

  it("loads the prompts module when the manifest has a prompt", async () => {
    const prompt = `prompts: [{ definition: { name: "p" }, input: { check: () => ok, is: () => true }, usesContext: false, get: () => "hi" }],`;
    const loaded = await loadedBy("with-prompt", prompt);
    expect(OPTIONAL.filter((m) => loaded.includes(m))).toStrictEqual([
      "server/prompts.js",
      "server/coerce.js",
    ]);
  });

  it("loads the resource catalog and the URI template matcher when the manifest has a resource template", async () => {
    const template = `resourceTemplates: [{ definition: { name: "t", uriTemplate: "notes://{id}" }, variables: { check: () => ok, is: () => true }, usesContext: false, read: () => "x" }],`;
    const loaded = await loadedBy("with-template", template);
    expect(OPTIONAL.filter((m) => loaded.includes(m))).toStrictEqual([
      "server/resource-catalog.js",
      "@mcp-gen/schema/uri-template/index.js",
      "server/resources.js",
      "server/coerce.js",
    ]);
  });

  it("loads the modules of contexts and input rounds when a tool takes a context", async () => {
    const loaded = await loadedBy("with-context", "", true);
    expect(OPTIONAL.filter((m) => loaded.includes(m))).toStrictEqual(CONTEXT);
  });
});
