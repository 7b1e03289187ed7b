/**
 * The model's form of the declarations checks programs exactly as the readable form (`api.d.ts`)
 * does: for every tool of the distinct corpus at N tools, five programs (a call with arguments
 * sampled from its input schema; the same with a mistyped argument; a result misused as a string,
 * through a missing property and as a number) checked against both, with their verdicts and
 * diagnostic positions compared; and the model's reading (`forModel`: methods, results without
 * `Promise<…>`) compiled beside the checker's form: the same functions with the same argument types
 * and awaited results. Exits 1 on a difference.
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

/**
 * Each function of two declarations texts, compiled in one program (so that both print a union's
 * members in the same order): `ns.f(arguments): awaited result` of each, and their errors.
 */
function compiled(texts: Record<string, string>): { api: Record<string, string[]>; errors: number } {
  const namespaces = [...names.values()].map((n) => n.namespace).join(", ");
  const files = new Map(
    Object.entries(texts).map(([k, t]) => [`/${k}.d.ts`, `${t}\nexport { ${namespaces} };\n`]),
  );
  const host = ts.createCompilerHost({});
  const read = host.getSourceFile;
  host.getSourceFile = (name, version) =>
    files.has(name) ? ts.createSourceFile(name, files.get(name)!, version) : read.call(host, name, version);
  const options = { lib: ["lib.es2022.d.ts"], strict: true, noEmit: true, types: [] };
  const program = ts.createProgram([...files.keys()], options, host);
  const checker = program.getTypeChecker();
  const show = (t: ts.Type) =>
    checker.typeToString(t, undefined, ts.TypeFormatFlags.NoTruncation).replace(/import\("[^"]*"\)\./g, "");
  const api: Record<string, string[]> = {};
  for (const key of Object.keys(texts)) {
    const source = program.getSourceFile(`/${key}.d.ts`)!;
    api[key] = checker
      .getExportsOfModule(checker.getSymbolAtLocation(source)!)
      .flatMap((alias) => {
        const ns = checker.getAliasedSymbol(alias);
        return checker
          .getTypeOfSymbolAtLocation(ns, source)
          .getProperties()
          .map((fn) => {
            const signature = checker.getTypeOfSymbolAtLocation(fn, source).getCallSignatures()[0]!;
            const args = signature.parameters[0];
            const result = signature.getReturnType();
            return (
              `${alias.name}.${fn.name}(${args ? show(checker.getTypeOfSymbolAtLocation(args, source)) : ""}): ` +
              show(checker.getAwaitedType(result) ?? result)
            );
          });
      })
      .sort();
  }
  return { api, errors: ts.getPreEmitDiagnostics(program).length };
}
const both = compiled({
  model: renderDeclarations(servers, { compact: true, forModel: true }),
  checked: compact.declarations,
});
const [model, checked] = [both.api.model!, both.api.checked!];
const differ = model.filter((f, i) => f !== checked[i]);
process.stdout.write(
  `\nthe model's reading against the checker's form, compiled: ${model.length} and ${checked.length} ` +
    `functions, ${both.errors} errors, ${differ.length} differ\n${differ.slice(0, 3).join("\n")}`,
);
if (both.errors + differ.length > 0 || model.length !== checked.length) process.exitCode = 1;
