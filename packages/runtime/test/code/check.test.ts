import { readFileSync } from "node:fs";
import { type ApiServer, apiServer, type Checker, createChecker } from "@mcp-gen/runtime/code";
import ts from "typescript-5";
import { beforeAll, describe, expect, it } from "vitest";

const contract = (name: string) =>
  apiServer(
    JSON.parse(readFileSync(new URL(`../../../../schemas/${name}.tools.json`, import.meta.url), "utf8")),
  );

const servers: ApiServer[] = [contract("smart-home"), contract("ledger")];
const SANDBOX =
  "the program runs in a sandbox whose only capabilities are the declared functions (smart_home.*, ledger.*) and console";
const ARGS = "{ query: string; limit?: number | undefined; }";

let checker: Checker;
beforeAll(async () => {
  checker = await createChecker({ servers, typescript: ts });
});

const errors = (program: string) => {
  const result = checker.check(program);
  if (result.ok) throw new Error(`expected errors, got ${result.js}`);
  return result.message.split("\n");
};

describe("check: type errors, each with its line:col", () => {
  it("a wrong argument type names the tool and the type it takes", () => {
    expect(
      errors("const found = await smart_home.search_devices({ query: 5 });\nreturn found;"),
    ).toStrictEqual([
      `1:49 Type 'number' is not assignable to type 'string'. (argument of smart_home.search_devices, which takes ${ARGS})`,
    ]);
  });

  it("a missing property", () => {
    expect(errors("\nawait smart_home.search_devices({ limit: 5 });")).toStrictEqual([
      `2:33 Argument of type '{ limit: number; }' is not assignable to parameter of type '${ARGS}'. ` +
        `Property 'query' is missing in type '{ limit: number; }' but required in type '${ARGS}'. ` +
        `(argument of smart_home.search_devices, which takes ${ARGS})`,
    ]);
  });

  it("a misspelled tool and a misspelled namespace", () => {
    expect(
      errors(
        'await smart_home.serch_devices({ query: "x" });\nawait smarthome.search_devices({ query: "x" });',
      ),
    ).toStrictEqual([
      "1:18 Property 'serch_devices' does not exist on type 'typeof smart_home'. Did you mean 'search_devices'?",
      "2:7 Cannot find name 'smarthome'. Did you mean 'smart_home'? The API's namespaces: smart_home, ledger.",
    ]);
  });

  it("a tool's result used as the wrong type", () => {
    const program = [
      'const [first] = await smart_home.search_devices({ query: "lamp" });',
      "const level: number = first!.fullId;",
      'const b = await ledger.get_balance({ address: "bob" });',
      "return b.balance.toFixed(2);",
    ].join("\n");
    expect(errors(program)).toStrictEqual([
      "2:7 Type 'string' is not assignable to type 'number'.",
      "4:18 Property 'toFixed' does not exist on type 'string'. Did you mean 'fixed'?",
    ]);
  });
});

describe("check: what the sandbox does not have", () => {
  it("refuses fetch, require, process and import() by name", () => {
    const program =
      'const r = await fetch("http://example.com");\nconst fs = require("fs");\nprocess.exit(1);\nconst m = await import("node:fs");';
    expect(errors(program)).toStrictEqual([
      `1:17 fetch is not available: ${SANDBOX}`,
      `2:12 require is not available: ${SANDBOX}`,
      `3:1 process is not available: ${SANDBOX}`,
      `4:17 import is not available: ${SANDBOX}; a program cannot load modules`,
    ]);
  });

  it("refuses a return value that is not JSON, and says which part", () => {
    expect(errors("return () => 1;")).toStrictEqual([
      "1:8 the program returns () => number, and it is a function: only JSON reaches the caller. Return plain data (objects, arrays, strings, numbers, booleans, null)",
    ]);
    expect(
      errors(
        'const d = await smart_home.search_devices({ query: "x" });\nreturn { d, seen: new Set(d.map((x) => x.id)) };',
      )[0],
    ).toMatch(/^2:8 the program returns \{ d: .*; seen: Set<string>; \}, and its seen is a Set: only JSON/);
  });

  it("refuses a } that closes the program's function early", () => {
    expect(errors('return 1;\n}\nconsole.log("outside");\nfunction g() {')).toStrictEqual([
      "2:1 this } closes the program's function before its end: the program is one function body, remove it",
    ]);
  });

  it("reports a syntax error at the program's last line when the text ends early", () => {
    expect(errors("const x = {\n  a: 1,")).toStrictEqual(["2:1 '}' expected."]);
  });
});

describe("check: programs that pass", () => {
  it("transpiles TypeScript to the body of an async function", () => {
    const program = [
      'const devices = await smart_home.search_devices({ query: "客厅 灯", limit: 5 });',
      "const on: string[] = [];",
      "for (const d of devices) {",
      '  const r = await smart_home.execute_commands({ device_id: d.fullId, commands: [{ component: "main", capability: "switch", command: "on" }] });',
      '  if (r.status === "ACCEPTED") on.push(d.name as string);',
      "}",
      "return { on };",
    ].join("\n");
    const result = checker.check(program);
    // types are blanked out: every line and column of the JavaScript is the program's own
    expect(result).toStrictEqual({
      ok: true,
      js: program.replace("d.name as string", "d.name          ").replace("on: string[] =", "on           ="),
    });
  });

  it("erases every kind of type annotation in place, and refuses TypeScript that needs code", () => {
    const program = [
      "interface P { x: number }",
      "type Q = P | null;",
      "function f<T extends P>(this: void, p: T, q?: Q): number { return p.x + (q?.x ?? 0); }",
      "const g = <T,>(v: T): T => v;",
      "let n!: number;",
      "n = f<P>({ x: 1 } satisfies P, null)!;",
      "class C implements P { public readonly x: number = 1; declare y: string; m?(): void; }",
      "return [n, g<number>(2), (new C() as P).x];",
    ].join("\n");
    const result = checker.check(program);
    if (!result.ok) throw new Error(result.message);
    const lines = result.js.split("\n");
    expect(lines.map((l) => l.length)).toStrictEqual(program.split("\n").map((l) => l.length));
    expect(lines.map((l) => l.replace(/\s+/g, " ").trim())).toStrictEqual([
      "",
      "",
      "function f ( p , q ) { return p.x + (q?.x ?? 0); }",
      "const g = (v ) => v;",
      "let n ;",
      "n = f ({ x: 1 } , null) ;",
      "class C { x = 1; }",
      "return [n, g (2), (new C() ).x];",
    ]);
    expect(errors("enum E { A }\nreturn E.A;")).toStrictEqual([
      "1:1 an enum is not supported in a program (it is TypeScript that needs code to run): use a const object or a union of strings",
    ]);
  });

  it("accepts plain JavaScript, as TypeScript and as JavaScript, with an unannotated helper", () => {
    const program =
      'function twice(x) { return x * 2; }\nconst d = await smart_home.search_devices({ query: "a" });\nconsole.log(d.length);\nreturn twice(d.length);';
    expect(checker.check(program)).toStrictEqual({ ok: true, js: program });
    expect(checker.check(program, { language: "javascript" })).toStrictEqual({ ok: true, js: program });
    expect(
      checker.check("await smart_home.search_devices({ query: 1 });", { language: "javascript" }).ok,
    ).toBe(false);
  });

  it("a tool without an output schema returns unknown, which must be narrowed before use but may be returned", async () => {
    const open = await createChecker({
      servers: [{ name: "memory", tools: [{ name: "read_graph", inputSchema: { type: "object" } }] }],
      typescript: ts,
    });
    expect(open.check("const g = await memory.read_graph();\nreturn g;").ok).toBe(true);
    const misuse = open.check("const g = await memory.read_graph();\nreturn g.entities;");
    expect(misuse.ok === false && misuse.message).toBe("2:8 'g' is of type 'unknown'.");
  });

  it("checks against declarations given as text, such as an emitted api.d.ts", async () => {
    const emitted = readFileSync(new URL("../../../../generated/ledger/api.d.ts", import.meta.url), "utf8");
    expect(emitted).toMatch(/\nexport \{\};\n$/);
    const fromText = await createChecker({ declarations: emitted, typescript: ts });
    expect(fromText.check("await ledger.list_acounts();")).toMatchObject({
      ok: false,
      message:
        "1:14 Property 'list_acounts' does not exist on type 'typeof ledger'. Did you mean 'list_accounts'?",
    });
  });
});

describe("createChecker's input", () => {
  it("refuses declarations that do not compile, with their position", async () => {
    await expect(
      createChecker({ declarations: "declare namespace a { function f(): Promise<Nope>; }", typescript: ts }),
    ).rejects.toThrow(
      "code mode's declarations do not compile (1 errors): api.d.ts:1:45 Cannot find name 'Nope'.",
    );
  });

  it("takes what else the sandbox declares", async () => {
    const withSleep = await createChecker({
      servers,
      typescript: ts,
      globals: "declare function sleep(ms: number): Promise<void>;\n",
    });
    expect(withSleep.check("await sleep(10);\nreturn null;")).toStrictEqual({
      ok: true,
      js: "await sleep(10);\nreturn null;",
    });
    expect(checker.check("await sleep(10);").ok).toBe(false);
  });
});

describe("loading TypeScript", () => {
  it("refuses a TypeScript without the JavaScript API (here: the repository's typescript 7) and says how to fix it", async () => {
    await expect(createChecker({ servers })).rejects.toThrow(
      /needs TypeScript's JavaScript compiler API, which the installed "typescript" \(7\.\d+\.\d+\) does not have .*Install typescript@6\.0\.3/,
    );
  });

  it("takes ts-morph's compiler (TypeScript 6.0)", async () => {
    const { ts: morph } = await import("ts-morph");
    await expect(createChecker({ servers, typescript: morph })).rejects.toThrow(
      /cannot read the ES2022 library .* pass `readLib`/,
    );
    const { getLibFiles } = await import("@ts-morph/common");
    const libs = getLibFiles();
    const viaMorph = await createChecker({
      servers,
      typescript: morph,
      readLib: (name) => libs.find((f) => f.fileName === name)?.text,
    });
    expect(viaMorph.check('return (await ledger.get_balance({ address: "bob" })).balance;').ok).toBe(true);
  });

  it("the entry loads no compiler until a checker is created (no static import of typescript in dist)", () => {
    for (const file of [
      "index.js",
      "check/checker.js",
      "check/typescript.js",
      "check/service.js",
      "check/messages.js",
      "check/program-rules.js",
      "check/erase.js",
    ]) {
      const text = readFileSync(new URL(`../../dist/code/${file}`, import.meta.url), "utf8");
      expect(text, file).not.toMatch(/(from|import)\s*\(?\s*["']typescript/);
    }
  });
});
