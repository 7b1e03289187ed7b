import type { ServerContext } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import type { CallRecord } from "../../src/server/call-log.ts";
import { observed } from "../../src/server/call-observer.ts";
import { catalogOf, unwrapSchema } from "../../src/server/catalog.ts";
import { loadFeatures } from "../../src/server/features.ts";
import type { ServerManifest } from "../../src/server/manifest.ts";
import { naturalTree, wrappedTree } from "./fixtures/wrapped-tree.ts";

const ok = { ok: true as const };
const tool = {
  definition: { name: "add", inputSchema: { type: "object" as const } },
  input: { check: () => ok, is: () => true },
  resultWrapped: false,
  usesContext: false,
  invoke: () => 3,
};
const plain: ServerManifest = { server: "s", tools: [tool] } as unknown as ServerManifest;
const withTasks = {
  server: "s",
  tools: [{ ...tool, definition: { ...tool.definition, execution: { taskSupport: "optional" } } }],
  prompts: [{ definition: { name: "p" }, input: tool.input, usesContext: true, get: () => "hi" }],
} as unknown as ServerManifest;

/** The parts of a request the call log reads. */
const request = { mcpReq: { id: 7 }, sessionId: "s1" } as unknown as ServerContext;

describe("the server factory's parts", () => {
  it("loadFeatures loads nothing beyond tools for a plain manifest", async () => {
    const features = await loadFeatures({
      catalog: catalogOf(plain, {}),
      manifest: plain,
      filterToolsByScope: false,
      tasks: undefined,
    });
    expect(features).toStrictEqual({});
  });

  it("loadFeatures loads what a manifest uses, and keeps the task service across updates", async () => {
    const catalog = catalogOf(withTasks, {});
    expect(catalog.uses).toStrictEqual({
      resources: false,
      prompts: true,
      completions: false,
      tasks: true,
      context: true,
    });
    const first = await loadFeatures({
      catalog,
      manifest: withTasks,
      filterToolsByScope: true,
      tasks: undefined,
    });
    expect(Object.keys(first).sort()).toStrictEqual(["context", "getPrompt", "scopedListing", "tasks"]);
    const next = await loadFeatures({
      catalog,
      manifest: withTasks,
      filterToolsByScope: false,
      tasks: undefined,
      previous: first,
    });
    expect(next.tasks).toBe(first.tasks);
  });

  it("loadFeatures compiles the resource templates of a manifest with resources, and fails on a malformed one", async () => {
    const template = (uriTemplate: string) =>
      ({
        server: "s",
        tools: [tool],
        resourceTemplates: [
          {
            definition: { name: "t", uriTemplate },
            variables: tool.input,
            usesContext: false,
            read: () => "x",
          },
        ],
      }) as unknown as ServerManifest;
    const good = template("notes://{id}");
    const features = await loadFeatures({
      catalog: catalogOf(good, {}),
      manifest: good,
      filterToolsByScope: false,
      tasks: undefined,
    });
    expect(features.resources?.templates[0]?.matcher.match("notes://7")).toStrictEqual({ id: "7" });
    expect([...(features.resources?.byTemplate.keys() ?? [])]).toStrictEqual(["notes://{id}"]);
    const bad = template("notes://{id");
    await expect(
      loadFeatures({
        catalog: catalogOf(bad, {}),
        manifest: bad,
        filterToolsByScope: false,
        tasks: undefined,
      }),
    ).rejects.toThrow(`mcp-gen: the URI template "notes://{id" has a '{' without its '}'`);
  });

  it("catalogOf builds each tool's target once", () => {
    const catalog = catalogOf(plain, {});
    expect(catalog.targets.get("add")?.key).toBe("tool:add");
    expect(catalog.targets.get("add")).toBe(catalog.targets.get("add"));
  });

  it("observed records a call with its outcome, and a failed one as a protocol error", async () => {
    const records: CallRecord[] = [];
    const options = { onCall: (r: CallRecord) => void records.push(r) };
    const params = { name: "add", arguments: { a: 1 } };
    const call = { kind: "prompt" as const, params, ctx: request, era: "legacy" as const };
    await observed(options, { ...call, run: async () => ({ content: [], isError: true }) });
    await expect(observed(options, { ...call, run: () => Promise.reject(new Error("no")) })).rejects.toThrow(
      "no",
    );
    expect(records.map(({ time, durationMs, ...rest }) => rest)).toStrictEqual([
      { kind: "prompt", name: "add", outcome: "tool-error", era: "2025", session: "s1", requestId: 7 },
      { kind: "prompt", name: "add", outcome: "protocol-error", era: "2025", session: "s1", requestId: 7 },
    ]);
  });
});

describe("unwrapSchema: a wrapped output schema for 2026-07-28 clients", () => {
  it("points references into the wrapper's result at the new root, as the SDK's 2025 wrap wrote them", () => {
    expect(unwrapSchema(wrappedTree)).toStrictEqual(naturalTree);
  });

  it("keeps the wrapper's own definitions and a subtree with its own $id as they are", () => {
    const inner = { $id: "https://x.test/s", items: { $ref: "#/properties/result/x" } };
    const wrapped = {
      type: "object",
      properties: { result: { type: "array", items: { $ref: "#/$defs/A" }, $defs: { B: inner } } },
      $defs: { A: { type: "string" } },
    };
    expect(unwrapSchema(wrapped)).toStrictEqual({
      type: "array",
      items: { $ref: "#/$defs/A" },
      $defs: { A: { type: "string" }, B: inner },
    });
  });
});
