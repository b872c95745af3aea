/** `a, b and c` (or `a, b or c`): names listed in a sentence, for texts built from the registry. */
export function listedText(names: readonly string[], conjunction: 'and' | 'or' = 'and'): string {
  return [names.slice(0, -1).join(', '), names.at(-1)].filter(Boolean).join(` ${conjunction} `);
}
