/**
 * JSON string literals as QuestDB escapes them: `"` and `\` escaped, `\b \f \n \r \t` short
 * forms, other control characters `\u00XX`, everything else raw UTF-8. `JSON.stringify` of a
 * string does exactly this (and also escapes lone surrogates, which UTF-8 cannot carry anyway).
 */

/** The JSON literal of `s`, quotes included. */
export function jsonString(s: string): string {
  return JSON.stringify(s)
}
