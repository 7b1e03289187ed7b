/**
 * `npm run ledger`: the ledger's web chat on http://127.0.0.1:8787/ with the SQLite default.
 *
 * The model comes from the environment, as for `mcp-gen chat`: `ANTHROPIC_API_KEY` (and
 * `ANTHROPIC_BASE_URL` for a Messages-compatible endpoint), else `OPENAI_API_KEY` (and
 * `OPENAI_BASE_URL`); `LEDGER_PROVIDER` (anthropic | openai) and `LEDGER_MODEL` choose explicitly.
 * `LEDGER_DB` picks the database (a SQLite file or a postgres:// URL), `LEDGER_WEB_PORT` the port.
 */
import { type ChatProvider, chatModel } from "@mcp-gen/codegen/chat";
import { DEFAULT_DATABASE } from "../service/index.ts";
import { startLedgerWeb } from "./server.ts";

const fail = (message: string): never => {
  process.stderr.write(`ledger web chat: ${message}\n`);
  process.exit(1);
};

const provider = process.env.LEDGER_PROVIDER || undefined;
if (provider !== undefined && provider !== "anthropic" && provider !== "openai")
  fail(`LEDGER_PROVIDER is "${provider}"; use anthropic or openai`);
const portText = process.env.LEDGER_WEB_PORT || "8787";
const port = Number(portText);
if (!/^\d+$/.test(portText) || port > 65535)
  fail(`LEDGER_WEB_PORT is "${portText}"; use a port number (0: any)`);

let model: ReturnType<typeof chatModel>;
try {
  model = chatModel({
    ...(provider ? { provider: provider as ChatProvider } : {}),
    ...(process.env.LEDGER_MODEL ? { model: process.env.LEDGER_MODEL } : {}),
  });
} catch (error) {
  const reason = (error as Error).message.split("\n")[0]!.replace(/^error MCPG\d+: /, "");
  fail(
    `no model to talk to (${reason}).\n` +
      "  Set ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL for a Messages-compatible endpoint), or\n" +
      "  OPENAI_API_KEY (and OPENAI_BASE_URL for an OpenAI-compatible one); LEDGER_PROVIDER=anthropic|openai\n" +
      "  and LEDGER_MODEL=<model id> choose explicitly.",
  );
  throw error;
}

const database = process.env.LEDGER_DB || DEFAULT_DATABASE;
const web = await startLedgerWeb({ model, port, database }).catch((error: NodeJS.ErrnoException) =>
  fail(
    error.code === "EADDRINUSE"
      ? `port ${port} on 127.0.0.1 is in use; set LEDGER_WEB_PORT to another port (0: any free one)`
      : error.message,
  ),
);
const shown = /^postgres(ql)?:/.test(database) ? database.replace(/\/\/[^@/]*@/, "//…@") : database;
process.stdout.write(
  `Ledger web chat: ${web.url}\n  model ${model.provider} ${model.model}; ledger ${shown} (via mcp-gen serve ledger over stdio)\n`,
);
const stop = () => void web.close().then(() => process.exit(0));
process.once("SIGINT", stop).once("SIGTERM", stop);
