// One JSON call with a bearer token to a local stack the script started itself (the browser
// tests' seed, the events crash test): any answer but 2xx is an error that names it.
export async function jsonCall<T>(
  baseUrl: string,
  method: string,
  urlPath: string,
  token: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const response = await fetch(`${baseUrl}${urlPath}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${urlPath} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}
