// The real Daily runner process (live/runner/page-entry.ts: Chromium, the runner page, the bridge into the
// PAL's local room) with one thing swapped: the page's call object is a recording stand-in for daily-js,
// which cannot reach Daily from a test machine. The stand-in "joins", lets a visitor (Grace) in, and once
// the tracks the runner gave it carry the PAL's voice (audible) and face (frames at a <video>), has Grace
// say so in an app-message; the PAL's answer to it then shows that the whole path works.
import { main } from '../../src/server/live/runner/page-entry.js';
import { standInCallScript } from './stand-in-call-script.js';

const initScript = standInCallScript(
  { session_id: 'grace', user_name: 'Grace' },
  `const text = 'hello, I hear you at ' + peak.toFixed(2) + ' and see you at ' + video.videoWidth + 'x' + video.videoHeight;
    emit('app-message', { fromId: 'grace', data: { message_type: 'conversation', event_type: 'conversation.respond', properties: { text } } });`,
);

main({ initScript });
