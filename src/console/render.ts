// Sends a console page: the HTML5 doctype, then the rendered JSX, with the given status.
import type { Context } from "hono";
import { html } from "hono/html";
import type { JSX } from "hono/jsx/jsx-runtime";
import type { ContentfulStatusCode } from "hono/utils/http-status";

export function page(c: Context, element: JSX.Element, status: ContentfulStatusCode = 200): Response | Promise<Response> {
  return c.html(html`<!doctype html>${element}`, status);
}
