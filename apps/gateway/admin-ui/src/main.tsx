import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, useCsrfToken, whenSessionLost } from './api';
import { useHashRoute } from './hooks';
import type { Session } from './types';
import { Login } from './views/Login';
import { Orders } from './views/Orders';
import { Pipeline } from './views/Pipeline';
import { Reconciliation } from './views/Reconciliation';
import { Webhooks } from './views/Webhooks';
import './styles.css';

type Theme = 'auto' | 'light' | 'dark';
const REFRESH_MS = 5_000;

function resolvedTheme(theme: Theme): 'light' | 'dark' {
  if (theme !== 'auto') return theme;
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

const TABS: Array<[string, string]> = [
  ['pipeline', 'Pipeline'],
  ['reconciliation', 'Reconciliation'],
  ['orders', 'Orders'],
  ['webhooks', 'Webhooks'],
];

function App() {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [theme, setTheme] = useState<Theme>(() => (localStorage.getItem('starsgate.theme') as Theme | null) ?? 'auto');
  const [autoRefresh, setAutoRefresh] = useState(() => localStorage.getItem('starsgate.refresh') !== 'off');
  const route = useHashRoute();
  const shown = resolvedTheme(theme);

  useEffect(() => {
    whenSessionLost(() => setSession(null));
    api.get<Session>('/admin/session').then(
      (current) => {
        useCsrfToken(current.csrf_token);
        setSession(current);
      },
      () => setSession(null),
    );
  }, []);
  useEffect(() => {
    document.documentElement.dataset.theme = shown;
    localStorage.setItem('starsgate.theme', theme);
  }, [theme, shown]);
  useEffect(() => localStorage.setItem('starsgate.refresh', autoRefresh ? 'on' : 'off'), [autoRefresh]);

  if (session === undefined) return <p class="boot">Loading…</p>;
  if (session === null)
    return (
      <Login
        onLogin={(created) => {
          useCsrfToken(created.csrf_token);
          setSession(created);
        }}
      />
    );

  const logout = async () => {
    await api.post('/admin/logout').catch(() => undefined);
    useCsrfToken('');
    setSession(null);
  };
  const [tab = 'pipeline', segment] = route;
  const refreshMs = autoRefresh ? REFRESH_MS : null;

  return (
    <>
      <header class="topbar">
        <strong class="brand">starsgate</strong>
        <nav>
          {TABS.map(([id, label]) => (
            <a
              key={id}
              href={`#/${id}`}
              class={tab === id ? 'active' : undefined}
              aria-current={tab === id ? 'page' : undefined}
            >
              {label}
            </a>
          ))}
          <a href="/admin/queues">Queues</a>
        </nav>
        <div class="controls">
          <label class="inline small">
            <input type="checkbox" checked={autoRefresh} onChange={(e) => setAutoRefresh(e.currentTarget.checked)} />
            auto refresh
          </label>
          <select aria-label="Theme" value={theme} onChange={(e) => setTheme(e.currentTarget.value as Theme)}>
            <option value="auto">auto theme</option>
            <option value="light">light</option>
            <option value="dark">dark</option>
          </select>
          <span class="muted small" data-testid="operator">
            {session.operator}
          </span>
          <button onClick={() => void logout()}>Log out</button>
        </div>
      </header>
      <main class="content">
        {tab === 'pipeline' && <Pipeline refreshMs={refreshMs} theme={shown} />}
        {tab === 'reconciliation' && (
          <Reconciliation caseId={segment} operator={session.operator} refreshMs={refreshMs} />
        )}
        {tab === 'orders' && <Orders segment={segment} operator={session.operator} refreshMs={refreshMs} />}
        {tab === 'webhooks' && <Webhooks refreshMs={refreshMs} />}
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
