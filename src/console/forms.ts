// Form fields the console's actions share. An operator's note goes into the history or the
// audit: required, bounded, free text that may span lines but holds no other control character.
import { z } from "zod";
import { controlProblem } from "../lib/text.ts";

/** `hint` finishes "A note is required: ...", e.g. "say what you checked". */
export function operatorNote(lengthMax: number, hint: string) {
  return z
    .string({ error: "A note is required." })
    .trim()
    .min(1, { error: `A note is required: ${hint}.` })
    .max(lengthMax, { error: `The note is longer than ${lengthMax} characters.` })
    .refine((note) => controlProblem(note, { lineBreaks: true }) === null, {
      error: "The note contains control characters (other than line breaks); type it again.",
    });
}
