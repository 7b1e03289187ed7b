import { connectHttp, createToolCaller, textOf } from "@mcp-gen/runtime/client";
import { type AuthContext, authorized, providerFor } from "./oauth.ts";

/**
 * The client side of `@modelcontextprotocol/conformance`: the suite starts a test server per
 * scenario and runs this file with the server's URL as last argument and the scenario in
 * `MCP_CONFORMANCE_SCENARIO`. It talks through the runtime's client helpers (`connectHttp`,
 * and `createToolCaller`, which typed clients are made of). Run by `.ci/conformance-client`.
 */
const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "initialize";
if (!url?.startsWith("http")) throw new Error("usage: client.ts <server-url>");

// auth/* scenarios: the SDK's OAuth providers (client credentials, or the code flow, headless).
const authProvider = scenario.startsWith("auth/")
  ? providerFor(JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as AuthContext)
  : undefined;
const connect = () =>
  connectHttp(url, {
    clientInfo: { name: "mcp-gen-conformance-client", version: "0.1.0" },
    // SEP-1034: the client fills in the defaults of fields an elicitation answer leaves out.
    clientOptions: { capabilities: { elicitation: { form: { applyDefaults: true } } } },
    ...(authProvider ? { authProvider } : {}),
  });
const { client, era, protocolVersion, close } = authProvider
  ? await authorized(authProvider, url, connect)
  : await connect();
// Accepting without filling anything in: the defaults must come from the requested schema. The
// same handler answers a 2025 server's elicitation request and a 2026 server's input_required.
client.setRequestHandler("elicitation/create", () => ({ action: "accept", content: {} }));
const call = createToolCaller(client);

const { tools } = authProvider
  ? await authorized(authProvider, url, () => client.listTools())
  : await client.listTools();
const names = tools.map((t) => t.name);
console.log(`${scenario}: ${era} protocol ${protocolVersion}, tools ${names.join(", ") || "(none)"}`);

const calls: Record<string, [string, Record<string, unknown>]> = {
  tools_call: ["add_numbers", { a: 5, b: 3 }],
  "elicitation-sep1034-client-defaults": ["test_client_elicitation_defaults", {}],
  "sse-retry": ["test_reconnection", {}],
};
const planned = calls[scenario];
if (planned) {
  const [name, args] = planned;
  const result = await call({ name }, args);
  console.log(`${name}: ${result.ok ? "ok" : "failed"}: ${textOf(result.content)}`);
  if (!result.ok) process.exitCode = 1;
}

/** Calls a tool the suite's server lists, by hand (no generated client knows it); logs the outcome. */
async function callListed(name: string, args: Record<string, unknown>): Promise<void> {
  try {
    const result = await client.callTool({ name, arguments: args });
    console.log(`${name}: ${result.isError ? "isError" : "ok"}: ${textOf(result.content)}`);
  } catch (error) {
    console.log(`${name}: ${(error as Error).message}`);
  }
}

// 2026-07-28 scenarios: the suite checks what reaches its server (retries with requestState,
// Mcp-Param-* headers, arguments), so the client only has to make the calls.
if (scenario === "sep-2322-client-request-state") {
  // test_mrtr_no_result_type answers without resultType, which the SDK refuses (INVALID_RESULT)
  // where the spec reads it as complete: callListed logs that and goes on.
  for (const name of [
    "test_mrtr_echo_state",
    "test_mrtr_unrelated",
    "test_mrtr_no_state",
    "test_mrtr_no_result_type",
  ]) {
    await callListed(name, {});
  }
} else if (scenario === "http-custom-headers") {
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as {
    toolCalls?: { name: string; arguments: Record<string, unknown> }[];
  };
  for (const planned of context.toolCalls ?? []) await callListed(planned.name, planned.arguments);
} else if (scenario === "http-invalid-tool-headers") {
  await callListed("valid_tool", { region: "us-west1" });
} else if (authProvider && tools.some((t) => t.name === "test-tool")) {
  // The auth scenarios' server has one tool; calling it may need more scopes (step-up).
  const result = await authorized(authProvider, url, () =>
    client.callTool({ name: "test-tool", arguments: {} }),
  );
  console.log(`test-tool: ${result.isError ? "isError" : "ok"}: ${textOf(result.content)}`);
} else if (scenario === "json-schema-2020-12-preservation") {
  const listed = tools.find((t) => t.name === "json_schema_2020_12_tool");
  await callListed("json_schema_echo", { schema: listed?.inputSchema ?? {} });
}
await close();
