// The page frame: document head, the navigation (with the logout form when signed in), and the
// main landmark with the page's one h1. Every page goes through here, so every page has them.
import { type Child, useContext } from "hono/jsx";
import { ActorContext } from "../render.tsx";

export interface LayoutProps {
  title: string;
  /** The session's CSRF token when signed in: shows the navigation and the logout button. */
  csrfToken?: string | undefined;
  children?: Child;
}

export function Layout({ title, csrfToken, children }: LayoutProps) {
  // Who is signed in (an Access email, or ops-token), named beside the navigation.
  const actor = useContext(ActorContext);
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{`${title} · Pix operator console`}</title>
        <link rel="stylesheet" href="/console/styles.css" />
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header>
          <nav aria-label="Console">
            <span class="brand">Pix operator console</span>
            {csrfToken === undefined ? null : (
              <>
                <a href="/console">Overview</a>
                <a href="/console/search">Search</a>
                <a href="/console/queue">Review queue</a>
                <a href="/console/scheduled">Scheduled</a>
                <a href="/console/contestations">Contestations</a>
                <a href="/console/reconciliation">Reconciliation</a>
                <a href="/console/provider-reconciliation">Provider reconciliation</a>
                <a href="/console/audit">Audit</a>
                {actor === undefined ? null : <span class="actor">Signed in as {actor}</span>}
                <form method="post" action="/console/logout">
                  <input type="hidden" name="csrf" value={csrfToken} />
                  <button type="submit">Log out</button>
                </form>
              </>
            )}
          </nav>
        </header>
        <main id="main">
          <h1>{title}</h1>
          {children}
        </main>
      </body>
    </html>
  );
}

/** A short message box; `role="alert"` makes screen readers announce refusals and results. */
export function Message({ kind, children }: { kind: "notice" | "error" | "warning"; children?: Child }) {
  return (
    <div class={kind} role={kind === "notice" ? "status" : "alert"}>
      {children}
    </div>
  );
}

/** What the last action did, or why it was refused: the message an action's redirect or refusal brings. */
export function Outcome({ notice, error }: { notice?: string | undefined; error?: string | undefined }) {
  return (
    <>
      {notice === undefined ? null : (
        <Message kind="notice">
          <p>{notice}</p>
        </Message>
      )}
      {error === undefined ? null : (
        <Message kind="error">
          <p>{error}</p>
        </Message>
      )}
    </>
  );
}

export function StateBadge({ state }: { state: string }) {
  return <span class={`state state-${state}`}>{state}</span>;
}
