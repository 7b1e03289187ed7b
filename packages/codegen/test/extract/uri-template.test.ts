import { McpGenError } from "@mcp-gen/schema";
import { describe, expect, it } from "vitest";
import { checkContract } from "../../src/contract/read.ts";
import { isUriTemplate, parseResourceTemplate, uriProblem } from "../../src/extract/uri-template.ts";

describe("RFC 6570 URI templates", () => {
  it.each([
    ["app://items/{id}", ["id"]],
    ["file:///{+path}", ["path"]],
    ["app://x{#frag}{/a,b}{.ext}{;p}{?q,r}{&s}", ["frag", "a", "b", "ext", "p", "q", "r", "s"]],
    ["app://x/{id}/again/{id}", ["id"]],
    ["app://x/{name:3}/{list*}", ["name", "list"]],
  ])("reads the variables of %s", (template, variables) => {
    expect(isUriTemplate(template)).toBe(true);
    expect(parseResourceTemplate(template)).toEqual({ variables });
  });

  it.each([
    ["items/{id}", "scheme"],
    ["app://items/{id", "not closed"],
    ["app://items/id}", "closes no expression"],
    ["app://items/{}", "names no variable"],
    ["app://items/{|id}", "reserved"],
    ["app://items/{a-b}", "not a variable name"],
    ["app://items/{a b}", "not a variable name"],
  ])("refuses %s", (template, problem) => {
    const parsed = parseResourceTemplate(template);
    expect("error" in parsed && parsed.error).toContain(problem);
  });

  it("checks static URIs", () => {
    expect(isUriTemplate("app://status")).toBe(false);
    expect(uriProblem("app://status")).toBeUndefined();
    expect(uriProblem("status")).toContain("scheme");
    expect(uriProblem("app://a b")).toContain("white space");
  });
});

describe("contract lists", () => {
  const base = { server: "s", tools: [] };
  it("accepts resources, templates and prompts in MCP list shape", () => {
    const contract = {
      ...base,
      resources: [{ uri: "app://a", name: "a", mimeType: "text/plain" }],
      resourceTemplates: [{ uriTemplate: "app://a/{x}", name: "ax" }],
      prompts: [{ name: "p", arguments: [{ name: "x", required: true }] }],
    };
    expect(checkContract(contract, "c.json")).toBe(contract);
  });

  it("names every problem with its pointer", () => {
    const error = (() => {
      try {
        checkContract(
          {
            ...base,
            resources: [{ name: "a", extra: 1 }],
            resourceTemplates: {},
            prompts: [{ name: "p" }, { name: "p", arguments: [{}] }],
          },
          "c.json",
        );
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(McpGenError);
    expect((error as McpGenError).diagnostics.map((d) => `${d.pointer} ${d.message}`)).toEqual([
      '/resources/0/extra unknown field "extra"',
      '/resources/0/uri "uri" must be a non-empty string',
      '/resourceTemplates "resourceTemplates" must be an array in MCP list shape',
      '/prompts/1/name duplicate name "p"',
      '/prompts/1/arguments/0 an argument must be an object with a "name"',
    ]);
  });
});
