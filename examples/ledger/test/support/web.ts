import { anthropicModel } from "@mcp-gen/runtime/anthropic";
import { openaiModel } from "@mcp-gen/runtime/openai";
import { type ScriptedModel, type ScriptStep, startScriptedModel } from "@mcp-gen/runtime/testing";
import { formatEth, type LedgerService } from "../../service/index.ts";
import { type LedgerWeb, startLedgerWeb } from "../../web/server.ts";
import { type DatabaseFixture, sqliteDatabase } from "./backends.ts";

/** The web chat on a fresh SQLite file, its model a scripted endpoint on 127.0.0.1. */
export interface WebFixture {
  web: LedgerWeb;
  model: ScriptedModel;
  db: DatabaseFixture;
  /** The test's own connection to the database (opened after the server funded the demo accounts). */
  ledger: LedgerService;
  close(): Promise<void>;
}

/**
 * Starts the whole chain for real: scripted model ← official SDK ← agent → MCP client →
 * `mcp-gen serve ledger` (child process, stdio) → LedgerService → SQLite.
 */
export async function startWebFixture(
  options: { dialect?: "anthropic" | "openai"; script?: ScriptStep[] } = {},
): Promise<WebFixture> {
  const model = await startScriptedModel({ script: options.script ?? [] });
  const db = await sqliteDatabase();
  const provider =
    options.dialect === "openai"
      ? openaiModel({ model: "scripted", apiKey: "test", baseURL: model.openaiBaseURL })
      : anthropicModel({ model: "scripted", apiKey: "test", baseURL: model.anthropicBaseURL });
  const web = await startLedgerWeb({
    model: provider,
    port: 0,
    database: db.database,
  });
  const ledger = await db.open();
  return {
    web,
    model,
    db,
    ledger,
    async close() {
      await web.close();
      await model.close();
      await ledger.close();
      await db.dispose();
    },
  };
}

/** The scripted model of "给 bob 转 10 ETH": a transfer call, then a reply that reads its result. */
export function transferScript(): ScriptStep[] {
  return [
    {
      text: "好的，给 bob 转 10 ETH。",
      toolCalls: [{ name: "transfer_eth", arguments: { to_address: "bob", amount: "10" } }],
    },
    (request) => {
      const result = request.toolResults[0];
      if (!result || result.isError) return { text: `没有转账：${result?.content ?? "no result"}` };
      const receipt = JSON.parse(result.content) as { tx_id: number; sender_balance: string };
      return {
        text: `已向 bob 转账 10 ETH（交易 #${receipt.tx_id}），你的余额还有 ${receipt.sender_balance} ETH。`,
      };
    },
  ];
}

/** Every balance in ETH, by address. */
export async function balancesOf(ledger: LedgerService): Promise<Record<string, string>> {
  return Object.fromEntries((await ledger.listAccounts()).map((a) => [a.address, formatEth(a.balanceWei)]));
}
