// RFC 9457 problem+json: the one shape every error of the API has (CONTRACT §2).
//
//   return problem(c, 409, { type: "conflict", detail: "This credit was already approved." });
//   return notFound(c, "No such transfer.");
//   throw new ProblemError(409, { type: "conflict", detail: "Only a transfer in needs_review can be resolved." });
//   installProblemHandlers(app);   // onError + notFound answer problems; unknown errors -> 500 `internal`
//   app.use(rejectWrongMethods(app)); // 405 + Allow for a known path with a wrong method, from app.routes
//   app.all("/v1/balance", methodNotAllowed(["GET"]));  // the same, spelled out per path, after its routes
//
// `type` is a slug; the body carries the full URI `https://pix-cashout.dev/problems/<slug>`.
import type { Context, Env, Handler, Hono, MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { methodNotAllowed as honoMethodNotAllowed } from "hono/method-not-allowed";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { log, requestIdOf } from "../lib/log.ts";
import { isDatabaseUnreachable } from "./database-unreachable.ts";

export const problemTypeBase = "https://pix-cashout.dev/problems/";

const defaultTitles = {
  "validation-failed": "Your request is not valid",
  /** Any other 4xx with no more specific type (e.g. an HTTPException from a hono middleware). */
  "bad-request": "Request not acceptable",
  unauthorized: "Authentication required",
  forbidden: "Not allowed",
  "not-found": "Not found",
  "method-not-allowed": "Method not allowed",
  "payload-too-large": "Request body too large",
  /** An operator write whose body is not labelled application/json (CONTRACT §5: 415). */
  "unsupported-media-type": "Unsupported media type",
  "idempotency-key-reused": "Idempotency key reused with a different request",
  /** A Pix Copia e Cola that is malformed, has a wrong CRC or breaks a field's rules (400). */
  "invalid-br-code": "Invalid BR Code",
  /** A well-formed dynamic BR Code that the provider refused to resolve: expired, paid, unknown (422). */
  "br-code-unresolvable": "BR Code cannot be paid",
  "idempotency-key-in-use": "A request with this idempotency key is in progress",
  /** PUT /v1/trusted-recipients past the account's 50 (422): nothing was written. */
  "too-many-trusted-recipients": "Too many trusted recipients",
  /** An account already has devicesPerAccountMax devices (src/devices/bounds.ts): one must be removed first (422). */
  "too-many-devices": "Too many devices",
  /** MAX_PENDING_SCHEDULED scheduled transfers already wait for this account (422). */
  "too-many-scheduled": "Too many scheduled transfers",
  conflict: "Conflict",
  "rate-limited": "Too many requests",
  internal: "Internal error",
  /** A dependency we cannot do without (the JWKS issuer, the database) is down; retry later. */
  unavailable: "Temporarily unavailable",
  /** The provider publishes no directory lookup (Efí): GET /v1/pix-keys/:key cannot answer. */
  "lookup-unsupported": "Directory lookup not available",
  /** The configuration has problems (CONTRACT §1): nothing is served until a deploy fixes it. */
  misconfigured: "Service not configured",
} as const;

export type ProblemSlug = keyof typeof defaultTitles;
export const problemSlugs = Object.keys(defaultTitles) as ProblemSlug[];

/** One invalid input: `field` is a dotted path into the input (`""` for the input as a whole). */
export type FieldError = { field: string; message: string };

export type ProblemInit = {
  type: ProblemSlug;
  /** Defaults to a fixed title per type; the RFC wants one title per type, so override rarely. */
  title?: string;
  /** For humans, about this occurrence. Never internals: it goes to the client verbatim. */
  detail: string;
  errors?: readonly FieldError[];
  /** e.g. `Allow`, `WWW-Authenticate`, `Retry-After`. */
  headers?: Record<string, string>;
};

export type ProblemBody = {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: FieldError[];
  /** Extension member: the `X-Request-Id` of this response, to quote to support. */
  request_id?: string;
};

export const problemContentType = "application/problem+json";

export function problemTypeUri(slug: ProblemSlug): string {
  return `${problemTypeBase}${slug}`;
}

/** Builds the problem response through `c`, so headers set by middleware (request id) stay. */
export function problem(c: Context, status: ContentfulStatusCode, init: ProblemInit): Response {
  const body: ProblemBody = { type: problemTypeUri(init.type), title: init.title ?? defaultTitles[init.type], status, detail: init.detail };
  if (init.errors !== undefined) body.errors = [...init.errors];
  const requestId = requestIdOf(c);
  if (requestId !== undefined) body.request_id = requestId;
  return c.body(JSON.stringify(body), status, { ...init.headers, "content-type": problemContentType });
}

/** 404 for a resource that is not there (or not the caller's): `detail` names what was looked for. */
export function notFound(c: Context, detail: string): Response {
  return problem(c, 404, { type: "not-found", detail });
}

/** Thrown by a route or middleware that cannot return; the onError handler answers with it. */
export class ProblemError extends Error {
  override readonly name = "ProblemError";
  readonly status: ContentfulStatusCode;
  readonly init: ProblemInit;

  constructor(status: ContentfulStatusCode, init: ProblemInit) {
    super(init.detail);
    this.status = status;
    this.init = init;
  }
}

const slugByStatus: Partial<Record<number, ProblemSlug>> = {
  400: "validation-failed",
  401: "unauthorized",
  403: "forbidden",
  404: "not-found",
  405: "method-not-allowed",
  409: "conflict",
  413: "payload-too-large",
  415: "unsupported-media-type",
  429: "rate-limited",
  503: "unavailable",
};

/** Headers of an HTTPException's own response worth keeping (its body is replaced). */
const forwardedHeaders = ["allow", "www-authenticate", "retry-after"];

function fromHttpException(c: Context, err: HTTPException): Response {
  const status = err.status as ContentfulStatusCode;
  if (status >= 500) return internalProblem(c, err, status);
  const headers: Record<string, string> = {};
  for (const name of forwardedHeaders) {
    const value = err.res?.headers.get(name);
    if (value) headers[name] = value;
  }
  const slug = slugByStatus[status] ?? "bad-request";
  // Hono's own HTTPException messages ("Malformed JSON in request body") are written for clients.
  return problem(c, status, { type: slug, detail: err.message || defaultTitles[slug], headers });
}

/** Logs what went wrong and answers without it: a 5xx body never carries internals. */
function internalProblem(c: Context, err: unknown, status: ContentfulStatusCode = 500): Response {
  const error =
    err instanceof Error ? { error_name: err.name, error_message: err.message, stack: err.stack } : { error_value: String(err) };
  log(c, "unhandled_error", { method: c.req.method, path: c.req.path, ...error }, "error");
  const type = status === 503 ? "unavailable" : "internal";
  return problem(c, status, { type, detail: "Something went wrong on our side. Quote the request id to support." });
}

/**
 * SQLSTATE 55P03 lock_not_available: a wait for a row ran past the function's lock_timeout
 * (every SQL function that writes bounds its waits). Nothing was written; the same request
 * again is the answer, so it is a 503 with Retry-After, never a 500.
 */
function isLockTimeout(err: unknown): boolean {
  return typeof err === "object" && err !== null && "code" in err && err.code === "55P03";
}

/** Installs `onError` and `notFound` on `app` (and on each sub-app that sets its own). */
export function installProblemHandlers<E extends Env>(app: Hono<E>): void {
  app.onError((err, c) => {
    if (err instanceof ProblemError) return problem(c, err.status, err.init);
    if (err instanceof HTTPException) return fromHttpException(c, err);
    if (isLockTimeout(err)) {
      log(c, "lock_timeout", { method: c.req.method, path: c.req.path }, "warn");
      return problem(c, 503, {
        type: "unavailable",
        detail: "Another change to the same record took too long; nothing was written. Retry the same request.",
        headers: { "Retry-After": "1" },
      });
    }
    if (isDatabaseUnreachable(err)) {
      log(
        c,
        "database_unreachable",
        { method: c.req.method, path: c.req.path, error: err instanceof Error ? err.message : String(err) },
        "warn",
      );
      return problem(c, 503, {
        type: "unavailable",
        detail: "The database did not answer. Retry the same request.",
        headers: { "Retry-After": "1" },
      });
    }
    return internalProblem(c, err);
  });
  app.notFound((c) => notFound(c, `Nothing at ${c.req.method} ${c.req.path.slice(0, 200)}.`));
}

function allowHeader(allowed: readonly string[]): string {
  const methods = new Set(allowed.map((m) => m.toUpperCase()));
  if (methods.has("GET")) methods.add("HEAD"); // Hono answers HEAD wherever GET is routed.
  return [...methods].join(", ");
}

function wrongMethod(c: Context, allowed: readonly string[]): Response {
  return problem(c, 405, {
    type: "method-not-allowed",
    detail: `${c.req.method} is not supported here.`,
    headers: { Allow: allowHeader(allowed) },
  });
}

/** A handler for `app.all(path, ...)` registered after the path's real routes. */
export function methodNotAllowed(allowed: readonly string[]): Handler {
  return (c) => wrongMethod(c, allowed);
}

/**
 * Middleware answering 405 wherever a request's path is routed but not for its method, derived
 * from `app.routes` (hono's method-not-allowed), so new routes need no extra line. Register it
 * with `app.use` before the routes. A 404 from a route matched with its own method (an unknown
 * transfer id) is left alone, and so is a thrown error (`c.error` is set).
 */
export function rejectWrongMethods<E extends Env>(app: Hono<E>): MiddlewareHandler<E> {
  return honoMethodNotAllowed<E>({ app, onMethodNotAllowed: (c, allowed) => wrongMethod(c, allowed) });
}
