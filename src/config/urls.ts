// URL variables: production talks to the provider, the key sets and the alert receiver over
// TLS only, so a plain-http URL there is a configuration problem, not a choice.

/** A problem with URL variable `name`, or null. Local runs also accept http: (stub servers). */
export function urlProblem(name: string, raw: string, production: boolean): string | null {
  const url = URL.parse(raw.trim());
  if (url === null || (url.protocol !== "https:" && url.protocol !== "http:")) return `${name} must be an https: URL`;
  if (production && url.protocol !== "https:") return `${name} must be an https: URL in production`;
  return null;
}
