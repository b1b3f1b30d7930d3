// The service's root URL: a small page that names the service and points to its reference, instead of a
// JSON 404 (a demo process registers its own `/` first and opens the demo index instead).
export function servicePage(publicUrl: string): string {
  const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>palkit service</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;color:#16161d;background:#fafafc}
main{max-width:34rem;padding:32px}h1{margin:0 0 8px}a{color:#3d3dc4}code{font:14px ui-monospace,monospace}</style></head>
<body><main>
<h1>palkit service</h1>
<p>This is the companion service of palkit: conversational video agents (PALs) on any web page.</p>
<ul>
<li><a href="/docs">API reference</a> (keyed routes take <code>x-api-key</code>)</li>
<li><a href="/openapi.json">OpenAPI document</a></li>
<li>Script tag: <code>&lt;script src="${esc(publicUrl)}/palkit.js"&gt;&lt;/script&gt;</code></li>
<li><a href="/healthz">Health</a></li>
</ul>
</main></body></html>`;
}
