/** Form inputs of a page's HTML. No imports: the product packs read it while the error table loads. */

/** The values of every `<input name="<name>">` radio, in page order, without repeats. */
export function radioValues(html: string, name: string): string[] {
  const values: string[] = [];
  for (const [input] of html.matchAll(/<input\b[^>]*>/gi)) {
    if (!new RegExp(`\\bname\\s*=\\s*["']${name}["']`, 'i').test(input)) continue;
    const value = /\bvalue\s*=\s*["']([^"']*)["']/i.exec(input)?.[1];
    if (value !== undefined && !values.includes(value)) values.push(value);
  }
  return values;
}
