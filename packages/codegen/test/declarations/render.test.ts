import { readFileSync } from "node:fs";
import {
  type ApiServer,
  apiNames,
  apiServer,
  codeIdentifiers,
  codeToolDescription,
  describeApi,
  renderDeclarations,
  renderIndex,
} from "@mcp-gen/schema";
import { describe, expect, it } from "vitest";

const server = (tools: ApiServer["tools"], name = "demo"): ApiServer => ({ name, tools });
const obj = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});

describe("the identifier rule", () => {
  it("maps separators, digits, reserved words and sandbox globals, and numbers collisions by sorted name", () => {
    expect(
      Object.fromEntries(codeIdentifiers(["files/read.text", "a.b", "a-b", "2fa", "delete", "list"])),
    ).toStrictEqual({
      "files/read.text": "files_read_text",
      "a.b": "a_b_2",
      "a-b": "a_b",
      "2fa": "_2fa",
      delete: "delete_",
      list: "list",
    });
    const names = apiNames([server([], "smart-home"), server([], "console"), server([], "JSON")]);
    expect([...names.values()].map((n) => n.namespace)).toStrictEqual(["smart_home", "console_", "JSON_"]);
  });

  it("does not depend on the order tools are listed in", () => {
    expect(codeIdentifiers(["a-b", "a.b"]).get("a.b")).toBe(codeIdentifiers(["a.b", "a-b"]).get("a.b"));
  });
});

describe("renderDeclarations", () => {
  it("declares a tool with its doc, annotations, constraints, enums and output", () => {
    const text = renderDeclarations([
      server([
        {
          name: "get-item",
          description: "Get one item.",
          annotations: { readOnlyHint: true, idempotentHint: true },
          inputSchema: obj(
            {
              id: { type: "integer", minimum: 1, description: "Item id" },
              kind: { enum: ["a", "b"] },
              tags: { type: "array", items: { type: "string" }, maxItems: 3 },
            },
            ["id"],
          ),
          outputSchema: obj({ name: { type: "string" } }, ["name"]),
        },
      ]),
    ]);
    expect(text).toStrictEqual(`declare namespace demo {
  /**
   * Get one item. Read-only. Idempotent.
   * MCP tool "get-item".
   */
  function get_item(args: {
    /** Item id (integer, >= 1) */
    id: number;
    kind?: "a" | "b";
    /** items <= 3 */
    tags?: string[];
  }): Promise<{ name: string }>;
}
`);
  });

  it("returns Promise<unknown> without an output schema, and takes no args without parameters", () => {
    const text = renderDeclarations([
      server([
        {
          name: "ping",
          description: "Ping.",
          annotations: { destructiveHint: true },
          inputSchema: { type: "object" },
        },
      ]),
    ]);
    expect(text).toStrictEqual(`declare namespace demo {
  /**
   * Ping. Destructive.
   * Returns unknown: the tool declares no output schema.
   */
  function ping(): Promise<unknown>;
}
`);
  });

  it("declares $defs once as named interfaces and unwraps wrapped results", () => {
    const point = { type: "object", properties: { x: { type: "number" } }, required: ["x"] };
    const tools = ["a", "b"].map((name) => ({
      name,
      inputSchema: { ...obj({ at: { $ref: "#/$defs/point" } }, ["at"]), $defs: { point } },
      outputSchema: obj({ result: { type: "string" } }, ["result"]),
      resultWrapped: true,
    }));
    expect(renderDeclarations([server(tools)])).toStrictEqual(`declare namespace demo {
  type Point = { x: number };
  function a(args: { at: Point }): Promise<string>;
  function b(args: { at: Point }): Promise<string>;
}
`);
  });

  it("leaves undeclared properties out of open objects, so a misspelled one is a type error", () => {
    const text = renderDeclarations([
      server([{ name: "f", inputSchema: { type: "object", properties: { q: { type: "string" } } } }]),
    ]);
    expect(text).not.toContain("[key: string]");
  });
});

describe("renderIndex and describeApi", () => {
  const servers = ["smart-home", "ledger"].map((s) =>
    apiServer(
      JSON.parse(readFileSync(new URL(`../../../../schemas/${s}.tools.json`, import.meta.url), "utf8")),
    ),
  );

  it("lists every namespace with its functions", () => {
    expect(renderIndex(servers).split("\n").slice(1)).toStrictEqual([
      "smart_home: execute_commands, interpret_command, search_devices",
      "ledger: export_statement, faucet, get_balance, list_accounts, list_transactions, transfer_eth",
      "",
    ]);
  });

  it("lists topics instead of every name past maxChars, and describes a topic's functions", () => {
    const many = {
      name: "crm",
      tools: ["invoice_get", "invoice_list", "invoice_void", "customer_get", "ping"].map((name) => ({
        name,
        inputSchema: { type: "object" },
      })),
    };
    expect(renderIndex([many], { maxChars: 10 }).split("\n").slice(1)).toStrictEqual([
      "crm (5): invoice (3), customer_get, ping",
      "",
    ]);
    const topic = describeApi([many], "crm.invoice*");
    expect(topic.ok && topic.declarations.match(/^\w+(?=\()/gm)).toStrictEqual([
      "invoice_get",
      "invoice_list",
      "invoice_void",
    ]);
  });

  it("describes one tool or one server, by identifier or original name, and suggests on a miss", () => {
    const one = describeApi(servers, "smart-home.search_devices");
    expect(one.ok && one.declarations.match(/^\w+(?=\()/gm)).toStrictEqual(["search_devices"]);
    const all = describeApi(servers, "ledger");
    expect(all.ok && all.declarations.match(/^\w+(?=\()/gm)?.length).toBe(6);
    expect(describeApi(servers, "ledger.transfer")).toStrictEqual({
      ok: false,
      error: 'ledger has no function "transfer"; did you mean "transfer_eth"?',
    });
    expect(describeApi(servers, "smarthome")).toStrictEqual({
      ok: false,
      error: 'no namespace "smarthome"; did you mean "smart_home"?',
    });
  });
});

describe("codeToolDescription", () => {
  const servers = ["smart-home", "ledger"].map((s) =>
    apiServer(
      JSON.parse(readFileSync(new URL(`../../../../schemas/${s}.tools.json`, import.meta.url), "utf8")),
    ),
  );

  it("states the program's form, then carries the declarations, or the index past the limit", () => {
    const whole = codeToolDescription(servers);
    expect(whole.form).toBe("declarations");
    expect(whole.text.startsWith("Write the body of an async JavaScript or TypeScript function")).toBe(true);
    expect(whole.text).toContain(renderDeclarations(servers, { compact: true, forModel: true }));
    const small = codeToolDescription(servers, { maxDeclarationChars: 100, lookup: "read_api" });
    expect(small.form).toBe("index");
    expect(small.text).toContain(renderIndex(servers, { lookup: "read_api" }));
  });
});

describe("the compact form (what the model reads)", () => {
  const all = ["conformance", "economics", "ledger", "smart-home", "structured-output"].map((s) =>
    apiServer(
      JSON.parse(readFileSync(new URL(`../../../../schemas/${s}.tools.json`, import.meta.url), "utf8")),
    ),
  );
  // a comment line, or one right before a part's type in the compact form (`):// A device.`, `(// A tag.`)
  const comments = (text: string) =>
    text
      .split("\n")
      .map(
        (l) =>
          /^\s*(?:\/\*\*|\*|\/\/)\s?(.*?)\s*(?:\*\/)?$/.exec(l)?.[1] ??
          /(?:[([<,]|\):)\/\/ (.*)$/.exec(l)?.[1],
      )
      .filter((l): l is string => Boolean(l) && l !== "/" && l !== "*/");

  it("carries every description of the schemas, also of items, map values, union branches and results", () => {
    const descriptions = (v: unknown): string[] =>
      Array.isArray(v)
        ? v.flatMap(descriptions)
        : v !== null && typeof v === "object"
          ? Object.entries(v).flatMap(([k, x]) =>
              k === "description" && typeof x === "string" ? [x] : descriptions(x),
            )
          : [];
    const words = all.flatMap((s) => s.tools.flatMap((t) => descriptions([t.inputSchema, t.outputSchema])));
    expect(words.length).toBeGreaterThan(80);
    for (const compact of [false, true]) {
      const text = renderDeclarations(all, { compact });
      expect(words.filter((w) => !w.split("\n").every((line) => text.includes(line.trim())))).toStrictEqual(
        [],
      );
    }
  });

  it("keeps every word of the readable form, with recurring shapes declared once", () => {
    const readable = renderDeclarations(all);
    const compact = renderDeclarations(all, { compact: true });
    // the compact form words bounds tighter: `integer, >= 1, <= 50` → `integer 1..50`, `<= 100` → `<=100`,
    // and leaves out "Idempotent." of a read-only tool (MCP: it means something only for a writing one)
    const tighter = (l: string) =>
      l
        .replace("Read-only. Idempotent.", "Read-only.")
        .replace(/>= (\S+), <= ([^,)]+)/g, "$1..$2")
        .replace(/([<>]=?) (?=-?\d)/g, "$1")
        .replace(/integer, (?=[-\d<>])/g, "integer ");
    // a recurring scalar's constraints are said once, on its alias (`// matches /…/\ntype Address = string;`)
    const aliased = [...compact.matchAll(/^\/\/ (.*)\ntype \w+ = (?:string|number|boolean)\b[^\n]*;$/gm)].map(
      (m) => m[1]!,
    );
    const said = (l: string) =>
      aliased.reduce(
        (x, w) =>
          x.replace(` (${w})`, "").replace(`(${w}, `, "(").replace(`, ${w})`, ")").replace(`, ${w},`, ","),
        l,
      );
    // the readable form labels the words of a result and of items, values and tuple elements
    // (`Returns: …`, `Each item: …`); the compact form says them right before their types
    const kept = new Set(comments(compact).map((l) => l.replace(/\.$/, "")));
    const lost = comments(readable)
      .map(tighter)
      .map(said)
      .flatMap((l) => l.split(/ ?\b(?:Returns|Each item|Each value|Item \d+): /))
      .filter((l) => l !== "" && !kept.has(l.replace(/\.$/, "")));
    expect(lost).toStrictEqual(
      Array(lost.length).fill("Returns unknown: the tool declares no output schema."),
    );
    expect(compact).toContain(
      "// Promise<unknown>: the tool declares no output schema.\ndeclare namespace conformance {",
    );
    expect(compact).not.toMatch(/^ /m);
    expect(renderDeclarations([all[1]!])).toContain("Read-only. Idempotent.");
    expect(renderDeclarations([all[1]!], { compact: true })).not.toContain("Idempotent.");
    const ledger = renderDeclarations([all[2]!], { compact: true });
    expect(ledger.match(/^(?:interface|type) \w+/gm)).toStrictEqual([
      "type Address",
      "interface Transaction",
      "type Amount",
      "interface Account",
    ]);
    expect(ledger.match(/Promise<[^\n]*>;$/gm)).toStrictEqual(["Promise<Transaction>;", "Promise<Account>;"]);
    // an item's words right before its type, a result's right after `):`
    expect(ledger).toContain(
      "function list_accounts():Promise<{accounts:(// An account's balance.\nAccount)[]}>;",
    );
    expect(ledger).toContain("\ntransactions:(// One ledger transaction.\nTransaction)[]}>;");
    expect(aliased).toStrictEqual([
      "matches /^[A-Za-z0-9_-]{1,64}$/",
      "length <=100, matches /^[0-9]+(\\.[0-9]{1,18})?$/",
    ]);
    expect(ledger).toContain(
      '// Account name (e.g. "bob") or hex address\naddress:Address}):// An account\'s balance.\nPromise<Account>;',
    );
    expect(ledger).toContain('// Amount of ETH as a decimal string (default "10")\namount?:Amount}');
    // the transfer's receipt is a transaction and three more properties
    expect(ledger).toContain(
      "idempotency_key?:string}):// The receipt of a transfer.\nPromise<Transaction&{\n// Sender's balance",
    );
    expect(ledger).toContain(
      "// How many transactions to return (integer 1..100, default 20)\nlimit?:number;",
    );
    // the same shape under another description is the same shape: the result is the arguments
    expect(renderDeclarations([all[4]!], { compact: true })).toMatch(
      /\nfunction submit_distill_spec\(args:SubmitDistillSpecArgs\):\/\/ The structured result[\s\S]*\nPromise<SubmitDistillSpecArgs>;\n/,
    );
  });
});

describe("string literals in the compact form", () => {
  it("spells a union of four or more as a tuple's element type, fewer as a union; the readable form keeps the union", () => {
    const tool = {
      name: "pick",
      inputSchema: obj(
        {
          four: { enum: ["a", "b", "c", "d"] },
          nullable: { type: ["string", "null"], enum: ["a", "b", "c", "d", null] },
          many: { type: "array", items: { enum: ["w", "x", "y", "z"] } },
          three: { enum: ["a", "b", "c"] },
          numbers: { enum: [1, 2, 3, 4] },
        },
        ["four", "nullable", "many", "three", "numbers"],
      ),
    };
    const compact = renderDeclarations([server([tool])], { compact: true });
    expect(compact).toContain(
      'function pick(args:{four:["a","b","c","d"][number];nullable:["a","b","c","d"][number]|null;' +
        'many:["w","x","y","z"][number][];three:"a"|"b"|"c";numbers:1|2|3|4}):Promise<unknown>;',
    );
    expect(renderDeclarations([server([tool])])).toContain('four: "a" | "b" | "c" | "d";');
  });
});

describe("the model's reading (forModel)", () => {
  it("groups the methods by their tools' traits, under one heading a group, those without first", () => {
    const tool = (name: string, annotations?: Record<string, boolean>) => ({
      name,
      description: `Does ${name}.`,
      inputSchema: { type: "object" },
      outputSchema: obj({ ok: { type: "boolean" } }, ["ok"]),
      ...(annotations ? { annotations } : {}),
    });
    const text = renderDeclarations(
      [
        server([
          tool("wipe", { destructiveHint: true, idempotentHint: true }),
          tool("peek", { readOnlyHint: true, idempotentHint: true }),
          tool("make"),
          tool("drop", { destructiveHint: true }),
          tool("look", { readOnlyHint: true }),
          tool("put", { destructiveHint: false, idempotentHint: true }),
        ]),
      ],
      { compact: true, forModel: true },
    );
    expect(text).toBe(
      [
        "// Every function is async: it returns a Promise of the type shown; await it.",
        "declare const demo:{",
        "// Does make.",
        "make():{ok:boolean};",
        "// Read-only functions:",
        "// Does peek.",
        "peek():{ok:boolean};",
        "// Does look.",
        "look():{ok:boolean};",
        "// Idempotent functions:",
        "// Does put.",
        "put():{ok:boolean};",
        "// Destructive, idempotent functions:",
        "// Does wipe.",
        "wipe():{ok:boolean};",
        "// Destructive functions:",
        "// Does drop.",
        "drop():{ok:boolean};",
        "}",
        "",
      ].join("\n"),
    );
  });
});

describe("the words of a part in the compact form", () => {
  it("says a result's, an item's, a tuple element's and a value's description right before its type", () => {
    const d = (description: string, schema: Record<string, unknown>) => ({ description, ...schema });
    const tool = {
      name: "parts",
      description: "Parts.",
      inputSchema: obj(
        {
          tags: d("Tags to add.", { type: "array", items: d("A tag.", { type: "string" }) }),
          pair: d("A pair.", {
            type: "array",
            prefixItems: [d("The key.", { type: "string" }), { type: "number" }],
            minItems: 2,
            maxItems: 2,
          }),
          scores: d("Scores by name.", {
            type: "object",
            additionalProperties: d("A score.", { type: "number" }),
          }),
          // an array of a union is `Array<…>`, fewer tokens than `(…)[]`
          mixed: { type: "array", items: { type: ["string", "number"] } },
        },
        ["tags", "pair", "scores", "mixed"],
      ),
      outputSchema: d("What was saved.", obj({ ok: { type: "boolean" } }, ["ok"])),
    };
    const compact = renderDeclarations([{ name: "demo", tools: [tool] }], { compact: true, forModel: true });
    expect(compact.split("\n").slice(2, -2)).toStrictEqual([
      "// Parts.",
      "parts(args:{",
      "// Tags to add.",
      "tags:(// A tag.",
      "string)[];",
      "// A pair.",
      "pair:[// The key.",
      "string,number];",
      "// Scores by name.",
      "scores:Record<string,// A score.",
      "number>;",
      "mixed:Array<string|number>}):// What was saved.",
      "{ok:boolean};",
    ]);
    // the readable form labels them in the doc of what holds them
    const readable = renderDeclarations([{ name: "demo", tools: [tool] }]);
    expect(readable).toContain("/** Tags to add. Each item: A tag. */");
    expect(readable).toContain("/** A pair. Item 1: The key. */");
    expect(readable).toContain("/** Scores by name. Each value: A score. */");
    expect(readable).toContain("   * Returns: What was saved.\n");
  });
});
