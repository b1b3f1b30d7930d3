// A readable API reference at /docs, rendered in the browser from /openapi.json (no external assets).
export function apiReferencePage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>palkit API reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#16161d;background:#fafafc}
header{background:#16161d;color:#fff;padding:24px 32px}main{max-width:1000px;margin:0 auto;padding:16px 32px}
h2{margin-top:32px;border-bottom:1px solid #ddd}details{background:#fff;border:1px solid #e2e2ea;border-radius:8px;margin:8px 0;padding:8px 12px}
summary{cursor:pointer}code,pre{font:13px ui-monospace,monospace}code{overflow-wrap:anywhere}@media (max-width:480px){header,main{padding-inline:16px}}pre{background:#f3f3f7;padding:8px;border-radius:6px;overflow:auto}
.m{display:inline-block;min-width:58px;font-weight:700;text-transform:uppercase;font-size:12px}.get{color:#1e7d34}.post{color:#5b5bf0}.patch,.put{color:#9a6700}.delete{color:#c62828}
.pub{font-size:11px;background:#e6f4ea;color:#1e7d34;border-radius:4px;padding:1px 6px;margin-left:6px}
</style></head><body><header><h1>palkit API reference</h1><p>Keyed routes take <code>x-api-key</code>. Machine-readable: <a style="color:#aab" href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p></header>
<main id="out">Loading…</main>
<script type="module">
const doc = await (await fetch('/openapi.json')).json();
const out = document.getElementById('out'); out.textContent = '';
const byTag = new Map();
for (const [path, ops] of Object.entries(doc.paths)) for (const [method, op] of Object.entries(ops)) {
  const tag = (op.tags && op.tags[0]) || 'Other'; if (!byTag.has(tag)) byTag.set(tag, []); byTag.get(tag).push({ path, method, op });
}
const el = (tag, props = {}, ...kids) => { const e = document.createElement(tag); Object.assign(e, props); e.append(...kids); return e; };
const schemaText = (s) => JSON.stringify(s, null, 2);
for (const [tag, ops] of [...byTag].sort((a, b) => a[0].localeCompare(b[0]))) {
  out.append(el('h2', { textContent: tag }));
  for (const { path, method, op } of ops) {
    const sum = el('summary', {}, el('span', { className: 'm ' + method, textContent: method }), el('code', { textContent: path }), ' ', op.summary || '');
    if (op.security && op.security.length === 0) sum.append(el('span', { className: 'pub', textContent: 'public' }));
    const d = el('details', {}, sum);
    if (op.description) d.append(el('p', { textContent: op.description }));
    const params = (op.parameters || []).map((p) => p.in + ' ' + p.name + (p.required ? ' (required)' : ''));
    if (params.length) d.append(el('p', { textContent: 'Parameters: ' + params.join(', ') }));
    const body = op.requestBody && op.requestBody.content && op.requestBody.content['application/json'];
    if (body) d.append(el('p', { textContent: 'Body:' }), el('pre', { textContent: schemaText(body.schema) }));
    for (const [status, r] of Object.entries(op.responses || {})) {
      const c = r.content && r.content['application/json'];
      d.append(el('p', { textContent: status + ' — ' + (r.description || '') }));
      if (c && c.schema) d.append(el('pre', { textContent: schemaText(c.schema) }));
    }
    out.append(d);
  }
}
if (doc.components && doc.components.schemas) {
  out.append(el('h2', { textContent: 'Schemas' }));
  for (const [name, s] of Object.entries(doc.components.schemas)) out.append(el('details', {}, el('summary', { textContent: name }), el('pre', { textContent: schemaText(s) })));
}
</script></body></html>`;
}
