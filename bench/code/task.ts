/**
 * Code mode against plain tool calls on one multi-step task, both scripted (no real model): list 500
 * records → keep the open high-priority ones → fetch those 20 → update the 3 overdue ones. Counts
 * model round trips, input tokens summed over every request (o200k_base over the request's
 * messages and tools, as the Anthropic SDK sent them), and bytes of tool results that enter the
 * context. Plain calls are scripted two ways: one call per turn (the seeds' loop) and every
 * independent call in one turn (parallel tool calls, the best case for plain calls). The single
 * call row (fetch one record) is where plain calls win. Code mode runs twice: the program's value
 * comes back to the model, which then replies; and with `finalAnswer`, where the model sends the
 * program with `final: true` and its value (the reply, composed in the program) ends the turn.
 *
 *   npx tsc -b packages/runtime && npx tsx --conditions @mcp-gen/source bench/code/task.ts
 */
import { allowAll, createAgent } from "@mcp-gen/runtime/agent";
import { anthropicModel } from "@mcp-gen/runtime/anthropic";
import { type ScriptedRequest, type ScriptStep, startScriptedModel } from "@mcp-gen/runtime/testing";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import ts from "typescript-5";
import { recordsServer } from "./records.ts";

type Summary = { id: string; status: string; priority: string };
const results = (r: ScriptedRequest) => r.toolResults.map((t) => JSON.parse(t.content));

const call = (name: string, args: unknown) => ({ name, arguments: args });

/** Plain calls: `parallel` puts independent calls in one turn. */
function plainScript(parallel: boolean): ScriptStep[] {
  let wanted: string[] = [];
  let fetched: { id: string; overdue: boolean }[] = [];
  let toUpdate: string[] = [];
  const steps: ScriptStep[] = [{ toolCalls: [call("list_records", {})] }];
  steps.push((r) => {
    wanted = (results(r)[0].records as Summary[])
      .filter((s) => s.status === "open" && s.priority === "high")
      .map((s) => s.id);
    return { toolCalls: (parallel ? wanted : wanted.slice(0, 1)).map((id) => call("get_record", { id })) };
  });
  if (!parallel)
    for (let i = 1; i < 20; i++) {
      const k = i;
      steps.push((r) => {
        fetched.push(...results(r));
        return { toolCalls: [call("get_record", { id: wanted[k] })] };
      });
    }
  steps.push((r) => {
    fetched.push(...results(r));
    toUpdate = fetched
      .filter((d) => d.overdue)
      .slice(0, 3)
      .map((d) => d.id);
    const updates = toUpdate.map((id) => call("update_record", { id, status: "closed" }));
    return { toolCalls: parallel ? updates : updates.slice(0, 1) };
  });
  if (!parallel)
    for (let i = 1; i < 3; i++) {
      const k = i;
      steps.push(() => ({ toolCalls: [call("update_record", { id: toUpdate[k], status: "closed" })] }));
    }
  steps.push(() => ({ text: `Closed ${toUpdate.join(", ")}.` }));
  fetched = [];
  return steps;
}

const PROGRAM = `const { records } = await crm.list_records();
const wanted = records.filter((r) => r.status === "open" && r.priority === "high");
const full = await Promise.all(wanted.map((r) => crm.get_record({ id: r.id })));
const overdue = full.filter((r) => r.overdue).slice(0, 3);
for (const r of overdue) await crm.update_record({ id: r.id, status: "closed" });
return overdue.map((r) => r.id);`;

const codeScript: ScriptStep[] = [
  { toolCalls: [call("run_program", { program: PROGRAM })] },
  (r) => ({ text: `Closed ${JSON.parse(r.toolResults[0]!.content).join(", ")}.` }),
];

/** The same program composing the reply itself, sent with `final: true`: no second model request. */
const finalScript: ScriptStep[] = [
  {
    toolCalls: [
      call("run_program", {
        program: PROGRAM.replace(
          "return overdue.map((r) => r.id);",
          'return "Closed " + overdue.map((r) => r.id).join(", ") + ".";',
        ),
        final: true,
      }),
    ],
  },
];
const CODE = { typescript: ts };
const FINAL = { typescript: ts, finalAnswer: true };

async function measure(
  label: string,
  script: ScriptStep[],
  code: false | typeof CODE | typeof FINAL,
  message = "Close the overdue high-priority open records.",
) {
  const scripted = await startScriptedModel({ script });
  const server = recordsServer();
  const agent = createAgent({
    model: anthropicModel({ model: "claude-sonnet-5-5", apiKey: "test", baseURL: scripted.anthropicBaseURL }),
    tools: [server.manifest],
    canUseTool: allowAll,
    maxSteps: 40,
    ...(code ? { code } : {}),
  });
  try {
    const result = await agent.chat(message);
    const tokens = scripted.requests.reduce(
      (n, r) =>
        n +
        encode(JSON.stringify({ system: r.body.system, messages: r.body.messages, tools: r.body.tools }))
          .length,
      0,
    );
    const resultBytes = scripted.requests.reduce(
      (n, r) => n + r.toolResults.reduce((m, t) => m + Buffer.byteLength(t.content), 0),
      0,
    );
    return {
      label,
      roundTrips: scripted.requests.length,
      tokens,
      resultBytes,
      answer: result.text,
      updated: server.updated,
    };
  } finally {
    await agent.close();
    await scripted.close();
  }
}

const single = "Show record rec-025.";
const rows = [
  await measure(
    "single call: plain",
    [{ toolCalls: [call("get_record", { id: "rec-025" })] }, { text: "rec-025" }],
    false,
    single,
  ),
  await measure(
    "single call: code",
    [
      { toolCalls: [call("run_program", { program: `return await crm.get_record({ id: "rec-025" });` })] },
      { text: "rec-025" },
    ],
    CODE,
    single,
  ),
  await measure(
    "single call: code, final answer",
    [
      {
        toolCalls: [
          call("run_program", { program: `return await crm.get_record({ id: "rec-025" });`, final: true }),
        ],
      },
    ],
    FINAL,
    single,
  ),
  await measure("task: plain, one call per turn", plainScript(false), false),
  await measure("task: plain, parallel calls per turn", plainScript(true), false),
  await measure("task: code mode", codeScript, CODE),
  await measure("task: code mode, final answer", finalScript, FINAL),
];
console.log(
  "| run | model round trips | input tokens (sum) | tool-result bytes in context | records updated | answer |",
);
console.log("| --- | ---: | ---: | ---: | --- | --- |");
for (const r of rows)
  console.log(
    `| ${r.label} | ${r.roundTrips} | ${r.tokens.toLocaleString("en")} | ${r.resultBytes.toLocaleString("en")} | ${r.updated.join(", ") || "—"} | ${r.answer.replace(/\s+/g, " ").slice(0, 40)} |`,
  );
process.exit(0);
