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

describe("the model's reading: results without Promise<…>, the rule said once", () => {
  it("differs from the checker's form only in the Promise and its rule, and a missed await is refused", async () => {
    const model = renderDeclarations(servers, { compact: true, awaitedResults: true });
    const checked = renderDeclarations(servers, { compact: true });
    expect(model.split("\n")[0]).toBe(
      "// Every function is async: it returns a Promise of the type shown; await it.",
    );
    expect(model).not.toContain("Promise<");
    expect(model).toContain("// A result typed unknown: the tool declares no output schema.");
    expect(model).toContain("address:Address}):Account;");
    // the checker's form with every function's `Promise<X>` written `X` (found by the parser), and the rule
    const file = ts.createSourceFile("api.d.ts", checked, ts.ScriptTarget.ES2022);
    const returns: [number, number, string][] = [];
    const visit = (node: ts.Node) => {
      if (ts.isFunctionDeclaration(node) && node.type && ts.isTypeReferenceNode(node.type)) {
        const inner = node.type.typeArguments![0]!;
        returns.push([
          node.type.getStart(file),
          node.type.end,
          checked.slice(inner.getStart(file), inner.end),
        ]);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
    expect(returns.length).toBeGreaterThan(40);
    const back = returns
      .reverse()
      .reduce((text, [from, to, inner]) => text.slice(0, from) + inner + text.slice(to), checked)
      .replace(/Promise<unknown>(?=: the tool)/g, "A result typed unknown");
    expect(model).toBe(`${model.split("\n")[0]}\n${back}`);
    const checker = await createChecker({ servers, typescript: ts });
    const missed = checker.check('const b = ledger.get_balance({ address: "bob" });\nreturn b.address;');
    expect(missed.ok).toBe(false);
    expect(!missed.ok && missed.message).toMatch(
      /^2:10 Property 'address' does not exist on type 'Promise<Account>'\./,
    );
    // the diagnostic quotes the checker's type, `Promise<Account>`, and says what the rule says
    expect(!missed.ok && missed.message).toBe(
      "2:10 Property 'address' does not exist on type 'Promise<Account>'. Did you forget to use 'await'?",
    );
  });
});
