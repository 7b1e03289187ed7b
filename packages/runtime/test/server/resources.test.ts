import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { catalogManifest, ran } from "./fixtures/catalog/manifest.ts";
import { CATALOG_INFO, cacheable, connectCatalog, ERAS, errorOf } from "./support/catalog.ts";

const open: { close(): Promise<void> }[] = [];
beforeEach(() => {
  ran.length = 0;
});
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

const manifest = catalogManifest();
const RESOURCES = manifest.resources!.map((r) => r.definition);
const TEMPLATES = manifest.resourceTemplates!.map((t) => t.definition);
const PROMPTS = manifest.prompts!.map((p) => p.definition);

describe.each(ERAS)("resources and prompts for a %s client (in memory)", (era) => {
  it("advertises resources (with subscribe), prompts and completions, and the server's title and icons", async () => {
    const { client } = await connectCatalog(era, open);
    expect(client.getServerCapabilities()).toStrictEqual({
      tools: {},
      logging: {},
      resources: { subscribe: true },
      prompts: {},
      completions: {},
    });
    expect(client.getServerVersion()).toStrictEqual(CATALOG_INFO);
  });

  it("advertises listChanged with the option", async () => {
    const { client } = await connectCatalog(era, open, { listChanged: true });
    expect(client.getServerCapabilities()).toStrictEqual({
      tools: { listChanged: true },
      logging: {},
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
    });
  });

  it("lists resources, templates and prompts in manifest order", async () => {
    const { client } = await connectCatalog(era, open);
    expect(await client.request({ method: "resources/list", params: {} })).toStrictEqual(
      cacheable(era, { resources: RESOURCES }),
    );
    expect(await client.request({ method: "resources/templates/list", params: {} })).toStrictEqual(
      cacheable(era, { resourceTemplates: TEMPLATES }),
    );
    expect(await client.request({ method: "prompts/list", params: {} })).toStrictEqual(
      cacheable(era, { prompts: PROMPTS }),
    );
  });

  it("reads a static text resource with its MIME type", async () => {
    const { client } = await connectCatalog(era, open);
    expect(await client.readResource({ uri: "test://static-text" })).toStrictEqual(
      cacheable(era, {
        contents: [
          {
            uri: "test://static-text",
            mimeType: "text/plain",
            text: "This is the content of the static text resource.",
          },
        ],
      }),
    );
  });

  it("reads bytes as a base64 blob, JSON values as application/json text unless the definition says otherwise", async () => {
    const { client } = await connectCatalog(era, open);
    expect((await client.readResource({ uri: "test://static-binary" })).contents).toStrictEqual([
      { uri: "test://static-binary", mimeType: "image/png", blob: "iVBORw0KGgo=" },
    ]);
    expect((await client.readResource({ uri: "test://settings" })).contents).toStrictEqual([
      { uri: "test://settings", mimeType: "application/json", text: '{"theme":"dark","size":3}' },
    ]);
    expect((await client.readResource({ uri: "test://csv" })).contents).toStrictEqual([
      { uri: "test://csv", mimeType: "text/csv", text: '[["a",1],["b",2]]' },
    ]);
  });

  it("reads a template's resource with the variables of the URI", async () => {
    const { client } = await connectCatalog(era, open);
    expect((await client.readResource({ uri: "test://template/123/data" })).contents).toStrictEqual([
      {
        uri: "test://template/123/data",
        mimeType: "application/json",
        text: '{"id":"123","templateTest":true,"data":"Data for ID: 123"}',
      },
    ]);
    expect(ran).toStrictEqual(["template_data 123"]);
  });

  it("coerces template variables to the declared types (query ones optional)", async () => {
    const { client } = await connectCatalog(era, open);
    const read = async (uri: string) => (await client.readResource({ uri })).contents;
    expect(await read("users://7/posts?draft=true&limit=3")).toStrictEqual([
      {
        uri: "users://7/posts?draft=true&limit=3",
        mimeType: "text/plain",
        text: "user 7: 3 posts with drafts",
      },
    ]);
    expect(await read("users://7/posts")).toStrictEqual([
      { uri: "users://7/posts", mimeType: "text/plain", text: "user 7: 10 posts" },
    ]);
    expect(ran).toStrictEqual(['user_posts {"id":7,"draft":true,"limit":3}', 'user_posts {"id":7}']);
  });

  it("prefers the static resource of an exact URI to a template that matches it", async () => {
    const { client } = await connectCatalog(era, open);
    expect((await client.readResource({ uri: "users://0/posts" })).contents).toStrictEqual([
      { uri: "users://0/posts", text: "nobody" },
    ]);
  });

  it("refuses variables that do not convert or do not validate (-32602), and never runs the read", async () => {
    const { client } = await connectCatalog(era, open);
    expect(await errorOf(client.readResource({ uri: "users://1.5/posts?draft=yes" }))).toStrictEqual({
      code: -32602,
      message:
        'Invalid variables of resource template "user_posts": 2 problems\n' +
        '- /id: expected an integer, received string "1.5"\n' +
        '- /draft: expected "true" or "false", received string "yes"',
      data: { uri: "users://1.5/posts?draft=yes" },
    });
    expect(await errorOf(client.readResource({ uri: "users://7/posts?limit=%20" }))).toStrictEqual({
      code: -32602,
      message:
        'Invalid variables of resource template "user_posts": 1 problem\n- /limit: expected an integer, received string " "',
      data: { uri: "users://7/posts?limit=%20" },
    });
    const invalid = await errorOf(client.readResource({ uri: "users://0x10/posts?limit=99" }));
    expect(invalid.code).toBe(-32602);
    expect(invalid.message).toMatch(
      /^Invalid variables of resource template "user_posts": 1 problem\n- \/limit: /,
    );
    expect(ran).toStrictEqual([]);
  });

  it("answers an unknown URI with -32602 and the URI in data (SEP-2164)", async () => {
    const { client } = await connectCatalog(era, open);
    const uri = "test://nonexistent-resource-for-conformance-testing";
    expect(await errorOf(client.readResource({ uri }))).toStrictEqual({
      code: -32602,
      message: `Resource not found: ${uri}`,
      data: { uri },
    });
  });

  it("refuses a read without a string uri (-32602)", async () => {
    const { client } = await connectCatalog(era, open);
    expect(
      await errorOf(client.request({ method: "resources/read", params: { uri: 7 } } as never)),
    ).toMatchObject({
      code: -32602,
    });
  });

  it("hands a context to reads that declare one", async () => {
    const { client } = await connectCatalog(era, open);
    const modernOrLegacy = era === "legacy" ? "legacy" : "modern";
    expect((await client.readResource({ uri: "test://whoami" })).contents).toStrictEqual([
      { uri: "test://whoami", text: `resource:whoami:test://whoami:${modernOrLegacy}` },
    ]);
    expect((await client.readResource({ uri: "files://a/b.txt" })).contents).toStrictEqual([
      { uri: "files://a/b.txt", text: `a/b.txt (resource:file:files://a/b.txt:${modernOrLegacy})` },
    ]);
  });

  it("lets a read ask the user (2025: a request to the client; 2026-07-28: input_required, then the retry)", async () => {
    const { client } = await connectCatalog(era, open, {
      elicit: (message) => ({ context: `blue (${message})` }),
    });
    expect((await client.readResource({ uri: "test://ask" })).contents).toStrictEqual([
      { uri: "test://ask", mimeType: "text/plain", text: "colour: blue (Which colour?)" },
    ]);
  });

  it("answers a throwing read with -32603: the ToolError's message, or the error's (logged)", async () => {
    const { client, events } = await connectCatalog(era, open);
    expect(await errorOf(client.readResource({ uri: "test://refused" }))).toStrictEqual({
      code: -32603,
      message: "not today",
    });
    expect(await errorOf(client.readResource({ uri: "test://broken" }))).toStrictEqual({
      code: -32603,
      message: "disk on fire",
    });
    expect(events).toStrictEqual([
      {
        kind: "tool-error",
        tool: "broken",
        source: "resource",
        error: new Error("disk on fire"),
        masked: false,
      },
    ]);
  });

  it("masks unexpected errors with maskErrors, never a ToolError", async () => {
    const { client, events } = await connectCatalog(era, open, { maskErrors: true });
    expect(await errorOf(client.readResource({ uri: "test://broken" }))).toStrictEqual({
      code: -32603,
      message: 'Resource "broken" failed with an internal error.',
    });
    expect(await errorOf(client.readResource({ uri: "test://refused" }))).toStrictEqual({
      code: -32603,
      message: "not today",
    });
    expect(events).toStrictEqual([
      {
        kind: "tool-error",
        tool: "broken",
        source: "resource",
        error: new Error("disk on fire"),
        masked: true,
      },
    ]);
  });

  it("reports a read that returns nothing as a server bug (-32603)", async () => {
    const { client, events } = await connectCatalog(era, open);
    expect(await errorOf(client.readResource({ uri: "test://nothing" }))).toStrictEqual({
      code: -32603,
      message: 'Resource "nothing" produced an invalid result (a server bug; it was logged).',
    });
    expect(events).toStrictEqual([
      {
        kind: "invalid-result",
        tool: "nothing",
        source: "resource",
        message: "the resource returned nothing (undefined)",
        value: undefined,
      },
    ]);
  });
});

describe.each(ERAS)("a server without resources or prompts, for a %s client", (era) => {
  it("advertises neither and answers their methods with -32601", async () => {
    const { client } = await connectCatalog(era, open, {
      manifest: catalogManifest({ resources: [], resourceTemplates: [], prompts: [] }),
    });
    expect(client.getServerCapabilities()).toStrictEqual({ tools: {}, logging: {} });
    for (const method of ["resources/list", "resources/templates/list", "prompts/list"] as const) {
      expect(await errorOf(client.request({ method, params: {} }))).toStrictEqual({
        code: -32601,
        message: "Method not found",
      });
    }
    expect(
      await errorOf(
        client.request({
          method: "completion/complete",
          params: { ref: { type: "ref/prompt", name: "x" }, argument: { name: "a", value: "" } },
        }),
      ),
    ).toStrictEqual({ code: -32601, message: "Method not found" });
  });

  it("advertises resources without completions when no variable has a completer", async () => {
    const full = catalogManifest();
    const { client } = await connectCatalog(era, open, {
      manifest: catalogManifest({ resourceTemplates: [full.resourceTemplates![0]!], prompts: [] }),
    });
    expect(client.getServerCapabilities()).toStrictEqual({
      tools: {},
      logging: {},
      resources: { subscribe: true },
    });
  });
});

describe("list cache hints (2026-07-28)", () => {
  it("carries the listCache option on every list, as tools/list does; 2025 lists carry none", async () => {
    const listCache = { ttlMs: 60_000, scope: "public" as const };
    const modern = await connectCatalog("2026-07-28", open, { listCache });
    const legacy = await connectCatalog("legacy", open, { listCache });
    const hints = { ttlMs: 60_000, cacheScope: "public" };
    for (const method of [
      "tools/list",
      "resources/list",
      "resources/templates/list",
      "prompts/list",
    ] as const) {
      const page = (await modern.client.request({ method, params: {} })) as Record<string, unknown>;
      expect([method, page.ttlMs, page.cacheScope]).toStrictEqual([method, hints.ttlMs, hints.cacheScope]);
      const old = (await legacy.client.request({ method, params: {} })) as Record<string, unknown>;
      expect([method, old.ttlMs, old.cacheScope]).toStrictEqual([method, undefined, undefined]);
    }
    // A read is not a list: it keeps the protocol's default (not cacheable).
    expect(await modern.client.readResource({ uri: "test://static-text" })).toStrictEqual(
      cacheable("2026-07-28", {
        contents: [
          {
            uri: "test://static-text",
            mimeType: "text/plain",
            text: "This is the content of the static text resource.",
          },
        ],
      }),
    );
  });
});

describe("a malformed resource template in a hand-written manifest", () => {
  it("is reported when the server is built, and the requests that need it answer with its error", async () => {
    const base = catalogManifest();
    const [first, ...rest] = base.resourceTemplates!;
    const manifest = {
      ...base,
      resourceTemplates: [
        { ...first!, definition: { ...first!.definition, uriTemplate: "test://template/{id" } },
        ...rest,
      ],
    };
    const { client, events } = await connectCatalog("legacy", open, { manifest });
    const message = `mcp-gen: the URI template "test://template/{id" has a '{' without its '}' (the expression at 17 is not closed)`;
    expect(await errorOf(client.readResource({ uri: "test://template/1/data" }))).toMatchObject({ message });
    expect(events.map((e) => (e.kind === "protocol" ? e.error.message : e.kind))).toStrictEqual([message]);
  });
});
