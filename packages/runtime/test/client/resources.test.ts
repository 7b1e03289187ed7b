import { createPromptGetter, createResourceReader, expandUriTemplate } from "@mcp-gen/runtime/client";
import { createValidator, type RawValidate, ValidationError } from "@mcp-gen/runtime/validation";
import { describe, expect, it } from "vitest";

describe("expandUriTemplate (RFC 6570 examples, scalar values)", () => {
  const values = {
    var: "value",
    hello: "Hello World!",
    path: "/foo/bar",
    x: 1024,
    y: 768,
    empty: "",
    flag: true,
  };
  it.each([
    ["{var}", "value"],
    ["{hello}", "Hello%20World%21"],
    ["{+hello}", "Hello%20World!"],
    ["{+path}/here", "/foo/bar/here"],
    ["{#path}", "#/foo/bar"],
    ["map?{x,y}", "map?1024,768"],
    ["X{.var}", "X.value"],
    ["{/var,x}/here", "/value/1024/here"],
    ["{;x,y,empty}", ";x=1024;y=768;empty"],
    ["{?x,y,empty}", "?x=1024&y=768&empty="],
    ["?fixed=yes{&x}", "?fixed=yes&x=1024"],
    ["{var:3}", "val"],
    ["{?undef,flag}", "?flag=true"],
    ["{undef}", ""],
    ["app://a/{path}", "app://a/%2Ffoo%2Fbar"],
  ])("%s → %s", (template, expected) => {
    expect(expandUriTemplate(template, values)).toBe(expected);
  });
});

const requireName: RawValidate = Object.assign(
  (data: unknown) => {
    const ok = typeof (data as { name?: unknown }).name === "string";
    requireName.errors = ok
      ? null
      : [{ instancePath: "/name", schemaPath: "#/required", keyword: "required", params: {}, message: "" }];
    return ok;
  },
  { errors: null },
) as unknown as RawValidate;

describe("createResourceReader", () => {
  const reads: string[] = [];
  const client = {
    async readResource({ uri }: { uri: string }) {
      reads.push(uri);
      if (uri === "app://bin")
        return { contents: [{ uri, blob: Buffer.from([1, 2, 3]).toString("base64") }] };
      if (uri === "app://json") return { contents: [{ uri, text: '{"a":1}' }] };
      if (uri === "app://bad") return { contents: [{ uri, text: "{" }] };
      return { contents: [{ uri, text: `text of ${uri}` }] };
    },
  };
  const read = createResourceReader(client);

  it("returns text, bytes, parsed JSON, or the contents of a pulled resource", async () => {
    expect(await read({ name: "t", uri: "app://t", result: "text" })).toBe("text of app://t");
    expect(await read({ name: "b", uri: "app://bin", result: "blob" })).toStrictEqual(
      new Uint8Array([1, 2, 3]),
    );
    expect(await read({ name: "j", uri: "app://json", result: "json" })).toStrictEqual({ a: 1 });
    expect(await read({ name: "p", uri: "app://p" })).toStrictEqual([
      { uri: "app://p", text: "text of app://p" },
    ]);
    await expect(read({ name: "bad", uri: "app://bad", result: "json" })).rejects.toThrow(
      'resource "bad" (app://bad) is not JSON',
    );
  });

  it("validates a template's variables, then expands the template", async () => {
    const variables = createValidator(requireName, "variables of note");
    const spec = { name: "note", uriTemplate: "app://notes/{name}{?n}", variables, result: "text" } as const;
    expect(await read(spec, { name: "a b", n: 2 })).toBe("text of app://notes/a%20b?n=2");
    reads.length = 0;
    await expect(read(spec, { n: 2 })).rejects.toBeInstanceOf(ValidationError);
    expect(reads).toStrictEqual([]);
    const lenient = createResourceReader(client, { validateArguments: false });
    expect(await lenient(spec, {})).toBe("text of app://notes/");
  });
});

describe("createPromptGetter", () => {
  it("validates typed arguments and sends them as strings", async () => {
    const sent: unknown[] = [];
    const get = createPromptGetter({
      async getPrompt(params) {
        sent.push(params);
        return { messages: [{ role: "user", content: { type: "text", text: "hi" } }] };
      },
    });
    const input = createValidator(requireName, "arguments of greet");
    expect(
      await get({ name: "greet", input }, { name: "x", times: 2, loud: false, skip: undefined }),
    ).toStrictEqual([{ role: "user", content: { type: "text", text: "hi" } }]);
    expect(sent).toStrictEqual([{ name: "greet", arguments: { name: "x", times: "2", loud: "false" } }]);
    await expect(get({ name: "greet", input }, {})).rejects.toBeInstanceOf(ValidationError);
    expect(sent).toHaveLength(1);
  });
});
