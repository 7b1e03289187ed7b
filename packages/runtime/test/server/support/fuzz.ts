/**
 * Deterministic generator of hostile input for the robustness tests: broken frames and
 * argument objects derived from valid calls of the probe's tools.
 */

/** A small seeded PRNG (mulberry32), so every run sends the same frames. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One frame to send, and what the test knows about it. */
export interface Frame {
  bytes: Buffer;
  /** Id of a well-formed JSON-RPC request: exactly one reply with this id must come back. */
  id?: number;
  /** A `tools/call` whose arguments are valid: the tool must run exactly once. */
  valid?: boolean;
}

/** Valid calls the mutations start from, each with one of its required arguments. */
export const VALID_CALLS: { name: string; arguments: Record<string, unknown>; required?: string }[] = [
  { name: "add", arguments: { a: 1, b: 2 }, required: "b" },
  { name: "search", arguments: { query: "lamp", limit: 3 }, required: "query" },
  { name: "search", arguments: { query: "灯" }, required: "query" },
  { name: "create_note", arguments: { title: "t", body: "b", tags: ["x"] }, required: "title" },
  { name: "save", arguments: { data: { k: [1, { v: null }] } }, required: "data" },
  { name: "increment", arguments: { times: 2 } },
];

type Call = (typeof VALID_CALLS)[number];

const deep = (levels: number): unknown => JSON.parse(`${"[".repeat(levels)}${"]".repeat(levels)}`);

const kindOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

/** Ways to break a valid arguments object; each result is invalid for its tool. */
const MUTATIONS: ((call: Call, pick: () => number) => unknown)[] = [
  // wrong type for a field (wrapped in an array when it happens to be of the right kind)
  ({ arguments: args }, pick) => {
    const keys = Object.keys(args);
    const key = keys[Math.floor(pick() * keys.length)]!;
    const wrong = [true, [], {}, null, "text", 3.5, -1e308][Math.floor(pick() * 7)];
    return { ...args, [key]: kindOf(args[key]) === kindOf(wrong) ? [wrong] : wrong };
  },
  // a required field missing (an extra one for tools without required arguments)
  ({ arguments: args, required }) => {
    if (!required) return { ...args, unexpected: true };
    const { [required]: _, ...rest } = args;
    return rest;
  },
  // an extra field
  ({ arguments: args }, pick) => ({ ...args, [`extra_${Math.floor(pick() * 1000)}`]: 1 }),
  // not an object at all
  (_, pick) => ["arguments", 42, [1, 2], true][Math.floor(pick() * 4)],
  // a huge string
  ({ arguments: args }) => ({ ...args, huge: "x".repeat(200_000) }),
  // deep nesting
  ({ arguments: args }) => ({ ...args, nested: deep(2_000) }),
  // prototype keys, nested where the SDK keeps them
  ({ arguments: args }) => ({ ...args, data: JSON.parse('{"__proto__":{"polluted":true}}') }),
  ({ arguments: args }) => ({ ...args, data: JSON.parse('{"constructor":{"prototype":{"polluted":true}}}') }),
];

/** Frames that are not valid JSON-RPC requests at all. */
function brokenFrame(pick: () => number): Buffer {
  const choices: (() => Buffer | string)[] = [
    () => "{",
    () => "not json at all",
    () => '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,',
    () => "null",
    () => "[]",
    () => "12345",
    () => '{"jsonrpc":"1.0","id":5,"method":"ping"}',
    () => '{"jsonrpc":"2.0","id":{"nested":true},"method":"ping"}',
    () => '{"jsonrpc":"2.0","method":7}',
    () => '{"id":3,"result":{}}',
    () => Buffer.from([0xff, 0xfe, 0x7b, 0xc3, 0x28, 0x7d]),
    () =>
      Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","method":"x\u0000'),
        Buffer.from([0xed, 0xa0, 0x80]),
        Buffer.from('"}'),
      ]),
    () => `"${"\\".repeat(101)}`,
    () => '{"jsonrpc":"2.0","id":9,"method":"tools/list","params":"not an object"}',
  ];
  const made = choices[Math.floor(pick() * choices.length)]!();
  return typeof made === "string" ? Buffer.from(made) : made;
}

/**
 * `count` frames: broken frames, requests with unknown methods or malformed params, valid
 * calls, and valid calls with mutated (invalid) arguments, some carrying invalid UTF-8.
 */
export function frames(count: number, seed = 4): Frame[] {
  const pick = random(seed);
  const out: Frame[] = [];
  let id = 1000;
  const request = (method: string, params: unknown) => {
    id += 1;
    return { id, text: JSON.stringify({ jsonrpc: "2.0", id, method, params }) };
  };
  for (let i = 0; i < count; i++) {
    const kind = pick();
    const base = VALID_CALLS[Math.floor(pick() * VALID_CALLS.length)]!;
    if (kind < 0.2) {
      out.push({ bytes: brokenFrame(pick) });
    } else if (kind < 0.3) {
      const r = request(
        ["no/such/method", "tools/call", "tools/list"][Math.floor(pick() * 3)]!,
        [{ name: 5 }, { name: "add", arguments: "a string" }, { arguments: {} }][Math.floor(pick() * 3)],
      );
      out.push({ bytes: Buffer.from(r.text), id: r.id });
    } else if (kind < 0.45) {
      const r = request("tools/call", { name: base.name, arguments: base.arguments });
      out.push({ bytes: Buffer.from(r.text), id: r.id, valid: true });
    } else if (kind < 0.5) {
      // invalid UTF-8 inside a string where a number belongs: invalid whatever the decoding
      const r = request("tools/call", { name: "add", arguments: { a: "@@", b: 1 } });
      const bytes = Buffer.from(r.text);
      const at = bytes.indexOf("@@");
      bytes[at] = 0xc3;
      bytes[at + 1] = 0x28;
      out.push({ bytes, id: r.id });
    } else {
      const mutate = MUTATIONS[Math.floor(pick() * MUTATIONS.length)]!;
      const r = request("tools/call", { name: base.name, arguments: mutate(base, pick) });
      out.push({ bytes: Buffer.from(r.text), id: r.id });
    }
  }
  return out;
}

/** Checks one reply is a well-formed JSON-RPC 2.0 response or notification; returns its id. */
export function checkReply(reply: unknown): number | string | null | undefined {
  if (typeof reply !== "object" || reply === null || Array.isArray(reply))
    throw new Error("reply is not an object");
  const r = reply as Record<string, unknown>;
  if (r.jsonrpc !== "2.0") throw new Error(`reply without jsonrpc 2.0: ${JSON.stringify(r).slice(0, 200)}`);
  if ("method" in r) {
    if (typeof r.method !== "string") throw new Error("notification without method");
    return undefined;
  }
  const hasResult = "result" in r;
  const hasError = "error" in r;
  if (hasResult === hasError)
    throw new Error(`reply must have result xor error: ${JSON.stringify(r).slice(0, 200)}`);
  if (hasError) {
    const e = r.error as Record<string, unknown>;
    if (!Number.isInteger(e.code) || typeof e.message !== "string") throw new Error("malformed error object");
  }
  if (!(typeof r.id === "number" || typeof r.id === "string" || r.id === null))
    throw new Error("reply with a bad id");
  return r.id as number | string | null;
}
