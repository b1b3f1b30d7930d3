// The React page of the demo: palkit from npm (`palkit/react` wrappers), the embed with `onPal…` handlers,
// a language switch, and the events as they arrive.
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { PalEmbed } from 'palkit/react';

interface DemoConfig {
  deployments: { widget: string; embed: string; landing: string; captcha: string } | null;
}
declare global {
  interface Window {
    PALKIT_DEMO?: DemoConfig;
  }
}

type Logged = { at: string; type: string; detail: unknown };

function App() {
  const deployments = window.PALKIT_DEMO?.deployments;
  const [events, setEvents] = useState<Logged[]>([]);
  const [lang, setLang] = useState('en');
  const log = (event: Event & { detail?: unknown }) =>
    setEvents((list) => [{ at: new Date().toLocaleTimeString(), type: event.type, detail: event.detail ?? {} }, ...list].slice(0, 50));
  if (!deployments)
    return (
      <p>
        The demo is not seeded yet (start it with <code>npm start</code>).
      </p>
    );
  return (
    <>
      <h1>React page</h1>
      <p>
        This page imports <code>{"import { PalEmbed } from 'palkit/react'"}</code> and listens with <code>onPal…</code> props.
      </p>
      <label>
        Language{' '}
        <select value={lang} onChange={(e) => setLang(e.target.value)} aria-label="Language">
          {['en', 'de', 'es', 'fr', 'ja'].map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </select>
      </label>
      <div className="embed-frame">
        <PalEmbed
          id="react-embed"
          deploymentId={deployments.embed}
          lang={lang}
          onPalReady={log}
          onPalStateChange={log}
          onPalModeChange={log}
          onPalConversationStarted={log}
          onPalConversationEnded={log}
          onPalError={log}
          onPalToolCall={log}
          onPalCanvasInteraction={log}
        />
      </div>
      <h2>Events</h2>
      <ol className="log" id="events" aria-label="Events from the element" reversed>
        {events.map((e, i) => (
          <li key={events.length - i}>
            <code>{e.type}</code> {JSON.stringify(e.detail)} <small>{e.at}</small>
          </li>
        ))}
      </ol>
    </>
  );
}

createRoot(document.getElementById('app')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
