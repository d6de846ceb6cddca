/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The sign-in page's own Content-Security-Policy, in place of the web app's: its inline <style>
 * and nothing else (no script at all); the form posts to this origin; no one may frame it.
 */
export const LOGIN_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** What the development directory's sign-in page shows. */
export interface LoginPageOptions {
  /** Where the form posts. */
  action: string;
  /** The e-mail address to fill in again after a failed attempt. */
  email?: string;
  /** A message about the failed attempt. */
  error?: string;
}

/**
 * The development directory's sign-in page: fields labelled "Email" and "Password" and a "Sign in"
 * button, in the product's colours, with a Thai-capable font stack. No script: a plain form post.
 */
export function loginPage({ action, email = '', error }: LoginPageOptions): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · BTalk development directory</title>
<style>
  :root { --primary: #472F92; --secondary: #8F0562; }
  * { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: linear-gradient(135deg, var(--primary), var(--secondary));
    font-family: "Noto Sans Thai", "Sarabun", "Leelawadee UI", "Tahoma", system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f1a2e; }
  main { width: min(360px, calc(100vw - 32px)); background: #fff; border-radius: 12px; padding: 32px 28px; box-shadow: 0 12px 40px rgba(0,0,0,.25); }
  h1 { margin: 0 0 4px; font-size: 1.5rem; color: var(--primary); }
  p.lead { margin: 0 0 24px; color: #5c5470; font-size: .95rem; }
  label { display: block; font-weight: 600; margin: 16px 0 6px; }
  input { width: 100%; padding: 10px 12px; font: inherit; border: 1px solid #c9c2dc; border-radius: 6px; }
  input:focus { outline: 2px solid var(--primary); border-color: var(--primary); }
  button { width: 100%; margin-top: 24px; padding: 12px; font: inherit; font-weight: 600; color: #fff; background: var(--primary); border: 0; border-radius: 6px; cursor: pointer; }
  button:hover, button:focus { background: var(--secondary); }
  .error { margin: 0 0 8px; padding: 10px 12px; border-radius: 6px; background: #fdecef; color: #8F0562; }
  footer { margin-top: 20px; font-size: .8rem; color: #6e6682; }
</style>
</head>
<body>
<main>
  <h1>BTalk</h1>
  <p class="lead">Development directory · ไดเรกทอรีสำหรับการพัฒนา</p>
  ${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
  <form method="post" action="${escapeHtml(action)}" autocomplete="on">
    <label for="email">Email</label>
    <input id="email" name="email" type="email" autocomplete="username" required autofocus value="${escapeHtml(email)}">
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required>
    <button type="submit">Sign in</button>
  </form>
  <footer>For development only: every seeded person's password is <code>btalk</code>.</footer>
</main>
</body>
</html>`;
}
