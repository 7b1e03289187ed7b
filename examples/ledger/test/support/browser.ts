import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

/** Debian's Chromium, which `npm test` installs (.ci/chromium.sh); `LEDGER_CHROMIUM` points at another build. */
export const CHROMIUM = process.env.LEDGER_CHROMIUM || "/usr/bin/chromium";
/** Local opt-out of the browser test; CI never sets it. */
export const BROWSER_SKIP = process.env.LEDGER_BROWSER_SKIP === "1";
export const BROWSER_MISSING =
  `Chromium is not installed at ${CHROMIUM}, so the ledger's browser test cannot run. Install Debian's ` +
  "package (`apt-get install -y chromium`, as npm test does when run as root), point LEDGER_CHROMIUM at another Chromium, " +
  "or set LEDGER_BROWSER_SKIP=1 to skip this test locally.";

/** A headless Chromium with a fresh profile in a temp dir, removed on close. */
export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  if (!existsSync(CHROMIUM)) throw new Error(BROWSER_MISSING);
  const profile = mkdtempSync(path.join(os.tmpdir(), "ledger-chromium-"));
  try {
    // playwright-core adds --headless and --user-data-dir=<profile>.
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    return {
      context,
      async close() {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
}
