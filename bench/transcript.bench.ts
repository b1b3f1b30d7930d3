// Transcript benchmark in real Chromium: render 5,000 entries in pal-transcript, then report the time to
// append one more and the frame times while scrolling. Part of `npm run bench`; alone: `npx tsx bench/transcript.bench.ts`.
import { chromium } from 'playwright-core';
import { bundlePage } from './page-bundle.js';

const entries = Number(process.env.BENCH_ENTRIES ?? 5000);
const appendRuns = 60;
const scrollFrames = 240;

type Bench = {
  fill(n: number): Promise<{ ms: number; rows: number; entries: number }>;
  appendOne(): Promise<{ updated: number; nextFrame: number }>;
  scroll(frames: number, step: number): Promise<{ intervals: number[]; work: number[]; rows: number; scrollTop: number }>;
};
declare const bench: Bench;

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return { median: q(0.5), p95: q(0.95), max: s[s.length - 1]!, mean: xs.reduce((a, b) => a + b, 0) / xs.length };
};
const f = (n: number) => n.toFixed(2);

export default async function run(): Promise<void> {
  const script = await bundlePage(new URL('./transcript-page.ts', import.meta.url));

  const browser = await chromium.launch({
    executablePath: process.env.PALKIT_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });

  try {
    const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    page.on('pageerror', (e) => console.error('page error:', e));
    await page.setContent('<!doctype html><html><body style="margin:0"></body></html>');
    await page.addScriptTag({ content: script, type: 'module' });
    await page.waitForFunction(() => 'bench' in window);

    const fill = await page.evaluate((n) => bench.fill(n), entries);
    console.log(`filled ${fill.entries} entries in ${f(fill.ms)} ms; rows in the DOM: ${fill.rows}`);

    const appends: { updated: number; nextFrame: number }[] = [];
    for (let i = 0; i < appendRuns; i++) appends.push(await page.evaluate(() => bench.appendOne()));
    const upd = stats(appends.map((a) => a.updated));
    const nf = stats(appends.map((a) => a.nextFrame));
    console.log(
      `append one entry at ${entries}+ (n=${appendRuns}): element updated median ${f(upd.median)} ms, p95 ${f(upd.p95)} ms; next frame median ${f(nf.median)} ms, p95 ${f(nf.p95)} ms`,
    );

    const scroll = await page.evaluate((frames) => bench.scroll(frames, 40), scrollFrames);
    const iv = stats(scroll.intervals.slice(1));
    const work = stats(scroll.work);
    const long = scroll.intervals.filter((x) => x > 1000 / 60 + 4).length;
    console.log(
      `scrolling up 40 px/frame for ${scrollFrames} frames: frame interval mean ${f(iv.mean)} ms, p95 ${f(iv.p95)} ms, max ${f(iv.max)} ms; frames over 20.7 ms: ${long}; work per frame median ${f(work.median)} ms, p95 ${f(work.p95)} ms; rows in the DOM: ${scroll.rows}`,
    );
  } finally {
    await browser.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
