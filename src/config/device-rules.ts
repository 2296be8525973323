// DEVICE_RULES (CONTRACT §1, §2 "Devices"): whether client tokens must name their device and an
// unregistered device is capped. A Central Bank rule, so it fails closed: unset means `on` in
// production (the sandbox off) and `off` only where the sandbox is on; any other value than
// `on` or `off` is a configuration problem rather than a guess.

export interface DeviceRulesSource {
  DEVICE_RULES?: string | undefined;
  SANDBOX_PROVIDER?: string | undefined;
}

export function readDeviceRules(env: DeviceRulesSource): boolean {
  const raw = env.DEVICE_RULES?.trim() ?? "";
  if (raw === "") return env.SANDBOX_PROVIDER !== "on";
  if (raw === "on") return true;
  if (raw === "off") return false;
  throw new Error(`configuration: DEVICE_RULES must be on or off, got ${JSON.stringify(raw)}`);
}
