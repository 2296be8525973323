// The API reference at GET /docs: the OpenAPI document rendered server-side as one HTML page,
// plain HTML and inline CSS, nothing fetched from elsewhere. Every string from the document is
// escaped; the only markup in descriptions is a small Markdown subset (`code`, **bold**, lists).
import { escapeHtml as esc, markdown } from "./markdown.ts";
import { schemaSummary, schemaTable } from "./render-schema.ts";
import type { HttpMethod, OpenApiDocument, Operation, Parameter, ResponseObject } from "./types.ts";

type Listed = { method: HttpMethod; path: string; operation: Operation };

export function renderReference(doc: OpenApiDocument): string {
  const operations = listOperations(doc);
  const byTag = doc.tags.map((tag) => ({ tag, operations: operations.filter((o) => o.operation.tags.includes(tag.name)) }));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(doc.info.title)} — reference</title>
<style>${css}</style>
</head>
<body>
<nav>
<p class="brand">${esc(doc.info.title)}</p>
${byTag
  .map(
    ({ tag, operations: ops }) =>
      `<p class="group">${esc(tag.name)}</p><ul>${ops
        .map(
          (o) =>
            `<li><a href="#${esc(o.operation.operationId)}"><span class="m ${o.method}">${o.method.toUpperCase()}</span> ${esc(o.path)}</a></li>`,
        )
        .join("")}</ul>`,
  )
  .join("\n")}
<p class="group"><a href="#schemas">schemas</a> · <a href="#auth">auth</a> · <a href="/openapi.json">openapi.json</a></p>
</nav>
<main>
<h1>${esc(doc.info.title)} <small>v${esc(doc.info.version)} · OpenAPI ${esc(doc.openapi)}</small></h1>
${markdown(doc.info.description)}
${byTag
  .map(
    ({ tag, operations: ops }) =>
      `<h2 id="tag-${esc(tag.name)}">${esc(tag.name)}</h2>${markdown(tag.description)}${ops.map((o) => renderOperation(doc, o)).join("\n")}`,
  )
  .join("\n")}
<h2 id="auth">Authentication</h2>
<dl>${Object.entries(doc.components.securitySchemes)
    .map(([name, scheme]) => `<dt id="auth-${esc(name)}"><code>${esc(name)}</code></dt><dd>${markdown(scheme.description)}</dd>`)
    .join("")}</dl>
<h2 id="schemas">Schemas</h2>
${Object.entries(doc.components.schemas)
  .map(([id, schema]) => `<section class="schema" id="schema-${esc(id)}"><h3>${esc(id)}</h3>${schemaTable(schema)}</section>`)
  .join("\n")}
</main>
</body>
</html>`;
}

function listOperations(doc: OpenApiDocument): Listed[] {
  const listed: Listed[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item) as [HttpMethod, Operation][]) listed.push({ method, path, operation });
  }
  return listed;
}

function renderOperation(doc: OpenApiDocument, { method, path, operation }: Listed): string {
  const sandbox = operation["x-sandbox-only"] ? ' <span class="badge">sandbox only</span>' : "";
  const body = operation.requestBody
    ? `<h4>Request body</h4>${Object.entries(operation.requestBody.content)
        .map(([type, media]) => `<p><code>${esc(type)}</code>: ${schemaSummary(media.schema)}</p>`)
        .join("")}`
    : "";
  return `<section class="op" id="${esc(operation.operationId)}">
<h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${esc(path)}</code>${sandbox}</h3>
<p class="summary">${esc(operation.summary)}</p>
${markdown(operation.description)}
<p class="auth">Auth: ${renderSecurity(doc, operation)}</p>
${renderParameters(operation.parameters ?? [])}
${body}
<h4>Responses</h4>
${renderResponses(operation.responses)}
</section>`;
}

function renderSecurity(doc: OpenApiDocument, operation: Operation): string {
  if (operation.security.length === 0) return "none";
  return operation.security
    .map((requirement) => {
      const names = Object.keys(requirement);
      if (names.length === 0) return "none";
      return names
        .map((name) => {
          const scheme = doc.components.securitySchemes[name];
          const label = scheme?.scheme === "bearer" ? `Bearer ${scheme.bearerFormat ?? "token"}` : (scheme?.name ?? name);
          return `<a href="#auth-${esc(name)}">${esc(label)} (${esc(name)})</a>`;
        })
        .join(" and ");
    })
    .join(" or ");
}

function renderParameters(parameters: Parameter[]): string {
  if (parameters.length === 0) return "";
  const rows = parameters
    .map(
      (p) =>
        `<tr><td><code>${esc(p.name)}</code>${p.required ? ' <span class="req">required</span>' : ""}</td><td>${esc(p.in)}</td><td>${schemaSummary(p.schema)}</td><td>${markdown(p.description)}</td></tr>`,
    )
    .join("");
  return `<h4>Parameters</h4><table><thead><tr><th>name</th><th>in</th><th>type</th><th>description</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function renderResponses(responses: Record<string, ResponseObject>): string {
  const rows = Object.entries(responses)
    .map(([status, response]) => {
      const content = Object.entries(response.content ?? {})
        .map(([type, media]) => `<code>${esc(type)}</code> ${schemaSummary(media.schema)}`)
        .join("<br>");
      const headers = Object.keys(response.headers ?? {})
        .map((name) => `<code>${esc(name)}</code>`)
        .join(" ");
      return `<tr><td class="status s${esc(status.charAt(0))}">${esc(status)}</td><td>${markdown(response.description)}</td><td>${content}</td><td>${headers}</td></tr>`;
    })
    .join("");
  return `<table><thead><tr><th>status</th><th>meaning</th><th>body</th><th>headers</th></tr></thead><tbody>${rows}</tbody></table>`;
}

const css = `
:root { --fg: #1d232a; --muted: #5b6672; --line: #dde3e8; --bg: #fff; --code: #f3f5f7; --accent: #0b6e4f; }
* { box-sizing: border-box; }
body { margin: 0; display: flex; font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
nav { position: sticky; top: 0; height: 100vh; overflow-y: auto; width: 300px; flex: none; padding: 1rem; border-right: 1px solid var(--line); background: #fafbfc; font-size: 13px; }
nav ul { list-style: none; margin: 0 0 .5rem; padding: 0; }
nav li a { display: block; padding: 2px 0; color: var(--fg); text-decoration: none; overflow-wrap: anywhere; }
nav .brand { font-weight: 700; font-size: 15px; }
nav .group { margin: 1rem 0 .25rem; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); font-size: 11px; }
main { max-width: 980px; padding: 1rem 2rem 4rem; min-width: 0; }
h1 small { font-size: 14px; color: var(--muted); font-weight: 400; }
h2 { margin-top: 2.5rem; padding-bottom: .25rem; border-bottom: 2px solid var(--line); text-transform: capitalize; }
h3 { margin: 0 0 .25rem; font-size: 17px; }
h4 { margin: 1rem 0 .25rem; font-size: 13px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); }
section.op, section.schema { margin: 1.25rem 0; padding: 1rem 1.25rem; border: 1px solid var(--line); border-radius: 8px; }
.summary { margin: 0; color: var(--muted); }
.auth { font-size: 13px; }
code { background: var(--code); padding: 1px 4px; border-radius: 4px; font: 13px ui-monospace, SFMono-Regular, Menlo, monospace; }
table { width: 100%; border-collapse: collapse; font-size: 13px; margin: .25rem 0; }
th, td { text-align: left; vertical-align: top; padding: 6px 8px; border-bottom: 1px solid var(--line); }
td p { margin: 0; }
th { color: var(--muted); font-weight: 600; }
.m { display: inline-block; min-width: 3.4em; padding: 0 6px; border-radius: 4px; color: #fff; font: 700 11px/1.8 ui-monospace, monospace; text-align: center; }
.m.get { background: #1f6feb; } .m.post { background: #1a7f37; } .m.put { background: #9a6700; } .m.delete { background: #cf222e; } .m.patch { background: #8250df; }
.status { font-weight: 700; font-family: ui-monospace, monospace; }
.s2 { color: #1a7f37; } .s4 { color: #9a6700; } .s5 { color: #cf222e; }
.badge { font-size: 11px; padding: 1px 6px; border-radius: 10px; background: #fff1c2; color: #6b4b00; vertical-align: middle; }
.req { font-size: 11px; color: #cf222e; }
.muted { color: var(--muted); }
a { color: var(--accent); }
@media (max-width: 800px) { body { display: block; } nav { position: static; height: auto; width: auto; border-right: 0; border-bottom: 1px solid var(--line); } main { padding: 1rem; } }
`;
