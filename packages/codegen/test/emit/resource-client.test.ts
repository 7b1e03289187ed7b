import { ValidationError } from "@mcp-gen/runtime/validation";
import { describe, expect, it } from "vitest";
import { createPromptsClient } from "../fixtures/contracts/expected/ts-prompts/client.ts";
import { createResourcesClient } from "../fixtures/contracts/expected/ts-resources/client.ts";

/** The golden typed clients of the `resources` and `prompts` fixtures over a fake SDK client. */
function fakeClient() {
  const requests: unknown[] = [];
  return {
    requests,
    async callTool(params: unknown) {
      requests.push(params);
      return { content: [] };
    },
    async readResource({ uri }: { uri: string }) {
      requests.push(uri);
      if (uri === "home://plan.png") return { contents: [{ uri, blob: "AQID" }] };
      if (uri === "home://rooms") return { contents: [{ uri, text: '[{"name":"hall","lamps":1}]' }] };
      if (uri.startsWith("home://rooms/"))
        return { contents: [{ uri, text: '{"room":"hall","index":2,"dimmed":true}' }] };
      return { contents: [{ uri, text: `# ${uri}` }] };
    },
    async getPrompt(params: unknown) {
      requests.push(params);
      return { messages: [{ role: "user", content: { type: "text", text: "ok" } }] };
    },
  };
}

describe("generated typed client: resources and prompts", () => {
  it("reads static resources and templates as typed values", async () => {
    const fake = fakeClient();
    const home = createResourcesClient(fake);
    expect(await home.resources.houseRules()).toBe("# home://rules");
    expect(await home.resources.floorPlan()).toStrictEqual(new Uint8Array([1, 2, 3]));
    const rooms = await home.resources.rooms();
    expect(rooms[0]?.lamps).toBe(1);
    const lamp = await home.resources.lamp({ room: "hall", index: 2, dimmed: true });
    expect(lamp).toStrictEqual({ room: "hall", index: 2, dimmed: true });
    expect(await home.resources.note({ name: "to do" })).toBe("# home://notes/to%20do");
    expect(fake.requests).toStrictEqual([
      "home://rules",
      "home://plan.png",
      "home://rooms",
      "home://rooms/hall/lamps/2?dimmed=true",
      "home://notes/to%20do",
    ]);
  });

  it("validates template variables before reading", async () => {
    const fake = fakeClient();
    const home = createResourcesClient(fake);
    // @ts-expect-error: "attic" is not a room
    await expect(home.resources.lamp({ room: "attic", index: 1 })).rejects.toBeInstanceOf(ValidationError);
    expect(fake.requests).toStrictEqual([]);
  });

  it("gets prompts with typed arguments sent as strings", async () => {
    const fake = fakeClient();
    const prompts = createPromptsClient(fake);
    const messages = await prompts.prompts.reviewCode({ code: "x", max_comments: 3, verbose: true });
    expect(messages).toStrictEqual([{ role: "user", content: { type: "text", text: "ok" } }]);
    expect(fake.requests).toStrictEqual([
      { name: "review_code", arguments: { code: "x", max_comments: "3", verbose: "true" } },
    ]);
    await expect(prompts.prompts.reviewCode({ code: "x", max_comments: 2.5 })).rejects.toThrow(
      "/max_comments: expected an integer",
    );
  });
});
