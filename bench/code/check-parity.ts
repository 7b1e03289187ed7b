/**
 * The model's form of the declarations checks programs exactly as the readable form (`api.d.ts`)
 * does: for every tool of the distinct corpus at N tools, five programs (a call with arguments
 * sampled from its input schema; the same with a mistyped argument; a result misused as a string,
 * through a missing property and as a number) checked against both, with their verdicts and
 * diagnostic positions compared. Exits 1 on the first difference.
 *
 * Usage: npx tsx --conditions @mcp-gen/source bench/code/check-parity.ts [200]
 */
import { apiNames, apiServer, renderDeclarations } from "@mcp-gen/schema";
import ts from "typescript-5";
import { createChecker } from "../../packages/runtime/src/code/index.ts";
import { codeCorpus, sample } from "./corpus.ts";

const { contracts } = await codeCorpus(Number(process.argv[2] ?? 200));
const servers = contracts.map(apiServer);
const names = apiNames(servers);
const compact = await createChecker({ servers, typescript: ts });
const readable = await createChecker({ declarations: renderDeclarations(servers), typescript: ts });
const programs: string[] = [];
for (const s of servers)
  for (const t of s.tools) {
    const n = names.get(s.name)!;
    const v = JSON.stringify(sample(t.inputSchema, t.inputSchema));
    const call = `${n.namespace}.${n.tools.get(t.name)}(${v === "{}" ? "" : v})`;
    programs.push(`const r = await ${call};\nreturn r;`);
    programs.push(`const r = await ${call.replace(/:("x"|1|true|null)/, ":{}")};\nreturn r;`);
    programs.push(
      `const r = await ${call};\nconst s: string = r as never;\nreturn JSON.stringify(r) + (r as { nope?: 1 }).nope + r.toString().toFixed();`,
    );
    programs.push(`const r = await ${call};\nconst x = r${"?."}missing_prop;\nreturn x;`);
    if (t.outputSchema) programs.push(`const r = await ${call};\nconst x: number = r;\nreturn x;`);
  }
const v = (r: { ok: boolean; diagnostics?: { line: number; column: number; message: string }[] }) =>
  r.ok ? "ok" : r.diagnostics!.map((d) => `${d.line}:${d.column}`).join(" ");
let same = 0,
  refused = 0;
const diffs: string[] = [];
for (const p of programs) {
  const a = v(compact.check(p) as never),
    b = v(readable.check(p) as never);
  if (a === b) same++;
  else diffs.push(`${p}\n  compact ${a} readable ${b}`);
  if (a !== "ok") refused++;
}
process.stdout.write(
  `${programs.length} programs: ${same} with the same verdict against both forms, ${refused} refused\n${diffs.slice(0, 5).join("\n")}`,
);
if (diffs.length > 0) process.exitCode = 1;
