// The hosted_url page: plays a ready video, says so while it is generating (and refreshes), or shows
// the error. Public by the video's unguessable id, like the media files themselves.
import type { VideoRow } from './repository.js';

const escape = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export function hostedVideoHtml(row: VideoRow): string {
  const title = escape(row.video_name);
  let body: string;
  if (row.status === 'ready' && row.video_media_url) {
    const poster = row.still_media_url ? ` poster="${escape(row.still_media_url)}"` : '';
    body = `<video controls playsinline preload="metadata"${poster} src="${escape(row.video_media_url)}"></video>
<p><a href="${escape(row.video_media_url)}" download>Download MP4</a></p>`;
  } else if (row.status === 'error') {
    body = `<p class="note">This video could not be generated.</p>`;
  } else {
    body = `<p class="note">This video is being generated (${escape(row.generation_progress)})… this page refreshes by itself.</p>`;
  }
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${row.status === 'generating' ? '<meta http-equiv="refresh" content="5">' : ''}
<title>${title}</title>
<style>
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #111; color: #eee; font: 16px/1.5 system-ui, sans-serif; }
  main { width: min(960px, 100vw - 32px); }
  h1 { font-size: 1.2rem; font-weight: 600; }
  video { width: 100%; border-radius: 8px; background: #000; }
  a { color: #9cf; }
  .note { color: #bbb; }
</style>
</head>
<body><main><h1>${title}</h1>
${body}
</main></body>
</html>`;
}

/** The page loads nothing but its own inline style and the service's media. */
export function hostedPageHeaders(publicUrl: string): Record<string, string> {
  const origin = new URL(publicUrl).origin;
  return {
    'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; media-src 'self' ${origin}; img-src 'self' ${origin}; base-uri 'none'; form-action 'none'`,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}
