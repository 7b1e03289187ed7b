import type { LedgerService } from "./types.ts";

/** The demo's people; `alice` is the chat user (the default sender). */
export const DEMO_ACCOUNTS = ["alice", "bob", "carol", "dave"] as const;

/**
 * Gives each demo account that does not exist yet `amount` ETH from the faucet, so a fresh
 * database has someone to pay and be paid. Existing accounts are left alone.
 *
 * @example
 * await seedDemoAccounts(ledger); // alice, bob, carol and dave get 100 ETH each on first run
 */
export async function seedDemoAccounts(
  ledger: LedgerService,
  { accounts = DEMO_ACCOUNTS, amount = "100" }: { accounts?: readonly string[]; amount?: string } = {},
): Promise<string[]> {
  const existing = new Set((await ledger.listAccounts()).map((a) => a.address));
  const funded: string[] = [];
  for (const address of accounts) {
    if (existing.has(address)) continue;
    await ledger.mint({ address, amount });
    funded.push(address);
  }
  return funded;
}
