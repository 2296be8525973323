// Outbound events' configuration (CONTRACT §1, §6), parsed and bounded once, by parseConfig
// (src/config/parse.ts): a receiver URL without its own secret or a non-https receiver with the
// sandbox off is a configuration problem, never a silent skip. That the secret is not a
// WEBHOOK_SECRET key is src/config/secret-reuse.ts's rule.
import { readTunable } from "./tunables.ts";

export interface EventsSource {
  EVENTS_URL?: string | undefined;
  EVENTS_SECRET?: string | undefined;
  EVENTS_RETRY_FIRST_MS?: string | undefined;
  SANDBOX_PROVIDER?: string | undefined;
}

/** Unset EVENTS_URL: events are kept in the outbox, not sent. */
export type EventsConfig = { delivery: "off" } | { delivery: "on"; url: string; secret: string; retryFirstMs: number };

/** A whsec_ secret carries at least 16 bytes of key: 24 base64 characters. */
const secretPattern = /^whsec_[A-Za-z0-9+/]{24,}={0,2}$/;

export function readEventsConfig(source: EventsSource): EventsConfig {
  const raw = source.EVENTS_URL?.trim() ?? "";
  if (raw === "") return { delivery: "off" };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error("configuration: EVENTS_URL must be an absolute URL");
  }
  const sandbox = source.SANDBOX_PROVIDER === "on";
  if (url.protocol !== "https:" && !(sandbox && url.protocol === "http:")) {
    throw new Error("configuration: EVENTS_URL must be https: (http: only with SANDBOX_PROVIDER=on)");
  }
  const secret = source.EVENTS_SECRET?.trim() ?? "";
  if (!secretPattern.test(secret)) throw new Error("configuration: EVENTS_SECRET must be whsec_<base64> when EVENTS_URL is set");
  const retryFirstMs = readTunable("EVENTS_RETRY_FIRST_MS", source.EVENTS_RETRY_FIRST_MS);
  return { delivery: "on", url: url.toString(), secret, retryFirstMs };
}
