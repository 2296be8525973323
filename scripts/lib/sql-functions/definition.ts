// One SQL function definition as drizzle/functions/<name>.sql holds it: why-comments, then the
// statement in the form pg_get_functiondef() prints it, ended by a semicolon. Writing the files
// in PostgreSQL's own form lets the drift test compare them with the database to the letter.

export interface FunctionDefinition {
  name: string;
  /** The CREATE OR REPLACE statement, without the comments above it and without its `;`. */
  statement: string;
  /** `CREATE OR REPLACE FUNCTION public.name(args)` then ` RETURNS type`: what CREATE OR REPLACE cannot change. */
  signature: string;
}

const createPattern = /^CREATE (?:OR REPLACE )?FUNCTION (?:public\.)?([a-z_][a-z0-9_]*)\(/i;

/** Drops the comment and blank lines above the statement; PostgreSQL keeps none of them. */
export function withoutLeadingComments(text: string): string {
  const lines = text.split("\n");
  const first = lines.findIndex((line) => line.trim() !== "" && !line.trimStart().startsWith("--"));
  return first === -1 ? "" : lines.slice(first).join("\n");
}

export function signatureOf(statement: string): string {
  return statement.split("\n").slice(0, 2).join("\n");
}

/** Parses a CREATE FUNCTION statement (comments above it allowed); null when it is not one. */
export function parseDefinition(text: string): FunctionDefinition | null {
  const statement = withoutLeadingComments(text).trimEnd().replace(/;$/, "");
  const name = createPattern.exec(statement)?.[1];
  if (name === undefined) return null;
  return { name: name.toLowerCase(), statement, signature: signatureOf(statement) };
}

/** The argument list of a signature, for a DROP FUNCTION when the signature changes. */
export function argumentsOf(signature: string): string {
  const firstLine = signature.split("\n")[0] ?? "";
  return firstLine.slice(firstLine.indexOf("(") + 1, firstLine.lastIndexOf(")"));
}
