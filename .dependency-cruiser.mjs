// The architecture as rules (`npm run check:layers`, run in CI beside check:cycles). The rooms
// are the folders of src/ (src/README.md is the map); a rule broken here is a design change to
// discuss, not an import to sneak in. Type-only imports count: a type is a dependency too.
//
// The API (src/http) and the console (src/console) are the two edges. They share only what lives
// in shared rooms: src/web (problem+json, calls to objects, the sign-in throttle), src/contract
// (the contract's schemas), src/auth (tokens and Access), src/config, src/db, src/lib, and the
// domain rooms both read (ledger, transfers, limits, devices, lookup, pix, events, audit, reconciliation).
const edges = "^src/(http|console)/";
/** The entry points Workers calls: nothing below them may reach back up. */
const entries = "^src/(worker|app|saga-object)[.]ts$";

/** Every rule is an error: a warning nobody reads holds nothing. */
const rule = (name, comment, from, to, extra = {}) => ({ name, comment, severity: "error", from, to, ...extra });

export default {
  forbidden: [
    rule(
      "saga-core-is-pure",
      "The saga core (transition table, schedule, timings) imports only src/lib: no I/O, no config, no clock reads.",
      { path: "^src/saga/" },
      { pathNot: "^src/(saga|lib)/" },
    ),
    rule(
      "lib-is-a-leaf",
      "src/lib is what every room may use; it imports no other room.",
      { path: "^src/lib/" },
      { path: "^src/", pathNot: "^src/lib/" },
    ),
    rule(
      "clock-is-a-narrow-leaf",
      "Business time (src/clock) reads one row: it needs the query shape and the sandbox switch, nothing a calendar rule lives in.",
      { path: "^src/clock/" },
      { path: "^src/", pathNot: "^src/(clock|db|config)/" },
    ),
    rule(
      "provider-knows-no-ledger-or-record",
      "The provider adapters answer the saga; the ledger (src/ledger) and the transfer record (src/transfers) are the saga's to write.",
      { path: "^src/provider/" },
      { path: "^src/(ledger|transfers)/" },
    ),
    rule(
      "console-and-api-apart",
      "Neither edge imports the other: what both need lives in a shared room (see the header).",
      { path: edges },
      { path: edges, pathNot: "^src/$1/" },
    ),
    rule(
      "nothing-reaches-up-to-an-edge",
      "Data flows one way: request, edge, object, core, store. Only the entry points mount the edges.",
      { path: "^src/", pathNot: [edges, entries] },
      { path: [edges, entries] },
    ),
    rule(
      "no-room-cycles",
      "No two rooms import each other, even through others; a room's own subfolders (http/ops, http/openapi) may.",
      { path: "^src/([^/]+)" },
      { path: "^src/[^/]+", pathNot: "^src/$1(/|$)", circular: true },
      { scope: "folder" },
    ),
    rule(
      "production-code-only",
      "src/ is what ships: it never imports the tests, the scripts or the bench.",
      { path: "^src/" },
      { path: "^(test|scripts|bench)/" },
    ),
    rule(
      "worker-bundle-without-drizzle",
      "drizzle-orm is for the schema files drizzle-kit reads: nothing the Worker reaches may pull it in.",
      { path: entries },
      { path: "(^|/)node_modules/drizzle-orm/", reachable: true },
    ),
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    exclude: { path: "[.]d[.]ts$" },
  },
};
