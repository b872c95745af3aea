/** A page or a worker in a browser: anything that runs there is visible to its user, and requests are cross-origin. */
export function inBrowser(): boolean {
  const scope = globalThis as { window?: unknown; document?: unknown; importScripts?: unknown };
  return (
    (typeof scope.window === 'object' && typeof scope.document === 'object') ||
    typeof scope.importScripts === 'function'
  );
}
