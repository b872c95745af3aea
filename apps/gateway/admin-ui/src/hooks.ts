import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api';

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  reload: () => void;
}

/**
 * Loads `load()` now, again whenever `deps` change, and every `refreshMs` while auto refresh is
 * on. A failed refresh keeps the last data and shows the error beside it.
 */
export function useLoader<T>(load: () => Promise<T>, deps: unknown[], refreshMs: number | null): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const generation = useRef(0);
  const run = useCallback(() => {
    const mine = ++generation.current;
    setLoading(true);
    load().then(
      (value) => {
        if (mine !== generation.current) return;
        setData(value);
        setError(undefined);
        setLoading(false);
      },
      (reason: unknown) => {
        if (mine !== generation.current) return;
        setError(reason instanceof ApiError ? `${reason.code}: ${reason.message}` : String(reason));
        setLoading(false);
      },
    );
  }, deps);
  useEffect(() => {
    run();
    if (refreshMs === null) return undefined;
    const timer = setInterval(run, refreshMs);
    return () => clearInterval(timer);
  }, [run, refreshMs]);
  return { data, error, loading, reload: run };
}

/** The part of the location after `#`, as path segments: `#/orders/abc` → ['orders', 'abc']. */
export function useHashRoute(): string[] {
  const read = () =>
    window.location.hash
      .replace(/^#\/?/, '')
      .split('/')
      .filter(Boolean)
      .map((part) => decodeURIComponent(part));
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const update = () => setRoute(read());
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}

export function navigate(...parts: string[]): void {
  window.location.hash = `#/${parts.map(encodeURIComponent).join('/')}`;
}

/** A form's submit: busy while `action` runs, its failure kept as an ApiError to show. */
export function useSubmit(action: () => Promise<void>): {
  busy: boolean;
  error: ApiError | undefined;
  onSubmit: (event: Event) => void;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const onSubmit = (event: Event): void => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    action()
      .catch((reason: unknown) =>
        setError(reason instanceof ApiError ? reason : new ApiError(0, 'ERROR', String(reason))),
      )
      .finally(() => setBusy(false));
  };
  return { busy, error, onSubmit };
}
