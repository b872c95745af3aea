/** HTML escaping as Fragment does it (PHP htmlspecialchars with ENT_QUOTES: `'` -> `&#39;`). */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** JSON the way Fragment's PHP back end emits it: slashes escaped (`\/api?hash=…`). */
export function phpJson(value: unknown): string {
  return JSON.stringify(value).replace(/\//g, '\\/');
}
