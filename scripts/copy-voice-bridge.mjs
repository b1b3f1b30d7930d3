// The compiled service compiles the local voice's bridge on first use: its C source ships beside it.
import { copyFileSync, mkdirSync } from 'node:fs';

mkdirSync('dist/server', { recursive: true });
copyFileSync('src/server/live/engines/espeak/palkit-espeak.c', 'dist/server/palkit-espeak.c');
