import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FILES, ran } from "./fixtures/catalog/manifest.ts";
import { connectCatalog, ERAS, errorOf, shaped } from "./support/catalog.ts";

const open: { close(): Promise<void> }[] = [];
beforeEach(() => {
  ran.length = 0;
});
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

describe.each(ERAS)("prompts/get for a %s client (in memory)", (era) => {
  it("turns a string into one user message, with the definition's description", async () => {
    const { client } = await connectCatalog(era, open);
    expect(await client.getPrompt({ name: "test_simple_prompt" })).toStrictEqual(
      shaped(era, {
        description: "A prompt without arguments.",
        messages: [{ role: "user", content: { type: "text", text: "This is a simple prompt for testing." } }],
      }),
    );
  });

  it("passes the arguments", async () => {
    const { client } = await connectCatalog(era, open);
    expect(
      await client.getPrompt({
        name: "test_prompt_with_arguments",
        arguments: { arg1: "hello", arg2: "world" },
      }),
    ).toStrictEqual(
      shaped(era, {
        description: "A prompt with two arguments.",
        messages: [
          {
            role: "user",
            content: { type: "text", text: "Prompt with arguments: arg1='hello', arg2='world'" },
          },
        ],
      }),
    );
  });

  it("sends a list of messages as given, arguments coerced to their types", async () => {
    const { client } = await connectCatalog(era, open);
    expect(await client.getPrompt({ name: "repeat", arguments: { word: "ab", times: "3" } })).toStrictEqual(
      shaped(era, {
        messages: [
          { role: "user", content: { type: "text", text: "ababab" } },
          { role: "assistant", content: { type: "image", data: "iVBORw==", mimeType: "image/png" } },
        ],
      }),
    );
  });

  it("refuses an unknown prompt with -32602", async () => {
    const { client } = await connectCatalog(era, open);
    expect(await errorOf(client.getPrompt({ name: "nope" }))).toStrictEqual({
      code: -32602,
      message: 'Unknown prompt: "nope"',
    });
  });

  it("refuses missing, unconvertible or invalid arguments with -32602 and the validator's message, never running", async () => {
    const { client } = await connectCatalog(era, open);
    expect(
      await errorOf(client.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: "x" } })),
    ).toStrictEqual({
      code: -32602,
      message:
        'Invalid arguments of prompt "test_prompt_with_arguments": 1 problem\n- /arg2: expected this required property, received nothing',
    });
    expect(
      await errorOf(client.getPrompt({ name: "repeat", arguments: { word: "a", times: "two" } })),
    ).toStrictEqual({
      code: -32602,
      message:
        'Invalid arguments of prompt "repeat": 1 problem\n- /times: expected an integer, received string "two"',
    });
    const tooMany = await errorOf(client.getPrompt({ name: "repeat", arguments: { word: "a", times: "9" } }));
    expect(tooMany.code).toBe(-32602);
    expect(tooMany.message).toMatch(/^Invalid arguments of prompt "repeat": 1 problem\n- \/times: expected /);
    expect(
      await errorOf(
        client.request({
          method: "prompts/get",
          params: { name: "repeat", arguments: { word: 5 } },
        } as never),
      ),
    ).toStrictEqual({
      code: -32602,
      message:
        'Invalid arguments of prompt "repeat": argument "word" must be a string (prompt arguments travel as strings)',
    });
    expect(ran).toStrictEqual([]);
  });

  it("hands a context to prompts that declare one", async () => {
    const { client } = await connectCatalog(era, open);
    const result = await client.getPrompt({ name: "whoami_prompt" });
    expect(result.messages).toStrictEqual([
      {
        role: "user",
        content: { type: "text", text: `prompt:whoami_prompt:-:${era === "legacy" ? "legacy" : "modern"}` },
      },
    ]);
  });

  it("answers a throwing prompt with -32603, and a result that is no prompt as a server bug", async () => {
    const { client, events } = await connectCatalog(era, open);
    expect(await errorOf(client.getPrompt({ name: "failing_prompt" }))).toStrictEqual({
      code: -32603,
      message: "prompt broke",
    });
    expect(await errorOf(client.getPrompt({ name: "bad_prompt" }))).toStrictEqual({
      code: -32603,
      message: 'Prompt "bad_prompt" produced an invalid result (a server bug; it was logged).',
    });
    expect(events).toStrictEqual([
      {
        kind: "tool-error",
        tool: "failing_prompt",
        source: "prompt",
        error: new Error("prompt broke"),
        masked: false,
      },
      {
        kind: "invalid-result",
        tool: "bad_prompt",
        source: "prompt",
        message: "a prompt returns a string or a list of messages ({ role, content })",
        value: 42,
      },
    ]);
  });

  it("asks the user through the client (elicitation) and then answers", async () => {
    const { client } = await connectCatalog(era, open, {
      elicit: (message) => ({ context: `re: ${message}` }),
    });
    const result = await client.getPrompt({ name: "test_input_required_result_prompt" });
    expect(result.messages).toStrictEqual([
      {
        role: "user",
        content: { type: "text", text: "Use this context: re: What context should the prompt use?" },
      },
    ]);
    expect(ran).toStrictEqual(["test_input_required_result_prompt"]);
  });
});

describe("prompts/get returning input_required (2026-07-28, SEP-2322)", () => {
  const QUESTION = {
    method: "elicitation/create",
    params: {
      mode: "form",
      message: "What context should the prompt use?",
      requestedSchema: { type: "object", properties: { context: { type: "string" } }, required: ["context"] },
    },
  };

  /** The first round: the prompt asks, the client is told what and gets a state to come back with. */
  async function firstRound() {
    const connected = await connectCatalog("2026-07-28", open, { manual: true, elicit: () => ({}) });
    const round = (await connected.client.request(
      { method: "prompts/get", params: { name: "test_input_required_result_prompt" } },
      { allowInputRequired: true } as never,
    )) as unknown as { resultType: string; inputRequests: Record<string, unknown>; requestState: string };
    return { ...connected, round };
  }

  it("answers input_required, then the same run completes with the client's answer", async () => {
    const { client, round } = await firstRound();
    expect(round).toStrictEqual(
      shaped("2026-07-28", {
        resultType: "input_required",
        inputRequests: { user_context: QUESTION },
        requestState: expect.stringMatching(/^[0-9a-f-]{36}$/),
      }),
    );
    const result = await client.request({
      method: "prompts/get",
      params: {
        name: "test_input_required_result_prompt",
        inputResponses: { user_context: { action: "accept", content: { context: "test context" } } },
        requestState: round.requestState,
      },
    } as never);
    expect(result).toStrictEqual(
      shaped("2026-07-28", {
        description: "Asks the user first.",
        messages: [{ role: "user", content: { type: "text", text: "Use this context: test context" } }],
      }),
    );
    expect(ran).toStrictEqual(["test_input_required_result_prompt"]);
  });

  it("refuses a requestState that is unknown or belongs to another prompt", async () => {
    const { client, round } = await firstRound();
    const retry = (name: string, requestState: string) =>
      client.request({
        method: "prompts/get",
        params: { name, inputResponses: { user_context: { action: "decline" } }, requestState },
      } as never);
    const invalid = {
      code: -32602,
      message: "Invalid or expired requestState: send the request again without it",
      data: { reason: "invalid_request_state" },
    };
    expect(await errorOf(retry("test_simple_prompt", round.requestState))).toStrictEqual(invalid);
    expect(await errorOf(retry("test_input_required_result_prompt", "made-up"))).toStrictEqual(invalid);
    // The parked run is still there for the right retry.
    const result = (await retry("test_input_required_result_prompt", round.requestState)) as {
      messages: unknown[];
    };
    expect(result.messages).toStrictEqual([
      { role: "user", content: { type: "text", text: "No context (decline)" } },
    ]);
  });

  it("is fulfilled by the SDK client's own elicitation handler", async () => {
    const { client } = await connectCatalog("2026-07-28", open, { elicit: () => ({ context: "auto" }) });
    expect((await client.getPrompt({ name: "test_input_required_result_prompt" })).messages).toStrictEqual([
      { role: "user", content: { type: "text", text: "Use this context: auto" } },
    ]);
  });

  it("fails with -32021 when the client does not support elicitation", async () => {
    const { client } = await connectCatalog("2026-07-28", open);
    const error = await errorOf(client.getPrompt({ name: "test_input_required_result_prompt" }));
    expect(error.code).toBe(-32021);
  });
});

describe.each(ERAS)("completion/complete for a %s client", (era) => {
  it("filters a fixed list by prefix, case-sensitively", async () => {
    const { client } = await connectCatalog(era, open);
    expect(
      await client.complete({
        ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
        argument: { name: "arg1", value: "par" },
      }),
    ).toStrictEqual(
      shaped(era, { completion: { values: ["paris", "park", "party"], total: 3, hasMore: false } }),
    );
    expect(
      (
        await client.complete({
          ref: { type: "ref/resource", uri: "users://{id}/posts{?limit,draft}" },
          argument: { name: "id", value: "2" },
        })
      ).completion,
    ).toStrictEqual({ values: ["2", "20"], total: 2, hasMore: false });
  });

  it("calls a completion function with the value and the other arguments", async () => {
    const { client } = await connectCatalog(era, open);
    expect(
      (
        await client.complete({
          ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
          argument: { name: "arg2", value: "wo" },
          context: { arguments: { arg1: "hello" } },
        })
      ).completion,
    ).toStrictEqual({ values: ["hello-wo"], total: 1, hasMore: false });
  });

  it("sends at most 100 values, with the total and hasMore", async () => {
    const { client } = await connectCatalog(era, open);
    const { completion } = await client.complete({
      ref: { type: "ref/resource", uri: "files://{+path}" },
      argument: { name: "path", value: "src/" },
    });
    expect(completion).toStrictEqual({ values: FILES.slice(0, 100), total: 150, hasMore: true });
  });

  it("completes an argument without a completer to nothing", async () => {
    const { client } = await connectCatalog(era, open);
    expect(
      (
        await client.complete({
          ref: { type: "ref/prompt", name: "repeat" },
          argument: { name: "word", value: "x" },
        })
      ).completion,
    ).toStrictEqual({ values: [], total: 0, hasMore: false });
  });

  it("refuses an unknown prompt or template with -32602 (spec: invalid prompt name)", async () => {
    const { client } = await connectCatalog(era, open);
    expect(
      await errorOf(
        client.complete({ ref: { type: "ref/prompt", name: "nope" }, argument: { name: "a", value: "" } }),
      ),
    ).toStrictEqual({ code: -32602, message: 'Unknown prompt: "nope"' });
    expect(
      await errorOf(
        client.complete({
          ref: { type: "ref/resource", uri: "test://static-text" },
          argument: { name: "a", value: "" },
        }),
      ),
    ).toStrictEqual({ code: -32602, message: 'Unknown resource template: "test://static-text"' });
  });
});
