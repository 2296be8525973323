// The login form: one password field for the operator token.
import { Layout, Message } from "./layout.tsx";

export function LoginPage({ error }: { error?: string | undefined }) {
  return (
    <Layout title="Operator login">
      {error === undefined ? null : (
        <Message kind="error">
          <p>{error}</p>
        </Message>
      )}
      <form class="stack panel" method="post" action="/console/login">
        <div>
          <label for="token">
            Operator token <span class="hint">(OPS_TOKEN)</span>
          </label>
          <input id="token" name="token" type="password" autocomplete="current-password" required maxlength={4096} />
        </div>
        <div class="actions">
          <button type="submit">Log in</button>
        </div>
      </form>
      <p class="hint">The session lasts 8 hours. Rotating OPS_TOKEN ends every session.</p>
    </Layout>
  );
}
