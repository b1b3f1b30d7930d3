// The face trainer's process with a memory for one real-time tier run (kept-rigs-preload.ts): a step whose
// key it has kept is answered from the folder; any other step runs in the real trainer (trainer-entry.ts,
// imported here) and its result is kept. The key covers what the result depends on: the step's request, the
// media's bytes, and every source file the trainer runs plus package-lock.json (the landmark model's
// version), so a change to the rig's code or version never meets a rig made before it.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import type { TrainerMessage, TrainerRequest } from '../../src/server/resources/faces/rig/trainer-process.js';

const [folder, entry] = process.argv.slice(2) as [string, string];
const root = fileURLToPath(new URL('../../', import.meta.url));
/** What the trainer's result depends on besides its request: its sources (rig/ imports face-drawing/ and protocol/). */
const SOURCES = [
  'src/server/resources/faces/rig',
  'src/face-drawing',
  'src/protocol/faces',
  'src/protocol/visemes.ts',
  'package-lock.json',
];

function addTree(hash: ReturnType<typeof createHash>, path: string): void {
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path).sort()) if (name !== 'dist' && name !== 'node_modules') addTree(hash, join(path, name));
    return;
  }
  hash.update(path.slice(root.length)).update('\0').update(readFileSync(path)).update('\0');
}

function keyOf(request: TrainerRequest): string {
  const hash = createHash('sha256');
  for (const source of SOURCES) addTree(hash, join(root, source));
  // The request without its paths (a temporary copy's name, where ffmpeg is), and the media's own bytes.
  const { path, ffmpeg: _ffmpeg, ...rest } = request;
  hash.update(serialize(rest)).update(readFileSync(path));
  return hash.digest('hex');
}

process.once('message', (request: TrainerRequest) => {
  const file = join(folder, `${request.step}-${keyOf(request)}.bin`);
  if (existsSync(file)) {
    process.send!(deserialize(readFileSync(file)) as TrainerMessage);
    return;
  }
  const send = process.send!.bind(process) as (message: TrainerMessage) => boolean;
  process.send = ((message: TrainerMessage) => {
    if (message.type === 'analysis' || message.type === 'rig') {
      // Written whole, then renamed: a trainer killed mid-write leaves no half a rig to be read.
      writeFileSync(`${file}.${process.pid}`, serialize(message));
      renameSync(`${file}.${process.pid}`, file);
    }
    return send(message);
  }) as typeof process.send;
  // The real trainer listens for its request as it loads; it is handed the one this process was sent.
  void import(pathToFileURL(entry).href).then(() => process.emit('message', request, undefined));
});
// As the real trainer, it stays (its channel held) until the service ends it, and leaves when the service is gone.
process.on('message', () => undefined);
process.on('disconnect', () => process.exit(0));
