import CodeBlockWriter from "code-block-writer";
import { describe, expect, it } from "vitest";
import { CodeWriter } from "../../src/emit/code-writer.ts";

/** One call on a writer, applied alike to `CodeWriter` and to code-block-writer. */
type Op =
  | { op: "write" | "writeLine"; text: string }
  | { op: "newLine" | "blankLine" | "newLineIfLastNot" }
  | { op: "indent" | "block" | "inlineBlock"; body: Op[] };

interface Writer {
  write(text: string): unknown;
  writeLine(text: string): unknown;
  newLine(): unknown;
  blankLine(): unknown;
  newLineIfLastNot(): unknown;
  indent(block: () => void): unknown;
  block(block: () => void): unknown;
  inlineBlock(block: () => void): unknown;
}

function run(writer: Writer, ops: readonly Op[]): void {
  for (const o of ops) {
    if (o.op === "write" || o.op === "writeLine") writer[o.op](o.text);
    else if (o.op === "indent" || o.op === "block" || o.op === "inlineBlock")
      writer[o.op](() => run(writer, o.body));
    else writer[o.op]();
  }
}

function both(ops: readonly Op[]): { ours: string; theirs: string } {
  const ours = new CodeWriter();
  const theirs = new CodeBlockWriter({ indentNumberOfSpaces: 2, newLine: "\n", useSingleQuote: false });
  run(ours, ops);
  run(theirs as unknown as Writer, ops);
  return { ours: ours.toString(), theirs: theirs.toString() };
}

/** Pieces of code whose characters drive the scan: strings, templates, comments, regular expressions, escapes. */
const PIECES = [
  "const a = 1;",
  "f(\"x\", 'y')",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: code the writer scans, not a template
  "`tpl ${a} b`",
  "`open\nline",
  "close`",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: code the writer scans, not a template
  "${ {a} }",
  "/** doc\n * more */",
  "// note 'q",
  "/re[/]x/g.test(s)",
  "s.replace(/`/g, q)",
  "a / b / c",
  '"esc \\" q"',
  '"ends \\\\"',
  "'\\n'",
  "{ x: [1, 2] }",
  "",
  "  ",
  "é — ü",
  "x\r\ny",
  "*/",
  "\\",
];

function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

function randomOps(next: () => number, depth: number): Op[] {
  const ops: Op[] = [];
  const count = 1 + Math.floor(next() * 6);
  for (let i = 0; i < count; i++) {
    const r = next();
    const text = PIECES[Math.floor(next() * PIECES.length)]!;
    if (r < 0.35) ops.push({ op: "write", text });
    else if (r < 0.6) ops.push({ op: "writeLine", text });
    else if (r < 0.67) ops.push({ op: "newLine" });
    else if (r < 0.74) ops.push({ op: "blankLine" });
    else if (r < 0.78) ops.push({ op: "newLineIfLastNot" });
    else if (depth < 3) {
      const op = r < 0.85 ? "indent" : r < 0.93 ? "block" : "inlineBlock";
      ops.push({ op, body: randomOps(next, depth + 1) });
    }
  }
  return ops;
}

describe("CodeWriter", () => {
  it("writes what the emitters write as code-block-writer did", () => {
    const ops: Op[] = [
      { op: "write", text: "// header — generated\n" },
      { op: "blankLine" },
      { op: "writeLine", text: 'import { a } from "./a.js";' },
      { op: "blankLine" },
      { op: "writeLine", text: "/** Doc with `code`. */" },
      { op: "writeLine", text: "const specs = {" },
      { op: "indent", body: [{ op: "writeLine", text: 'x: { name: "x" },' }] },
      { op: "writeLine", text: "};" },
      { op: "write", text: "export interface X " },
      {
        op: "block",
        body: [
          { op: "write", text: "/**\n * Line.\n *\n * @example\n * f({ a: 1 });\n */" },
          { op: "writeLine", text: "m(args: T.A): Promise<R>;" },
          { op: "write", text: "t: " },
          { op: "inlineBlock", body: [{ op: "writeLine", text: "(args: T.A): R;" }] },
          { op: "write", text: ";" },
          { op: "newLine" },
        ],
      },
      { op: "blankLine" },
      { op: "write", text: "export function f() " },
      {
        op: "block",
        body: [
          { op: "write", text: "return " },
          { op: "inlineBlock", body: [] },
        ],
      },
    ];
    const { ours, theirs } = both(ops);
    expect(ours).toBe(theirs);
    expect(ours).toContain(
      "export interface X {\n  /**\n   * Line.\n   *\n   * @example\n   * f({ a: 1 });\n   */\n",
    );
  });

  it("leaves the lines of an open template literal unindented and follows strings, comments and regular expressions alike", () => {
    const next = seeded(23);
    for (let i = 0; i < 3000; i++) {
      const ops = randomOps(next, 0);
      const { ours, theirs } = both(ops);
      if (ours !== theirs) expect({ ops, ours }).toStrictEqual({ ops, ours: theirs });
    }
  });
});
