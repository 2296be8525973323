// TransferSaga: one Durable Object per transfer (filled in by the saga issue).
import { DurableObject } from "cloudflare:workers";
import type { Env } from "./env.ts";

export class TransferSaga extends DurableObject<Env> {}
