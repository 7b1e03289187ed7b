/** A device as the SmartThings-style registry of the seed describes it. */
export interface Device {
  /** Short id shown to users. */
  id: string;
  /** Full device id: pass this to execute_commands. */
  fullId: string;
  name: string;
  room: string;
  type: string;
  capabilities: string[];
}

/** One command sent to a device component. */
export interface DeviceCommand {
  /** Component of the device, usually "main". */
  component: string;
  /** Capability the command belongs to, e.g. "switch" or "switchLevel". */
  capability: string;
  /** Command name, e.g. "on", "off", "setLevel". */
  command: string;
  /** Command arguments, e.g. [50] for setLevel. */
  arguments?: (string | number | boolean)[];
}

export interface DeviceState {
  [capability: string]: string | number | boolean;
}

interface Entry {
  device: Device;
  state: DeviceState;
}

/** An in-memory device registry standing in for the SmartThings API of the seed. */
export class DeviceRegistry {
  private readonly entries = new Map<string, Entry>();

  constructor(devices: readonly Device[] = DEMO_DEVICES) {
    for (const device of devices) this.entries.set(device.fullId, { device, state: initialState(device) });
  }

  /** Devices whose name, room or type contains every word of the query (words split on spaces). */
  search(query: string, limit: number): Device[] {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const matches = [...this.entries.values()]
      .map((e) => e.device)
      .filter((d) => {
        const haystack = `${d.name} ${d.room} ${d.type} ${TYPE_WORDS[d.type] ?? ""}`.toLowerCase();
        return words.every((w) => haystack.includes(w));
      });
    return matches.slice(0, limit);
  }

  get(fullId: string): Entry | undefined {
    return this.entries.get(fullId);
  }
}

/** Chinese words users say for each device type, so "客厅 灯" finds the living-room light. */
const TYPE_WORDS: Record<string, string> = {
  switch: "灯 light lamp",
  thermostat: "空调 温度 thermostat",
  lock: "锁 门锁 lock",
};

function initialState(device: Device): DeviceState {
  const state: DeviceState = {};
  if (device.capabilities.includes("switch")) state.switch = "off";
  if (device.capabilities.includes("switchLevel")) state.level = 100;
  if (device.capabilities.includes("lock")) state.lock = "locked";
  if (device.capabilities.includes("thermostatCoolingSetpoint")) state.coolingSetpoint = 26;
  return state;
}

export const DEMO_DEVICES: readonly Device[] = [
  {
    id: "abc123",
    fullId: "uuid-abc123",
    name: "客厅吸顶灯",
    room: "客厅",
    type: "switch",
    capabilities: ["switch", "switchLevel"],
  },
  {
    id: "def456",
    fullId: "uuid-def456",
    name: "卧室台灯",
    room: "卧室",
    type: "switch",
    capabilities: ["switch", "switchLevel"],
  },
  {
    id: "ghi789",
    fullId: "uuid-ghi789",
    name: "客厅空调",
    room: "客厅",
    type: "thermostat",
    capabilities: ["switch", "thermostatCoolingSetpoint"],
  },
  {
    id: "jkl012",
    fullId: "uuid-jkl012",
    name: "前门门锁",
    room: "玄关",
    type: "lock",
    capabilities: ["lock"],
  },
];
