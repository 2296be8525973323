// Vite's `?raw` imports (a file's text), used to read wrangler.toml from tests in workerd.
declare module "*?raw" {
  const text: string;
  export default text;
}
