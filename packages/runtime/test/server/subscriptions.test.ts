import { createServer } from "@mcp-gen/runtime/server";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as InMemoryTransportV1 } from "@modelcontextprotocol/sdk/inMemory.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { catalogManifest } from "./fixtures/catalog/manifest.ts";
import { connectCatalog, errorOf } from "./support/catalog.ts";

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

/** Records the notifications of `methods` a client receives; `next(n)` resolves once `n` have come. */
function recorder(client: Client, methods: string[]) {
  const seen: { method: string; params: unknown }[] = [];
  const waiting: { count: number; resolve(): void }[] = [];
  for (const method of methods) {
    client.setNotificationHandler(method as "notifications/resources/updated", (notification) => {
      const { _meta, ...params } = (notification.params ?? {}) as Record<string, unknown>;
      seen.push({ method, params });
      for (const w of waiting.splice(0)) {
        if (seen.length >= w.count) w.resolve();
        else waiting.push(w);
      }
    });
  }
  return {
    seen,
    next: (count: number) =>
      new Promise<void>((resolve) => {
        if (seen.length >= count) resolve();
        else waiting.push({ count, resolve });
      }),
  };
}

describe("resources/subscribe (2025 clients)", () => {
  it("sends notifications/resources/updated for subscribed URIs only, until unsubscribed", async () => {
    const { client, running } = await connectCatalog("legacy", open);
    const updates = recorder(client, ["notifications/resources/updated"]);
    expect(await client.subscribeResource({ uri: "test://static-text" })).toStrictEqual({});
    expect(await client.subscribeResource({ uri: "users://7/posts" })).toStrictEqual({});
    running.notifyResourceUpdated("test://settings"); // nobody subscribed
    running.notifyResourceUpdated("test://static-text");
    await updates.next(1);
    expect(await client.unsubscribeResource({ uri: "test://static-text" })).toStrictEqual({});
    running.notifyResourceUpdated("test://static-text"); // no longer subscribed
    running.notifyResourceUpdated("users://7/posts");
    await updates.next(2);
    expect(updates.seen).toStrictEqual([
      { method: "notifications/resources/updated", params: { uri: "test://static-text" } },
      { method: "notifications/resources/updated", params: { uri: "users://7/posts" } },
    ]);
  });

  it("is told by tools through ctx.notifyResourceUpdated", async () => {
    const { client } = await connectCatalog("legacy", open);
    const updates = recorder(client, ["notifications/resources/updated"]);
    await client.subscribeResource({ uri: "test://settings" });
    const result = await client.callTool({ name: "touch", arguments: { uri: "test://settings" } });
    expect(result.content).toStrictEqual([{ type: "text", text: "touched test://settings" }]);
    await updates.next(1);
    expect(updates.seen).toStrictEqual([
      { method: "notifications/resources/updated", params: { uri: "test://settings" } },
    ]);
  });

  it("tells each connection of a server about its own subscriptions", async () => {
    const server = createServer(catalogManifest(), { onError: () => {} });
    open.push(server);
    const connect = async () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      const client = new Client({ name: "many", version: "1" }, { versionNegotiation: { mode: "legacy" } });
      await client.connect(clientSide);
      open.push(client);
      return client;
    };
    const [first, second] = [await connect(), await connect()];
    const firstUpdates = recorder(first, ["notifications/resources/updated"]);
    const secondUpdates = recorder(second, ["notifications/resources/updated"]);
    await first.subscribeResource({ uri: "test://a" });
    await second.subscribeResource({ uri: "test://b" });
    server.notifyResourceUpdated("test://a");
    server.notifyResourceUpdated("test://b");
    await Promise.all([firstUpdates.next(1), secondUpdates.next(1)]);
    // A later notification for the second URI reaches the second client only.
    server.notifyResourceUpdated("test://b");
    await secondUpdates.next(2);
    expect(firstUpdates.seen).toStrictEqual([
      { method: "notifications/resources/updated", params: { uri: "test://a" } },
    ]);
    expect(secondUpdates.seen.map((s) => s.params)).toStrictEqual([{ uri: "test://b" }, { uri: "test://b" }]);
  });

  it("serves the SDK v1 client", async () => {
    const [clientSide, serverSide] = InMemoryTransportV1.createLinkedPair();
    const server = createServer(catalogManifest(), { onError: () => {} });
    open.push(server);
    await server.connect(serverSide as never);
    const client = new ClientV1({ name: "v1", version: "1" });
    let updated!: (uri: string) => void;
    const arrived = new Promise<string>((resolve) => {
      updated = resolve;
    });
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => updated(n.params.uri));
    await client.connect(clientSide);
    open.push(client);
    expect(client.getServerCapabilities()?.resources).toStrictEqual({ subscribe: true });
    await client.subscribeResource({ uri: "test://static-text" });
    server.notifyResourceUpdated("test://static-text");
    expect(await arrived).toBe("test://static-text");
    expect((await client.readResource({ uri: "test://static-text" })).contents).toStrictEqual([
      {
        uri: "test://static-text",
        mimeType: "text/plain",
        text: "This is the content of the static text resource.",
      },
    ]);
    expect(
      (await client.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: "a", arg2: "b" } }))
        .messages,
    ).toStrictEqual([
      { role: "user", content: { type: "text", text: "Prompt with arguments: arg1='a', arg2='b'" } },
    ]);
    expect(
      (
        await client.complete({
          ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
          argument: { name: "arg1", value: "pa" },
        })
      ).completion,
    ).toStrictEqual({ values: ["paris", "park", "party"], total: 3, hasMore: false });
  });
});

describe("resource updates for 2026-07-28 clients (subscriptions/listen)", () => {
  it("delivers updates of the URIs the client listens for, from the server and from tools", async () => {
    const { client, running } = await connectCatalog("2026-07-28", open);
    const updates = recorder(client, ["notifications/resources/updated"]);
    const subscription = await client.listen({
      resourceSubscriptions: ["test://static-text", "test://settings"],
    });
    open.push(subscription);
    expect(subscription.honoredFilter).toStrictEqual({
      resourceSubscriptions: ["test://static-text", "test://settings"],
    });
    running.notifyResourceUpdated("test://csv"); // not listened for
    running.notifyResourceUpdated("test://static-text");
    await updates.next(1);
    await client.callTool({ name: "touch", arguments: { uri: "test://settings" } });
    await updates.next(2);
    expect(updates.seen).toStrictEqual([
      { method: "notifications/resources/updated", params: { uri: "test://static-text" } },
      { method: "notifications/resources/updated", params: { uri: "test://settings" } },
    ]);
  });
});

describe("update(manifest) announces changed resource and prompt lists", () => {
  const full = catalogManifest();
  const fewer = catalogManifest({
    resources: full.resources!.slice(0, 1),
    prompts: full.prompts!.slice(0, 2),
  });
  const LISTS = [
    "notifications/tools/list_changed",
    "notifications/resources/list_changed",
    "notifications/prompts/list_changed",
  ];

  it("tells a 2025 client, which then lists the new resources and prompts", async () => {
    const { client, running } = await connectCatalog("legacy", open, { listChanged: true });
    const changes = recorder(client, LISTS);
    running.update(fewer);
    await changes.next(3);
    expect(changes.seen.map((c) => c.method).sort()).toStrictEqual([...LISTS].sort());
    expect((await client.request({ method: "resources/list", params: {} })).resources).toStrictEqual([
      full.resources![0]!.definition,
    ]);
    expect(
      (await client.request({ method: "prompts/list", params: {} })).prompts.map((p) => p.name),
    ).toStrictEqual(["test_simple_prompt", "test_prompt_with_arguments"]);
    expect(await errorOf(client.readResource({ uri: "test://settings" }))).toMatchObject({ code: -32602 });
  });

  it("tells only about the lists that changed", async () => {
    const { client, running } = await connectCatalog("legacy", open, { listChanged: true });
    const changes = recorder(client, LISTS);
    running.update(catalogManifest({ prompts: full.prompts!.slice(1) }));
    await changes.next(2);
    running.update(catalogManifest({ prompts: full.prompts!.slice(1) }));
    await changes.next(3);
    expect(changes.seen.map((c) => c.method)).toStrictEqual([
      "notifications/tools/list_changed",
      "notifications/prompts/list_changed",
      "notifications/tools/list_changed",
    ]);
  });

  it("tells a 2026-07-28 client listening for list changes", async () => {
    const { client, running } = await connectCatalog("2026-07-28", open, { listChanged: true });
    const changes = recorder(client, LISTS);
    const subscription = await client.listen({ resourcesListChanged: true, promptsListChanged: true });
    open.push(subscription);
    running.update(fewer);
    await changes.next(2);
    expect(changes.seen.map((c) => c.method).sort()).toStrictEqual([
      "notifications/prompts/list_changed",
      "notifications/resources/list_changed",
    ]);
    expect((await client.request({ method: "prompts/list", params: {} })).prompts).toHaveLength(2);
  });
});
