// Every string of a JSON body checked at the edge (src/lib/text.ts says what a string from
// outside may contain), each bad one a field error of the 400.
//
//   jsonStringProblems(body, { lineBreakFields: ["note"] })  // FieldError[] for every bad string
import { controlProblem } from "../lib/text.ts";
import type { FieldError } from "../web/problem.ts";

/** Strings nested deeper than this are refused unread; no body of this API is half as deep. */
export const jsonDepthMax = 32;

export type JsonTextRules = {
  /** Top-level field names whose free text may span lines (an operator's note). */
  lineBreakFields?: readonly string[];
};

/** Every string (object keys included) in a parsed JSON value that `controlProblem` refuses. */
export function jsonStringProblems(value: unknown, rules: JsonTextRules = {}): FieldError[] {
  const problems: FieldError[] = [];
  const visit = (node: unknown, path: readonly string[]): void => {
    if (path.length > jsonDepthMax) {
      problems.push({ field: path.join("."), message: `nested deeper than ${jsonDepthMax}` });
      return;
    }
    if (typeof node === "string") {
      const top = path[0];
      const lineBreaks = path.length === 1 && top !== undefined && (rules.lineBreakFields ?? []).includes(top);
      const message = controlProblem(node, { lineBreaks });
      if (message) problems.push({ field: path.join("."), message });
      return;
    }
    if (Array.isArray(node)) {
      for (const [index, item] of node.entries()) visit(item, [...path, String(index)]);
      return;
    }
    if (typeof node === "object" && node !== null) {
      for (const [key, item] of Object.entries(node)) {
        const keyMessage = controlProblem(key);
        if (keyMessage) problems.push({ field: [...path, key].join("."), message: `field name ${keyMessage}` });
        else visit(item, [...path, key]);
      }
    }
  };
  visit(value, []);
  return problems;
}
