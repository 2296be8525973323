// TransferSaga: one Durable Object per transfer (filled in by the saga issue).
import { DurableObject } from "cloudflare:workers";
import type { Env } from "./env.ts";

export type PokeSource = "webhook" | "sweeper";

export class TransferSaga extends DurableObject<Env> {
  /** Check the provider now (a webhook arrived, or the sweeper found the saga overdue). */
  async poke(_source: PokeSource): Promise<{ state: string | null }> {
    return { state: null };
  }
}
