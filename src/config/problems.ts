// A configuration problem names the variable and says what is wrong, never its value: the list
// is shown by the unauthenticated /healthz.
export interface ConfigProblem {
  variable: string;
  message: string;
}

/** Collects problems; `check` turns a thrown parse error into one. */
export class Problems {
  readonly list: ConfigProblem[] = [];

  add(variable: string, message: string | null): void {
    if (message !== null) this.list.push({ variable, message });
  }

  /**
   * Runs a parser that throws on a bad value (readIntegerVariable and its callers); returns its
   * value, or null after noting the problem under the variable its message names.
   */
  check<T>(parse: () => T): T | null {
    try {
      return parse();
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).replace(/^configuration: /, "");
      this.add(/^[A-Z0-9_]+/.exec(message)?.[0] ?? "configuration", message);
      return null;
    }
  }
}

/** Set means non-blank: wrangler and .dev.vars deliver an unset secret as "" as often as absent. */
export function isSet(raw: string | undefined): raw is string {
  return raw !== undefined && raw.trim() !== "";
}
