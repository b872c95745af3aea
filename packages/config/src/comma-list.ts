/** The entries of a comma-separated variable (origins, tokens, addresses), trimmed, empty ones dropped. */
export function commaList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
}
