#!/usr/bin/env node
// Runs the TypeScript sources through tsx's loader (tool modules and configs are TypeScript too).
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli/main.ts");
await main(process.argv);
