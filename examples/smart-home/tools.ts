import type { Int, Maximum, Minimum } from "@mcp-gen/runtime/tags";
import { type Device, type DeviceCommand, DeviceRegistry, type DeviceState } from "./registry.ts";

/** The registry the tools act on; tests may replace it with `useRegistry`. */
let registry = new DeviceRegistry();

/**
 * Replaces the device registry (for tests and demos).
 * @internal
 */
export function useRegistry(next: DeviceRegistry): void {
  registry = next;
}

/**
 * Search devices by natural-language query, e.g. "客厅 灯" (room and device type).
 * Returns the matching devices with the ids execute_commands needs.
 *
 * @param query Natural language search query
 * @param limit Maximum number of devices to return
 * @readOnly
 */
export async function search_devices(
  query: string,
  limit: Int & Minimum<1> & Maximum<50> = 5,
): Promise<Device[]> {
  return registry.search(query, limit);
}

/** Outcome of a command batch. */
export interface CommandResult {
  /** "ACCEPTED" when every command was applied. */
  status: "ACCEPTED" | "REJECTED";
  /** State of the device after the commands. */
  state: DeviceState;
  /** Why a command was rejected. */
  reason?: string;
}

/**
 * Execute commands on a device, e.g. switch it on or set its level.
 *
 * @param device_id Full id of the device (fullId from search_devices)
 * @param commands Commands to execute, in order
 * @destructive
 */
export async function execute_commands(device_id: string, commands: DeviceCommand[]): Promise<CommandResult> {
  const entry = registry.get(device_id);
  if (!entry)
    throw new Error(`no device with id "${device_id}"; call search_devices first to find its fullId`);
  for (const c of commands) {
    if (!entry.device.capabilities.includes(c.capability)) {
      return { status: "REJECTED", state: entry.state, reason: `device has no capability "${c.capability}"` };
    }
  }
  for (const c of commands) {
    if (c.capability === "switch") entry.state.switch = c.command === "on" ? "on" : "off";
    else if (c.capability === "switchLevel" && c.command === "setLevel")
      entry.state.level = Number(c.arguments?.[0] ?? 100);
    else if (c.capability === "lock") entry.state.lock = c.command === "unlock" ? "unlocked" : "locked";
    else if (c.capability === "thermostatCoolingSetpoint")
      entry.state.coolingSetpoint = Number(c.arguments?.[0] ?? 26);
  }
  return { status: "ACCEPTED", state: { ...entry.state } };
}

/** What an ambiguous command means for a device. */
export interface Interpretation {
  capability: string;
  command: string;
  arguments: (string | number)[];
  /** 0..1: how sure the interpretation is. */
  confidence: number;
}

/**
 * Interpret ambiguous natural language commands ("让灯光柔和一些") for a device with the given capabilities.
 *
 * @param user_input The user's words
 * @param device_capabilities Capabilities of the device, e.g. ["switch", "switchLevel"]
 * @param current_state Current device state, if known
 * @readOnly
 */
export async function interpret_command(
  user_input: string,
  device_capabilities: string[],
  current_state: object | null = null,
): Promise<Interpretation> {
  const state = (current_state ?? {}) as Record<string, unknown>;
  const level = typeof state.level === "number" ? state.level : 100;
  const text = user_input.toLowerCase();
  if (device_capabilities.includes("switchLevel") && /柔和|暗|dim|soft/.test(text)) {
    return {
      capability: "switchLevel",
      command: "setLevel",
      arguments: [Math.max(10, Math.round(level / 2))],
      confidence: 0.8,
    };
  }
  if (device_capabilities.includes("switchLevel") && /亮|bright/.test(text)) {
    return { capability: "switchLevel", command: "setLevel", arguments: [100], confidence: 0.8 };
  }
  if (device_capabilities.includes("switch") && /关|off/.test(text)) {
    return { capability: "switch", command: "off", arguments: [], confidence: 0.9 };
  }
  if (device_capabilities.includes("switch"))
    return { capability: "switch", command: "on", arguments: [], confidence: 0.6 };
  return {
    capability: device_capabilities[0] ?? "unknown",
    command: "refresh",
    arguments: [],
    confidence: 0.1,
  };
}
