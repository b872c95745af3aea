/**
 * The longest client-sent text (a field name, a header value) that an error body repeats. A
 * client controls these, so an answer and its log line stay small whatever it sent
 * (docs/security.md, attack 1).
 */
export const ECHOED_TEXT_MAX_CHARS = 128;

/** Cuts client-sent text to ECHOED_TEXT_MAX_CHARS and says how much was cut. */
export function clipEchoedText(text: string): string {
  return text.length <= ECHOED_TEXT_MAX_CHARS
    ? text
    : `${text.slice(0, ECHOED_TEXT_MAX_CHARS)}…[${text.length - ECHOED_TEXT_MAX_CHARS} more characters]`;
}
