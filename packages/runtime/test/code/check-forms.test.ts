import { readFileSync } from "node:fs";
import { type ApiServer, apiServer, createChecker, renderDeclarations } from "@mcp-gen/runtime/code";
import ts from "typescript-5";
import { describe, expect, it } from "vitest";

/**
 * The model reads the compact form of the declarations (the code tool's description); people read
 * `api.d.ts`. One checker takes either, and a program checks the same against both.
 */
const root = new URL("../../../../", import.meta.url);
const names = ["ledger", "smart-home", "economics", "conformance", "structured-output"];
const servers: ApiServer[] = names.map((n) =>
  apiServer(JSON.parse(readFileSync(new URL(`schemas/${n}.tools.json`, root), "utf8"))),
);
const apiDts = names.map((n) => readFileSync(new URL(`generated/${n}/api.d.ts`, root), "utf8")).join("\n");

const programs = [
  'const r = await ledger.transfer_eth({ to_address: "bob", amount: "1" });\nreturn r.replayed;',
  "const { transactions } = await ledger.list_transactions({ limit: 5 });\nreturn transactions.map((t) => t.amount_wei);",
  "const a = await ledger.faucet({ address: 'x' });\nconst b: string = a.tx_id;\nreturn b;",
  "const { accounts } = await ledger.list_accounts();\nreturn accounts[0]?.balanc;",
  'return await smart_home.search_devices({ query: "lamp", limit: "3" });',
  "const p = await economics.get_all_parameters({});\nreturn p;",
  "return await conformance.greet({});",
  // the compact form declares the receipt `Transaction&{…}` and the spec's result as its arguments
  'const r = await ledger.transfer_eth({ to_address: "bob", amount: "1" });\nreturn r.tx_id + r.amount_wei.length;',
  'const r = await ledger.transfer_eth({ to_address: "bob", amount: "1" });\nconst k: "mint" = r.kind;\nreturn k;',
  'const s = await structured_output.submit_distill_spec({ name: "a", purpose: "b", workflow: [{ action: "x", tools: [] }], confidence: 3 });\nreturn s.workflow[0]?.tools;',
  'return await structured_output.submit_distill_spec({ name: "a", purpose: "b", workflow: [], confidence: 3, extra: 1 });',
  'const s = await structured_output.submit_distill_spec({ name: "a", purpose: "b", workflow: [], confidence: 3 });\nreturn s.workflow[0]?.action.toFixed();',
  // and an account's address `Address`, an alias of string under its pattern
  "return await ledger.get_balance({ address: 5 });",
  'const b = await ledger.get_balance({ address: "bob" });\nreturn b.address.toUpperCase();',
  // a union of four or more string literals is `["labor",…][number]` in the compact form
  'return await economics.read_parameters_of_category({ category: "tax" });',
  'return await economics.read_parameters_of_category({ category: "wages" });',
  'const c: "labor" | "tax" = "tax";\nreturn await economics.read_parameters_of_category({ category: c });',
];

describe("the compact and the readable declarations check programs alike", () => {
  it("gives the same verdict at the same positions", async () => {
    const compact = await createChecker({ servers, typescript: ts });
    const readable = await createChecker({ declarations: apiDts, typescript: ts });
    expect(compact.declarations).toBe(renderDeclarations(servers, { compact: true }));
    const verdict = (r: ReturnType<typeof compact.check>) =>
      r.ok ? "ok" : r.diagnostics.map((d) => `${d.line}:${d.column}`).join(" ");
    const got = programs.map((p) => [verdict(compact.check(p)), verdict(readable.check(p))]);
    expect(got.map(([c]) => c)).toStrictEqual(got.map(([, r]) => r));
    expect(got.map(([c]) => c)).toStrictEqual([
      "ok",
      "ok",
      "2:7",
      "2:21",
      "1:57",
      "ok",
      "1:32",
      "ok",
      "2:7",
      "ok",
      "1:108",
      "2:30",
      "1:35",
      "ok",
      "ok",
      "1:54",
      "ok",
    ]);
    // the diagnostic names the literals, not the tuple that spells them
    const wages = compact.check(programs[15]!);
    expect(!wages.ok && wages.diagnostics[0]!.message).toContain(
      '\'"labor" | "market" | "population" | "simulation" | "tax"\'',
    );
  });
});

/** Each function of a declarations text, compiled: `ns.f(arguments): awaited result`, and its errors. */
function compiled(text: string): { api: string[]; errors: string[] } {
  const host = ts.createCompilerHost({});
  const read = host.getSourceFile;
  host.getSourceFile = (name, version) =>
    name === "/api.d.ts" ? ts.createSourceFile(name, text, version) : read.call(host, name, version);
  const options = { lib: ["lib.es2022.d.ts"], strict: true, noEmit: true, types: [] };
  const program = ts.createProgram(["/api.d.ts"], options, host);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile("/api.d.ts")!;
  const show = (t: ts.Type) => checker.typeToString(t, undefined, ts.TypeFormatFlags.NoTruncation);
  const api: string[] = [];
  for (const ns of checker.getSymbolsInScope(source, ts.SymbolFlags.Value)) {
    if (ns.declarations?.[0]?.getSourceFile() !== source) continue;
    for (const fn of checker.getTypeOfSymbolAtLocation(ns, source).getProperties()) {
      const signature = checker.getTypeOfSymbolAtLocation(fn, source).getCallSignatures()[0]!;
      const args = signature.parameters[0];
      const result = signature.getReturnType();
      api.push(
        `${ns.name}.${fn.name}(${args ? show(checker.getTypeOfSymbolAtLocation(args, source)) : ""}): ` +
          show(checker.getAwaitedType(result) ?? result),
      );
    }
  }
  const errors = ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, " "));
  return { api: api.sort(), errors };
}

describe("the model's reading: methods whose results are written without Promise<…>, the rule said once", () => {
  const model = renderDeclarations(servers, { compact: true, forModel: true });
  const checked = renderDeclarations(servers, { compact: true });

  it("declares the same API as the checker's form, compiled, with the same words", () => {
    expect(model.split("\n")[0]).toBe(
      "// Every function is async: it returns a Promise of the type shown; await it.",
    );
    expect(model).not.toContain("Promise<");
    expect(model).toContain("declare const smart_home:{\n");
    expect(model).toContain("declare const ledger:ledger.Api;\n");
    expect(model).toContain("\nget_balance(args:{\n// Account name");
    // a result's words right before its type, an item's too
    expect(model).toContain("address:Address}):// An account's balance.\nAccount;");
    expect(model).toContain("list_accounts():{accounts:(// An account's balance.\nAccount)[]};");
    const a = compiled(model);
    const b = compiled(checked);
    expect([a.errors, b.errors]).toStrictEqual([[], []]);
    expect(a.api.length).toBeGreaterThan(50);
    expect(a.api).toStrictEqual(b.api);
    expect(a.api).toContain("ledger.get_balance({ address: string; }): Account");
    // the same comment lines, but a tool's traits are its group's heading (`// Read-only functions:`)
    const TRAITS = / ((?:Read-only|Destructive|Idempotent)\.(?: (?:Destructive|Idempotent)\.)*)$/;
    const docs = (text: string) => {
      const lines: string[] = [];
      const traits = new Map<string, string>();
      let group = "";
      let own = "";
      for (const line of text.split("\n")) {
        const heading = /^\/\/ (.+) functions:$/.exec(line)?.[1];
        if (heading) group = `${heading.replace(/, i/, ". I")}.`;
        else if (line.startsWith("//")) {
          own ||= TRAITS.exec(line)?.[1] ?? "";
          lines.push(line.replace(TRAITS, ""));
        } else if (/(?:[([<,]|\):)\/\/ /.test(line)) lines.push(/\/\/ .*$/.exec(line)![0]);
        if (/^(?:function )?\w+\(/.test(line)) {
          traits.set(/^(?:function )?(\w+)/.exec(line)![1]!, own || group);
          own = "";
        }
        if (/^declare /.test(line)) group = "";
      }
      return { lines: lines.sort(), traits };
    };
    const m = docs(model);
    const c = docs(checked);
    expect(m.lines.filter((l) => !l.startsWith("// Every function is async"))).toStrictEqual(
      c.lines
        .map((l) => l.replace(/^\/\/ Promise<unknown>(?=: the tool)/, "// A result typed unknown"))
        .sort(),
    );
    expect([...m.traits].sort()).toStrictEqual([...c.traits].sort());
    expect(m.traits.get("transfer_eth")).toBe("Destructive.");
    expect(model).toContain("// Read-only functions:\n// Export an account's statement");
    expect(model).not.toMatch(/(?:Read-only|Destructive|Idempotent)\.$/m);
  });

  it("is still checked with Promise<…>: a missed await is refused, and the diagnostic says so", async () => {
    const checker = await createChecker({ servers, typescript: ts });
    const missed = checker.check('const b = ledger.get_balance({ address: "bob" });\nreturn b.address;');
    // the diagnostic quotes the checker's type, `Promise<Account>`, and says what the rule says
    expect(!missed.ok && missed.message).toBe(
      "2:10 Property 'address' does not exist on type 'Promise<Account>'. Did you forget to use 'await'?",
    );
  });
});
