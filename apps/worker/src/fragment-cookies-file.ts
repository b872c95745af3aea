import { readFile } from 'node:fs/promises';
import { splitCookieSets } from '@starsgate/fragment';

/**
 * FRAGMENT_COOKIES_FILE: Fragment logins from a file (a mounted Kubernetes Secret), one Cookie
 * header per line or several joined by `|` as in FRAGMENT_COOKIES; blank lines and `#` comments
 * are skipped. Read at start and again whenever its content changes, so renewing a login is
 * writing the file (docs/operations.md, Renewing a Fragment login). Its content is never logged.
 */
export function cookieSetsOfText(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .flatMap(splitCookieSets);
}

/**
 * Polls the file (a Secret volume is updated by swapping a symlink, which file-change events
 * often miss) and calls `onChange` with its logins when its content differs from the last read.
 * A read that fails (the file between two writes) is reported and the previous logins stay.
 */
export function watchCookiesFile(options: {
  path: string;
  intervalMs: number;
  initial: string;
  onChange: (sets: string[]) => void;
  onError: (error: unknown) => void;
}): { stop(): void } {
  let last = options.initial;
  let reading = false;
  const timer = setInterval(() => {
    if (reading) return;
    reading = true;
    readFile(options.path, 'utf8')
      .then((text) => {
        if (text === last) return;
        last = text;
        options.onChange(cookieSetsOfText(text));
      }, options.onError)
      .finally(() => {
        reading = false;
      });
  }, options.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
