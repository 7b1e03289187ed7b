import { createAgent, mcpTools } from "@mcp-gen/runtime/agent";
import ts from "typescript-5";
import { afterEach, describe, expect, it } from "vitest";
import { manifest as conformance } from "../../../../generated/conformance/server.ts";
import { connectInMemory } from "../../src/client/index.ts";
import { createServer } from "../../src/server/index.ts";
import { type ScriptedModel, startScriptedModel } from "../../src/testing/index.ts";
import { modelFor } from "./support.ts";

/**
 * The agent in code mode over `mcpTools({ client })`: `createAgent` has no elicitation or
 * sampling callbacks of its own, so what the server asks while serving a call from a program is
 * answered by the caller's client — its handlers — in both protocol eras, as for plain calls.
 */
let scripted: ScriptedModel | undefined;
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await scripted?.close();
  scripted = undefined;
  for (const o of open.splice(0).reverse()) await o.close();
});

describe.each(["legacy", "2026-07-28"] as const)("code mode over a client with handlers (%s)", (era) => {
  it("the client's handlers answer the server's elicitation and sampling inside a program", async () => {
    const connection = await connectInMemory(createServer(conformance, { onError: () => {} }), {
      protocol: era,
      clientOptions: { capabilities: { elicitation: { form: {} }, sampling: {} } },
    });
    open.push(connection);
    const asked: string[] = [];
    connection.client.setRequestHandler("elicitation/create", (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { username: "ada", email: "ada@example.com" } };
    });
    connection.client.setRequestHandler("sampling/createMessage", (request) => {
      asked.push((request.params.messages[0]!.content as { text: string }).text);
      return { role: "assistant", model: "scripted", content: { type: "text", text: "forty-two" } };
    });
    scripted = await startScriptedModel({
      script: [
        {
          toolCalls: [
            {
              name: "run_program",
              arguments: {
                program: `const who = await conformance.test_elicitation({ message: "Who are you?" });
const llm = await conformance.test_sampling({ prompt: "6 x 7?" });
return { who, llm };`,
              },
            },
          ],
        },
        (r) => ({ text: r.toolResults[0]!.content }),
      ],
    });
    const agent = createAgent({
      model: modelFor("anthropic", scripted),
      tools: [mcpTools({ name: "conformance", client: connection.client })],
      code: { typescript: ts },
    });
    open.push(agent);
    const { text } = await agent.chat("who am I, and 6 x 7?");
    expect(JSON.parse(text)).toStrictEqual({
      who: 'User response: action=accept, content={"username":"ada","email":"ada@example.com"}',
      llm: "LLM response: forty-two",
    });
    expect(asked).toStrictEqual(["Who are you?", "6 x 7?"]);
  });
});
