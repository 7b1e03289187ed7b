import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { connectHttp, oauthClientCredentials } from "@mcp-gen/runtime/client";
import { startScriptedModel } from "@mcp-gen/runtime/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AuthorizationServer,
  MACHINE,
  READER,
  startAuthorizationServer,
} from "../../../runtime/test/server/support/authorization-server.ts";
import { BIN, runCli } from "../support/cli.ts";
import { tempProject } from "../support/project.ts";

/**
 * Authorization end to end, through the CLI: a project whose tools carry `@scope` is built and
 * served by `mcp-gen serve --http --auth-issuer <oidc-provider>`; `mcp-gen pull --url` with client
 * credentials from the environment discovers the authorization server from the server's 401
 * (Protected Resource Metadata → authorization server metadata), gets a token for the server and
 * lists the tools its token may call; a typed-client connection calls a scoped tool.
 */
const TOOLS = `import type { ToolContext } from "@mcp-gen/runtime";

/**
 * Read the notes.
 * @scope notes:read
 */
export function read_notes(): string {
  return "a note";
}

/**
 * Write a note.
 * @scope notes:write
 * @param text The note
 */
export function write_note(text: string, ctx: ToolContext): string {
  return \`\${ctx.auth?.clientId} wrote \${text}\`;
}
`;

let as: AuthorizationServer;
let server: ChildProcess;
let url: string;
let dir: string;

beforeAll(async () => {
  as = await startAuthorizationServer();
  dir = tempProject({
    "mcp-gen.config.json": '{ "servers": { "notes": { "tools": ["src/tools.ts"] } } }\n',
    "package.json": '{ "type": "module", "private": true }\n',
    "src/tools.ts": TOOLS,
  });
  const built = await runCli(["build"], dir);
  expect(built.code, built.stderr).toBe(0);
  server = spawn(
    process.execPath,
    [BIN, "serve", "notes", "--http", "--port", "0", "--auth-issuer", as.issuer],
    {
      cwd: dir,
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  url = await new Promise<string>((resolve, reject) => {
    let err = "";
    server.stderr!.on("data", (chunk: Buffer) => {
      err += chunk;
      const match = /serving notes \(\d+ tools\) on (\S+)/.exec(err);
      if (match) resolve(match[1]!);
    });
    server.once("exit", () => reject(new Error(`mcp-gen serve exited: ${err}`)));
  });
});
afterAll(async () => {
  server?.kill();
  await as?.close();
});

const credentials = (client: typeof MACHINE) => ({
  ...process.env,
  MCP_GEN_OAUTH_CLIENT_ID: client.clientId,
  MCP_GEN_OAUTH_CLIENT_SECRET: client.clientSecret,
  MCP_GEN_OAUTH_ISSUER: as.issuer,
});

describe("mcp-gen serve --auth-issuer, pulled and called with OAuth client credentials", () => {
  it("builds the scopes into the contract and the served manifest", () => {
    const contract = JSON.parse(readFileSync(path.join(dir, "schemas/notes.tools.json"), "utf8"));
    expect(contract["x-mcp-gen"].tools.write_note.scopes).toStrictEqual(["notes:write"]);
    expect(readFileSync(path.join(dir, "generated/notes/server.ts"), "utf8")).toContain(
      'scopes: ["notes:write"],',
    );
  });

  it("refuses a pull without credentials (401)", async () => {
    const refused = await runCli(["pull", "anonymous", "--url", url], dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("HTTP 401");
  });

  it("pulls with client credentials from the environment: the tools the token may call", async () => {
    const pulled = await runCli(["pull", "remote", "--url", url], dir, credentials(MACHINE));
    expect(pulled.stderr).toBe("");
    expect(pulled.code).toBe(0);
    const contract = JSON.parse(readFileSync(path.join(dir, "schemas/remote.tools.json"), "utf8"));
    expect(contract.tools.map((t: { name: string }) => t.name)).toStrictEqual(["read_notes", "write_note"]);
    // The secret is never recorded.
    expect(JSON.stringify(contract)).not.toContain(MACHINE.clientSecret);
  });

  it("half the credentials is an error that says what is missing", async () => {
    const { MCP_GEN_OAUTH_CLIENT_SECRET: _, ...env } = credentials(MACHINE);
    const r = await runCli(["pull", "remote", "--url", url], dir, env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("MCP_GEN_OAUTH_CLIENT_SECRET is not set");
  });

  it.each([
    "2026-07-28",
    "legacy",
  ] as const)("calls a scoped tool; the tool sees the caller (%s)", async (protocol) => {
    const connection = await connectHttp(url, {
      protocol,
      authProvider: oauthClientCredentials({
        clientId: MACHINE.clientId,
        clientSecret: MACHINE.clientSecret,
        issuer: as.issuer,
      }),
    });
    try {
      const result = await connection.client.callTool({ name: "write_note", arguments: { text: "hi" } });
      expect(result.content).toStrictEqual([{ type: "text", text: "machine wrote hi" }]);
    } finally {
      await connection.close();
    }
  });

  it("a client allowed fewer scopes than the metadata lists is refused a token (invalid_scope)", async () => {
    const pulled = await runCli(["pull", "reader", "--url", url], dir, {
      ...credentials(READER),
      MCP_GEN_OAUTH_SCOPE: "notes:read",
    });
    // The metadata lists notes:write too, which the reader may not ask for: the authorization
    // server refuses the token request (invalid_scope).
    expect(pulled.code).toBe(1);
    expect(pulled.stderr.split("\n")[0]).toBe(
      `error MCPG092: ${url} needs authorization, which failed: requested scope is not allowed`,
    );
  });

  it("chat --mcp <url> reaches the server with the same credentials", async () => {
    const scripted = await startScriptedModel({
      script: [
        { toolCalls: [{ name: "remote__write_note", arguments: { text: "from chat" } }] },
        (r) => ({ text: r.toolResults[0]!.content }),
      ],
    });
    try {
      const env: NodeJS.ProcessEnv = credentials(MACHINE);
      for (const key of Object.keys(env)) if (/^(ANTHROPIC|OPENAI)_/.test(key)) delete env[key];
      const chat = await runCli(["chat", "notes", "write", "--yes", "--mcp", `remote=${url}`], dir, {
        ...env,
        ...scripted.env(),
      });
      expect({ code: chat.code, stdout: chat.stdout }).toStrictEqual({
        code: 0,
        stdout: "machine wrote from chat\n",
      });
    } finally {
      await scripted.close();
    }
  });
});
