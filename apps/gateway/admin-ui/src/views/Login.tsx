import { useState } from 'preact/hooks';
import { api } from '../api';
import { useSubmit } from '../hooks';
import type { Session } from '../types';

/** Exchanges an admin token for a session cookie; the token is not kept by the page. */
export function Login({ onLogin }: { onLogin: (session: Session) => void }) {
  const [token, setToken] = useState('');
  const [operator, setOperator] = useState(() => localStorage.getItem('starsgate.operator') ?? '');
  const { busy, error, onSubmit } = useSubmit(async () => {
    const session = await api.post<Session>('/admin/login', { token, operator });
    localStorage.setItem('starsgate.operator', operator);
    setToken('');
    onLogin(session);
  });

  return (
    <main class="login">
      <form class="card" onSubmit={onSubmit} aria-label="Log in">
        <h1>starsgate operations</h1>
        <p class="muted">Log in with one of the tokens in STARSGATE_ADMIN_TOKENS.</p>
        <label>
          Your name (recorded with every action)
          <input
            name="operator"
            required
            maxLength={100}
            autoComplete="username"
            value={operator}
            onInput={(e) => setOperator(e.currentTarget.value)}
          />
        </label>
        <label>
          Admin token
          <input
            name="token"
            type="password"
            required
            autoComplete="current-password"
            value={token}
            onInput={(e) => setToken(e.currentTarget.value)}
          />
        </label>
        {error && (
          <p class="error" role="alert">
            {error.message}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Logging in…' : 'Log in'}
        </button>
      </form>
    </main>
  );
}
