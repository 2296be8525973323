// The fault side of the test harness: a second WebSocket proxy that relays through the fault
// switchboard, and its control endpoint. Only the chaos tests point their Worker at this proxy,
// so the rest of the suite keeps the plain one and never sees a fault.
import { writeFile } from "node:fs/promises";
import { startWsProxy } from "../ws-proxy.ts";
import { startFaultControl } from "./control.ts";
import { FaultRules } from "./rules.ts";

export interface FaultHarness {
  /** NEON_WS_PROXY for the chaos tests' Worker. */
  proxyAddress: string;
  /** Where tests switch faults and tally what they did. */
  controlUrl: string;
  /** Writes the tally (faults injected, counters) as JSON to `reportPath` when given, then stops. */
  stop(reportPath?: string): Promise<void>;
}

export async function startFaultHarness(): Promise<FaultHarness> {
  const rules = new FaultRules();
  const control = await startFaultControl(rules);
  const proxy = await startWsProxy(0, { faults: rules });
  return {
    proxyAddress: proxy.address,
    controlUrl: control.url,
    stop: async (reportPath) => {
      if (reportPath !== undefined && reportPath !== "") {
        await writeFile(reportPath, `${JSON.stringify(control.tally(), null, 2)}\n`);
      }
      await proxy.close();
      await control.close();
    },
  };
}
