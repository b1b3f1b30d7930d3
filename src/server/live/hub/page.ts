// The page behind a local conversation_url: the full-page `pal-conversation`. The meeting token comes
// from the URL fragment (#t=…, never sent to the server) or is typed in; it is never put in a query string.
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export function roomPage(conversationUrl: string, scriptUrl = '/palkit.js'): string {
  const url = escapeHtml(conversationUrl);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Conversation</title>
<script src="${escapeHtml(scriptUrl)}" defer></script>
<style>
  html, body { margin: 0; height: 100%; font-family: system-ui, sans-serif; background: #0b0d12; color: #f4f5f7; }
  pal-conversation { display: block; width: 100vw; height: 100vh; }
  form { display: grid; gap: .75rem; max-width: 22rem; margin: 20vh auto; padding: 1.5rem; border-radius: 12px; background: #161a22; }
  input { padding: .6rem; border-radius: 8px; border: 1px solid #3a4150; background: #0b0d12; color: inherit; font: inherit; }
  button { padding: .6rem; border: 0; border-radius: 8px; background: #4f7cff; color: #fff; font: inherit; cursor: pointer; }
  [hidden] { display: none !important; }
</style>
</head>
<body>
<form id="gate" hidden>
  <label for="token">Meeting token</label>
  <input id="token" name="token" autocomplete="off" spellcheck="false" required>
  <button type="submit">Join the conversation</button>
</form>
<pal-conversation id="conversation" conversation-url="${url}" hidden></pal-conversation>
<script>
(() => {
  const conversation = document.getElementById('conversation');
  const gate = document.getElementById('gate');
  const start = (token) => {
    conversation.setAttribute('meeting-token', token);
    conversation.hidden = false;
    gate.hidden = true;
    // Keep the token out of the address bar (and out of anything copied from it).
    history.replaceState(null, '', location.pathname);
  };
  const fromFragment = new URLSearchParams(location.hash.slice(1)).get('t');
  if (fromFragment) return start(fromFragment);
  gate.hidden = false;
  gate.addEventListener('submit', (event) => {
    event.preventDefault();
    const token = gate.elements.token.value.trim();
    if (token) start(token);
  });
})();
</script>
</body>
</html>
`;
}
