// The hosted landing page at /d/{deployment_id}: a small HTML document around <pal-landing>, with the
// deployment's own title and description in the head for link previews.

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export function landingPageHtml(input: {
  deploymentId: string;
  apiBase: string;
  title: string;
  description: string;
  lang: string;
}): string {
  const title = escapeHtml(input.title);
  const description = escapeHtml(input.description);
  return `<!doctype html>
<html lang="${escapeHtml(input.lang)}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1,viewport-fit=cover">
<title>${title}</title><meta name="description" content="${description}">
<meta property="og:title" content="${title}"><meta property="og:description" content="${description}">
<style>html,body{margin:0;height:100%;background:#0d0d12}pal-landing{display:block;min-height:100%}</style>
</head><body>
<pal-landing deployment-id="${escapeHtml(input.deploymentId)}" api-base="${escapeHtml(input.apiBase)}"></pal-landing>
<script src="${escapeHtml(input.apiBase)}/palkit.js"></script>
</body></html>`;
}

export function notFoundPageHtml(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title>
<style>body{font:16px system-ui,sans-serif;display:grid;place-items:center;height:100vh;margin:0;color:#333}</style></head>
<body><main><h1>This page does not exist</h1><p>The link may be mistyped, or the page was removed.</p></main></body></html>`;
}
