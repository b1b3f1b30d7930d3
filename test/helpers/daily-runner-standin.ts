// A stand-in for the Daily runner process (PALKIT_DAILY_RUNNER_ENTRY): it speaks the runner's IPC
// (live/runner/page-messages.ts) and bridges into the PAL's local room exactly as the runner's page does,
// but "joins" Daily at once instead of opening a Chromium page. The visitor it stands for says "hello"
// once the PAL has greeted; it reports the voice as published when the PAL's first audio frame arrives.
import WebSocket from 'ws';
import { RUNNER_ALIVE_MS, type RunnerReport, type RunnerStart } from '../../src/server/live/runner/page-messages.js';

const report = (message: RunnerReport) => process.send?.(message);

process.once('message', (start: RunnerStart) => {
  setInterval(() => report({ type: 'alive' }), RUNNER_ALIVE_MS);
  report({ type: 'joined' });
  const socket = new WebSocket(start.bridgeUrl.replace(/^http/, 'ws'));
  let greeted = false;
  let voiced = false;
  socket.on('open', () => socket.send(JSON.stringify({ type: 'join', meeting_token: start.bridgeToken, user_name: 'Daily visitor' })));
  socket.on('message', (data, isBinary) => {
    if (isBinary) {
      if (!voiced) report({ type: 'published', tracks: ['audio', 'video'] });
      voiced = true;
      return;
    }
    const frame = JSON.parse(data.toString());
    if (frame.type === 'ended') process.exit(0);
    if (frame.type === 'error') {
      report({ type: 'failed', message: `the bridge was refused: ${frame.code}` });
      process.exit(1);
    }
    const event = frame.type === 'app-message' ? frame.data : null;
    if (!greeted && event?.event_type === 'conversation.utterance' && event.properties?.role === 'replica') {
      greeted = true;
      const respond = { message_type: 'conversation', event_type: 'conversation.respond', properties: { text: 'hello' } };
      socket.send(JSON.stringify({ type: 'app-message', data: respond }));
    }
  });
  socket.on('close', () => process.exit(0));
});
// The service went away: so does its runner.
process.on('disconnect', () => process.exit(0));
