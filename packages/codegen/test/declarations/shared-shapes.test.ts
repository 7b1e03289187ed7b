import { type ApiTool, renderDeclarations } from "@mcp-gen/schema";
import { describe, expect, it } from "vitest";

/** What the model's form declares once: recurring shapes, shapes that others extend, recurring scalars. */
const ID = { type: "string", pattern: "^[a-z0-9]{8}-[a-z0-9]{4}-[a-z0-9]{4}$" };
const user = (description: string) => ({
  type: "object",
  description,
  properties: { id: ID, name: { type: "string", description: "Full name" } },
  required: ["id", "name"],
  additionalProperties: false,
});
/** The lines inside the namespace. */
const compact = (tools: ApiTool[]) => {
  const lines = renderDeclarations([{ name: "crm", tools }], { compact: true }).split("\n");
  return lines.slice(lines.indexOf("declare namespace crm {") + 1, -2);
};

describe("the model's form names what recurs", () => {
  it("shares a shape whatever its own description, between one tool's result and another's arguments", () => {
    expect(
      compact([
        { name: "find", inputSchema: { type: "object" }, outputSchema: user("The user found") },
        {
          name: "save",
          inputSchema: { type: "object", properties: { user: user("The user to save") }, required: ["user"] },
        },
      ]),
    ).toStrictEqual([
      // named after the property that holds it; its `id` occurs once, in it
      "interface User {",
      "// matches /^[a-z0-9]{8}-[a-z0-9]{4}-[a-z0-9]{4}$/",
      "id:string;",
      "// Full name",
      "name:string}",
      // the result's words right before its type
      "function find():// The user found",
      "Promise<User>;",
      "function save(args:{",
      "// The user to save",
      "user:User}):Promise<unknown>;",
    ]);
  });

  it("prints an object that adds properties to a shared shape as Shape&{…}, only when they agree", () => {
    const more = (required: string[]) => ({
      type: "object",
      properties: { ...user("").properties, admin: { type: "boolean" } },
      required,
      additionalProperties: false,
    });
    const tools = (required: string[]): ApiTool[] => [
      { name: "a", inputSchema: { type: "object" }, outputSchema: user("") },
      { name: "b", inputSchema: { type: "object" }, outputSchema: user("") },
      { name: "c", inputSchema: { type: "object" }, outputSchema: more(required) },
    ];
    expect(compact(tools(["id", "name", "admin"])).at(-1)).toBe(
      "function c():Promise<AResult&{admin:boolean}>;",
    );
    // `name` optional here: not the shape's property, so the object is printed whole
    expect(compact(tools(["id", "admin"])).slice(-5)).toStrictEqual([
      "function c():Promise<{",
      "id:Id;",
      "// Full name",
      "name?:string;",
      "admin:boolean}>;",
    ]);
  });

  it("names a recurring scalar only when the words it saves outweigh the alias", () => {
    const at = { type: "string", format: "date-time" };
    const text = compact([
      {
        name: "when",
        inputSchema: {
          type: "object",
          properties: { from: { ...at, description: "Start" }, to: at, id: ID, other: ID },
        },
      },
    ]);
    expect(text).toStrictEqual([
      "// matches /^[a-z0-9]{8}-[a-z0-9]{4}-[a-z0-9]{4}$/",
      "type Id = string;",
      "function when(args:{",
      "// Start (format date-time)",
      "from?:string;",
      "// format date-time",
      "to?:string;",
      "id?:Id;",
      "other?:Id}):Promise<unknown>;",
    ]);
  });
});
