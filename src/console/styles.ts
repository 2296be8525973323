// The console's only stylesheet, served at /console/styles.css so the CSP can forbid inline
// styles. Plain CSS, no build step. Colours keep at least 4.5:1 contrast (WCAG AA) on white;
// on a phone each table row becomes a card of labelled cells, never wider than the screen.
export const consoleCss = `
:root { --ink: #1a1a1a; --muted: #4a4a4a; --line: #c8c8c8; --bg: #ffffff; --panel: #f4f5f7;
  --link: #0b57d0; --accent: #123c7a; --ok: #0b6b2b; --warn: #8a4b00; --bad: #a11a1a; --focus: #ffbf47; }
* { box-sizing: border-box; }
html { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
body { margin: 0; }
a { color: var(--link); }
a:focus, button:focus, input:focus, textarea:focus, select:focus { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip { position: absolute; left: -9999px; }
.skip:focus { left: 1rem; top: 1rem; background: var(--bg); padding: .5rem; z-index: 1; }
header { background: var(--accent); color: #fff; }
header nav { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; align-items: center; max-width: 72rem; margin: 0 auto; padding: .75rem 1rem; }
header a, header .brand { color: #fff; font-weight: 600; text-decoration: none; }
header a:hover { text-decoration: underline; }
header .brand { margin-right: auto; }
header form { margin: 0; }
header button { background: transparent; color: #fff; border: 1px solid #fff; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.6rem; margin: .5rem 0 1rem; overflow-wrap: anywhere; }
h2 { font-size: 1.25rem; margin: 1.75rem 0 .5rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; }
p.lead { color: var(--muted); margin-top: -.5rem; }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 1rem; margin: 1rem 0; }
.notice { border-left: 6px solid var(--ok); background: #e9f5ec; padding: .75rem 1rem; margin: 1rem 0; }
.error { border-left: 6px solid var(--bad); background: #fbeaea; padding: .75rem 1rem; margin: 1rem 0; }
.warning { border-left: 6px solid var(--warn); background: #fdf1e3; padding: .75rem 1rem; margin: 1rem 0; }
.figures { display: grid; grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr)); gap: .75rem; margin: 1rem 0; }
.figure { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: .75rem 1rem; }
.figure .label { display: block; color: var(--muted); font-size: .9rem; }
.figure .value { display: block; font-size: 1.35rem; font-weight: 700; font-variant-numeric: tabular-nums; }
.figure .detail { display: block; color: var(--muted); font-size: .85rem; }
a.figure { display: block; color: var(--ink); text-decoration: none; }
a.figure .label { color: var(--link); text-decoration: underline; }
a.figure:hover { border-color: var(--link); }
a.figure:focus { outline: 3px solid var(--focus); outline-offset: 2px; }
h3 { font-size: 1rem; margin: 0 0 .5rem; }
ul.reasons { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; }
ul.reasons .count { font-weight: 700; margin-left: .5rem; font-variant-numeric: tabular-nums; }
nav.window-selector { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: 0 0 1rem; }
nav.window-selector a { padding: .25rem .75rem; border: 1px solid var(--accent); border-radius: 1rem; text-decoration: none; color: var(--accent); }
nav.window-selector a[aria-current="page"] { background: var(--accent); color: #fff; font-weight: 600; }
/* Charts: inline SVG scaled to the column (its viewBox), one column on a phone, three on a laptop. */
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 21rem), 1fr)); gap: 1rem; }
.charts figure { margin: 0; background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: .75rem; min-width: 0; }
.charts figcaption { font-weight: 600; margin-bottom: .25rem; }
svg.chart { display: block; width: 100%; height: auto; }
svg.chart text { font-size: 14px; fill: var(--ink); font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
svg.chart .axis-title { font-weight: 600; fill: var(--muted); }
svg.chart .bar-value.inside { fill: #fff; font-weight: 600; }
svg.chart .no-data { fill: var(--muted); font-style: italic; }
svg.chart .gridline { stroke: var(--line); stroke-width: 1; }
svg.chart .axis { stroke: var(--ink); stroke-width: 1; }
.series-completed { fill: var(--ok); }
.series-compensated, .series-unknown { fill: var(--bad); }
.series-needs_review { fill: var(--warn); }
.series-other { fill: #6b6b6b; }
.series-answered, .series-measure { fill: var(--accent); }
ul.legend { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem 1rem; padding: 0; margin: .5rem 0 0; font-size: .9rem; }
svg.swatch { width: .8rem; height: .8rem; margin-right: .35rem; vertical-align: -.05rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.table-wrap { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
caption { text-align: left; padding: .5rem .75rem; color: var(--muted); }
th, td { text-align: left; padding: .45rem .75rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--panel); font-weight: 600; white-space: nowrap; }
td.num, th.num { text-align: right; white-space: nowrap; }
tfoot td { font-weight: 700; }
code, pre, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: .9rem; }
td code { overflow-wrap: anywhere; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; max-height: 16rem; overflow-y: auto; }
.state { display: inline-block; padding: 0 .5rem; border-radius: 1rem; border: 1px solid currentColor; font-weight: 600; white-space: nowrap; }
.state-completed { color: var(--ok); }
.state-compensated, .state-compensating { color: var(--bad); }
.state-needs_review { color: var(--warn); }
.past-deadline { color: var(--bad); }
.state-started, .state-funds_reserved, .state-submitted, .state-scheduled { color: var(--accent); }
.state-canceled { color: var(--muted); }
/* Our record beside the provider's: a differing row says so in words and with a bar, not colour alone. */
table.compare tbody th { background: transparent; font-weight: 600; white-space: normal; }
table.compare tr.differs th, table.compare tr.differs td { background: #fdf1e3; }
table.compare tr.differs th { border-left: 4px solid var(--warn); }
table.compare .marker { color: var(--bad); white-space: nowrap; }
.comparison { margin: .5rem 0 1rem; }
.comparison details, details.raw { margin-top: .5rem; }
summary { cursor: pointer; color: var(--link); font-weight: 600; }
form.stack { display: grid; gap: .75rem; max-width: 36rem; }
form.inline { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; }
form.inline .field { flex: 1 1 16rem; }
label { font-weight: 600; display: block; margin-bottom: .25rem; }
.hint { color: var(--muted); font-size: .9rem; font-weight: 400; }
input[type="text"], input[type="password"], input[type="search"], textarea {
  width: 100%; font: inherit; padding: .5rem .6rem; border: 1px solid #6b6b6b; border-radius: 4px; background: #fff; color: var(--ink); }
textarea { min-height: 6rem; }
fieldset { border: 1px solid var(--line); border-radius: 6px; padding: .5rem 1rem 1rem; margin: 0; }
legend { font-weight: 600; padding: 0 .25rem; }
.choice { display: flex; gap: .5rem; align-items: baseline; margin-top: .5rem; }
.choice label { font-weight: 400; margin: 0; }
button, .button { font: inherit; font-weight: 600; padding: .5rem 1rem; border-radius: 4px; border: 1px solid var(--accent);
  background: var(--accent); color: #fff; cursor: pointer; text-decoration: none; display: inline-block; }
button.secondary, .button.secondary { background: #fff; color: var(--accent); }
button.danger { background: var(--bad); border-color: var(--bad); }
.actions { display: flex; flex-wrap: wrap; gap: .75rem; align-items: center; }
@media (max-width: 40rem) {
  html { font-size: 15px; }
  main { padding: .75rem; }
  h1 { font-size: 1.35rem; }
  dl.facts { grid-template-columns: 1fr; }
  dl.facts dd { margin-bottom: .5rem; }
  /* Tables become one card per row, each cell labelled from data-label: no sideways scrolling. */
  .table-wrap { border: none; overflow-x: visible; }
  table.cards, table.cards tbody, table.cards tr, table.cards td { display: block; width: 100%; }
  table.cards thead, table.cards tfoot { display: none; }
  table.cards caption { display: block; padding: 0 0 .5rem; }
  table.cards tr { border: 1px solid var(--line); border-radius: 6px; margin-bottom: .75rem; padding: .25rem 0; }
  table.cards td { display: grid; grid-template-columns: 8.5rem minmax(0, 1fr); gap: .5rem; border: none; padding: .2rem .75rem; }
  table.cards td.num { text-align: left; }
  table.cards td > .state { justify-self: start; }
  table.cards td::before { content: attr(data-label); color: var(--muted); font-weight: 600; }
  table.cards tbody th { display: block; width: 100%; border: none; padding: .2rem .75rem; }
}
`;
