import { compileUriTemplate } from "@mcp-gen/schema/uri-template";
import { describe, expect, it } from "vitest";

const match = (template: string, uri: string) => compileUriTemplate(template).match(uri);

describe("compileUriTemplate: matching URIs (RFC 6570 levels 1–3)", () => {
  it("reads simple variables between literals", () => {
    expect(match("test://template/{id}/data", "test://template/123/data")).toStrictEqual({ id: "123" });
    expect(match("users://{org}/{user}", "users://acme/ada")).toStrictEqual({ org: "acme", user: "ada" });
  });

  it("percent-decodes values, and refuses a malformed escape", () => {
    expect(match("notes://{title}", "notes://hello%20world%2Fx")).toStrictEqual({ title: "hello world/x" });
    expect(match("notes://{title}", "notes://caf%C3%A9")).toStrictEqual({ title: "café" });
    expect(match("notes://{title}", "notes://bad%E0%A4")).toBeUndefined();
  });

  it("matches the whole URI only", () => {
    expect(match("test://template/{id}/data", "test://template/123/data/more")).toBeUndefined();
    expect(match("test://template/{id}/data", "xtest://template/123/data")).toBeUndefined();
    expect(match("test://template/{id}/data", "test://template//data")).toBeUndefined();
    expect(match("test://static", "test://static")).toStrictEqual({});
  });

  it("keeps a simple value within one segment; a reserved value may span several", () => {
    expect(match("files://{path}", "files://a/b")).toBeUndefined();
    expect(match("files://{+path}", "files://a/b/c.txt")).toStrictEqual({ path: "a/b/c.txt" });
    expect(match("files://{+path}/raw", "files://a/b/raw")).toStrictEqual({ path: "a/b" });
  });

  it("reads several variables of one expression", () => {
    expect(match("map://{x,y}", "map://3,4")).toStrictEqual({ x: "3", y: "4" });
    expect(match("map://{x,y}", "map://3")).toStrictEqual({ x: "3" });
    expect(match("map://{+a,b}", "map://p/q,r")).toStrictEqual({ a: "p/q", b: "r" });
  });

  it("reads fragments, labels and path segments", () => {
    expect(match("doc://page{#section}", "doc://page#intro")).toStrictEqual({ section: "intro" });
    expect(match("file://report{.ext}", "file://report.pdf")).toStrictEqual({ ext: "pdf" });
    expect(match("host://www{.domain,tld}", "host://www.example.com")).toStrictEqual({
      domain: "example",
      tld: "com",
    });
    expect(match("repo://x{/owner,name}", "repo://x/acme/tools")).toStrictEqual({
      owner: "acme",
      name: "tools",
    });
    expect(match("repo://x{/owner,name}", "repo://x/acme")).toBeUndefined();
  });

  it("reads path parameters, absent or empty ones too", () => {
    expect(match("map://point{;x,y}", "map://point;x=1;y=2")).toStrictEqual({ x: "1", y: "2" });
    expect(match("map://point{;x,y}", "map://point;x=1")).toStrictEqual({ x: "1" });
    expect(match("map://point{;x,y}", "map://point;x;y=%20")).toStrictEqual({ x: "", y: " " });
    expect(match("map://point{;x}", "map://point;xy=1")).toBeUndefined();
  });

  it("reads query parameters in any order, ignoring unknown ones, absent ones left out", () => {
    const t = "search://items{?q,limit}";
    expect(match(t, "search://items?q=lamp&limit=5")).toStrictEqual({ q: "lamp", limit: "5" });
    expect(match(t, "search://items?limit=5&q=a%26b")).toStrictEqual({ limit: "5", q: "a&b" });
    expect(match(t, "search://items?q=lamp&page=2")).toStrictEqual({ q: "lamp" });
    expect(match(t, "search://items")).toStrictEqual({});
    expect(match(t, "search://items?q")).toStrictEqual({ q: "" });
    expect(match(t, "search://other?q=1")).toBeUndefined();
  });

  it("reads query continuations, after a literal query or a query expression", () => {
    expect(match("search://items?fixed=1{&q}", "search://items?fixed=1&q=x")).toStrictEqual({ q: "x" });
    expect(match("search://items?fixed=1{&q}", "search://items?fixed=1")).toStrictEqual({});
    expect(match("search://{kind}{?q}{&page}", "search://books?q=go&page=3")).toStrictEqual({
      kind: "books",
      q: "go",
      page: "3",
    });
  });

  it("reads level 4 modifiers as plain variables", () => {
    expect(match("x://{name:3}/{list*}", "x://abc/a")).toStrictEqual({ name: "abc", list: "a" });
  });

  it("escapes the literals' regular expression characters", () => {
    expect(match("a+b://(x)/{id}.json", "a+b://(x)/7.json")).toStrictEqual({ id: "7" });
    expect(match("a+b://(x)/{id}.json", "aab://(x)/7.json")).toBeUndefined();
  });

  it("lists the variables in order", () => {
    expect(compileUriTemplate("x://{a}/{+b}{?c,d}{&e}").variables).toStrictEqual(["a", "b", "c", "d", "e"]);
  });

  it("refuses malformed templates, naming them", () => {
    expect(() => compileUriTemplate("x://{id")).toThrow(
      `mcp-gen: the URI template "x://{id" has a '{' without its '}'`,
    );
    expect(() => compileUriTemplate("x://id}")).toThrow(
      `mcp-gen: the URI template "x://id}" has a '}' without its '{'`,
    );
    expect(() => compileUriTemplate("x://{}")).toThrow(
      `mcp-gen: the URI template "x://{}" has an invalid variable ""`,
    );
    expect(() => compileUriTemplate("x://{a b}")).toThrow(`has an invalid variable "a b"`);
  });

  it("matches no URI longer than 16 KiB", () => {
    expect(match("x://{+rest}", `x://${"a".repeat(16 * 1024)}`)).toBeUndefined();
    expect(match("x://{+rest}", `x://${"a".repeat(100)}`)).toStrictEqual({ rest: "a".repeat(100) });
  });
});
