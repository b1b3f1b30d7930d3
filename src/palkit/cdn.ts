// Script-tag entry (classic script, dist/cdn/palkit.js): defines the elements at once as light shells and
// fetches the full implementation from next to itself when it is needed.
import { defineShells, type FullModule } from './cdn/shell.js';

const script = document.currentScript as HTMLScriptElement | null;
const base = script?.src ?? location.href;
defineShells(() => import(/* @vite-ignore */ new URL('./palkit-full.js', base).href) as Promise<FullModule>, new URL(base).origin);
