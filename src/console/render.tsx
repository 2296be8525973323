// Sends a console page: the HTML5 doctype, then the rendered JSX, with the given status. The
// signed-in operator is passed down through a JSX context, so every page's frame can name them.
import type { Context } from "hono";
import { html } from "hono/html";
import { createContext } from "hono/jsx";
import type { JSX } from "hono/jsx/jsx-runtime";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ConsoleSession } from "./session.ts";

/** Who is signed in, for the page frame; undefined on public pages. */
export const ActorContext = createContext<string | undefined>(undefined);

export function page(c: Context, element: JSX.Element, status: ContentfulStatusCode = 200): Response | Promise<Response> {
  const session: ConsoleSession | undefined = c.get("session");
  return c.html(html`<!doctype html>${<ActorContext.Provider value={session?.actor}>{element}</ActorContext.Provider>}`, status);
}
