/**
 * Agent benchmark: overhead of the loop per tool call — argument parsing, dialect normalisation,
 * validation, permission check, dispatch, events and bookkeeping — with a zero-latency model
 * (an in-process ModelProvider answering instantly), against the floor of validating and
 * invoking the same tool directly; then the same loop through the official SDKs and the
 * scripted HTTP endpoint on 127.0.0.1, for scale.
 *   node --import tsx/esm bench/agent/run.ts [--calls 20000] [--rounds 5]
 */
import { createAgent, type ModelProvider, type ModelReply } from "@mcp-gen/runtime/agent";
import type { ServerManifest } from "@mcp-gen/runtime/server";
import { startScriptedModel } from "@mcp-gen/runtime/testing";
import { manifest } from "../../generated/smart-home/server.ts";
import { zeroLatencyModel } from "./zero-model.ts";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const CALLS = arg("calls", 20_000);
const ROUNDS = arg("rounds", 5);
const ARGS = { query: "客厅 灯", limit: 2 };
const search = manifest.tools.find((t) => t.definition.name === "search_devices")!;

/** Microseconds per call of `body(calls)`, median of the rounds (after one warm-up). */
async function perCall(calls: number, body: (calls: number) => Promise<void>): Promise<number> {
  await body(Math.min(calls, 2000));
  const samples: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = process.hrtime.bigint();
    await body(calls);
    samples.push(Number(process.hrtime.bigint() - start) / 1000 / calls);
  }
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
}

async function floor(calls: number) {
  for (let i = 0; i < calls; i++) {
    const checked = search.input.check(ARGS);
    if (!checked.ok) throw new Error(checked.message);
    const value = await search.invoke(checked.value, undefined);
    JSON.stringify({ result: value });
  }
}

/** Runs of `turns` model turns with `perTurn` calls each until `calls` calls were made. */
function loop(options: {
  model: (turns: number) => ModelProvider;
  perTurn: number;
  turns: number;
  tools?: ServerManifest;
}) {
  return async (calls: number) => {
    const runs = Math.ceil(calls / (options.perTurn * options.turns));
    const agent = createAgent({
      model: options.model(options.turns),
      tools: [options.tools ?? manifest],
      maxSteps: options.turns + 1,
    });
    for (let r = 0; r < runs; r++) {
      const result = await agent.chat("打开客厅的灯");
      if (result.stopReason !== "end_turn") throw new Error(`run ended with ${result.stopReason}`);
    }
  };
}

const zero = (perTurn: number, text: boolean) => (turns: number) =>
  zeroLatencyModel({ turns, perTurn, args: text ? JSON.stringify(ARGS) : ARGS });

const rows: [string, number][] = [];
const floorUs = await perCall(CALLS, floor);
rows.push(["floor: validate + invoke search_devices directly", floorUs]);
for (const [label, perTurn, turns, text] of [
  ["loop, 1 call per turn, object arguments (Anthropic-like)", 1, 10, false],
  ["loop, 1 call per turn, JSON text arguments (OpenAI-like)", 1, 10, true],
  ["loop, 10 concurrent calls per turn", 10, 10, false],
  ["loop, 1 call per turn, 50-turn conversations", 1, 50, false],
] as const) {
  rows.push([label, await perCall(CALLS, loop({ model: zero(perTurn, text), perTurn, turns }))]);
}

const scripted = await startScriptedModel();
const [{ anthropicModel }, { openaiModel }] = await Promise.all([
  import("@mcp-gen/runtime/anthropic"),
  import("@mcp-gen/runtime/openai"),
]);
const httpCalls = Math.max(200, Math.round(CALLS / 20));
for (const provider of ["anthropic", "openai"] as const) {
  const model = (turns: number): ModelProvider => {
    const inner =
      provider === "anthropic"
        ? anthropicModel({ model: "bench", apiKey: "bench", baseURL: scripted.anthropicBaseURL })
        : openaiModel({ model: "bench", apiKey: "bench", baseURL: scripted.openaiBaseURL });
    return {
      ...inner,
      complete(request, options) {
        const done = request.messages.filter((m) => m.role === "tool").length >= turns;
        scripted.enqueue(
          done ? { text: "ok" } : { toolCalls: [{ name: "search_devices", arguments: ARGS }] },
        );
        return inner.complete(request, options);
      },
    };
  };
  rows.push([
    `loop through the ${provider} SDK and HTTP on 127.0.0.1 (scripted endpoint)`,
    await perCall(httpCalls, loop({ model, perTurn: 1, turns: 10 })),
  ]);
}
await scripted.close();

const width = Math.max(...rows.map(([l]) => l.length));
console.log(
  `node ${process.version}, ${CALLS} calls per round (${httpCalls} over HTTP), median of ${ROUNDS} rounds\n`,
);
console.log(`${"scenario".padEnd(width)}  µs/call  overhead vs floor`);
for (const [label, us] of rows)
  console.log(
    `${label.padEnd(width)}  ${us.toFixed(1).padStart(7)}  ${label.startsWith("floor") ? "" : `${(us - floorUs).toFixed(1).padStart(7)} µs`}`,
  );

export type { ModelReply };
