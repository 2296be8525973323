// The page for a refused or failed request: what happened, and what the operator can do next.
import { Layout, Message } from "./layout.tsx";

export function RefusalPage({ title, message, csrfToken }: { title: string; message: string; csrfToken?: string | undefined }) {
  return (
    <Layout title={title} csrfToken={csrfToken}>
      <Message kind="error">
        <p>{message}</p>
      </Message>
      <p>
        <a href="/console">Back to the console</a>
      </p>
    </Layout>
  );
}
