// ProviderHealth: one Durable Object per provider configuration
// (`env.PROVIDER_HEALTH.getByName(providerConfiguration(env))`) keeping whether the PSP is
// degraded and which alerts were sent (provider-health.ts decides). One object, so two sweeps
// that observe at once still send each alert once: its calls run one after the other.
import { DurableObject } from "cloudflare:workers";
import type { ProviderCallFigures } from "../transfers/provider-call-figures.ts";
import { type HealthObservation, healthyProvider, observeProviderHealth, type ProviderHealthState } from "./provider-health.ts";

const stateKey = "state";

export class ProviderHealth extends DurableObject<Env> {
  /** The figures of the window ending at `nowMs`: the next state, stored, and the alert to send. */
  async observe(figures: ProviderCallFigures, nowMs: number): Promise<HealthObservation> {
    const observation = observeProviderHealth(await this.state(), figures, nowMs);
    // Not awaited: the output gate holds the answer until the write is durable.
    void this.ctx.storage.put(stateKey, observation.state);
    return observation;
  }

  async state(): Promise<ProviderHealthState> {
    return (await this.ctx.storage.get<ProviderHealthState>(stateKey)) ?? healthyProvider;
  }
}
