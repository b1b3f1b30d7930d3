// Breadth-first crawl of one site: level by level up to `depth` link hops from the start page, at most
// `maxPages` HTML pages (taken in breadth-first order, so the result is the same on every run),
// robots.txt obeyed, URLs normalised and de-duplicated (redirect targets included), a politeness
// delay per host, redirects followed by hand so every hop is checked (same site, robots, seen).
import type { GuardedFetch } from '../../../platform/net/guarded-fetch.js';
import { extractPage } from '../extract/off-thread.js';
import { decodeText } from '../extract/decode-text.js';
import { Politeness } from './politeness.js';
import type { Clock } from '../../../platform/time.js';
import { allowAll, CRAWLER_USER_AGENT, disallowAll, parseRobots, type RobotsRules } from './robots.js';
import { looksLikeNonHtml, normaliseUrl, sameSite } from './urls.js';

export interface CrawlOptions {
  startUrl: string;
  depth: number;
  maxPages: number;
  /** Minimum gap between two requests to the host (robots.txt Crawl-delay may raise it, up to 10 s). */
  delayMs: number;
  fetch: GuardedFetch;
  /** The service's clock: the politeness delay is waited for on it. */
  clock: Pick<Clock, 'sleep'>;
  signal?: AbortSignal;
  /** Requests in flight at once (the politeness delay still spaces their starts). */
  concurrency?: number;
  maxPageBytes?: number;
  onPage?(accepted: number): Promise<void>;
}

export interface CrawledPage {
  url: string;
  title: string;
  text: string;
}

export interface CrawlResult {
  pages: CrawledPage[];
  /** Why the start page gave nothing, when it did not. */
  startFailure?: { kind: 'download' | 'robots' | 'not_html'; detail: string };
}

type Fetched =
  | { ok: true; url: string; html: string }
  | { ok: false; kind: 'download' | 'robots' | 'not_html' | 'duplicate' | 'offsite'; detail: string };

export async function crawl(options: CrawlOptions): Promise<CrawlResult> {
  const { depth, maxPages, fetch, signal } = options;
  const start = normaliseUrl(options.startUrl);
  if (!start) return { pages: [], startFailure: { kind: 'download', detail: 'start address is not an http(s) URL' } };
  const robotsByOrigin = new Map<string, Promise<RobotsRules>>();
  let crawlDelayMs = 0;
  const politeness = new Politeness(() => Math.max(options.delayMs, crawlDelayMs), options.clock);
  const robotsFor = (url: string) => {
    const origin = new URL(url).origin;
    let rules = robotsByOrigin.get(origin);
    if (!rules) robotsByOrigin.set(origin, (rules = loadRobots(origin)));
    return rules;
  };

  async function loadRobots(origin: string): Promise<RobotsRules> {
    const release = await politeness.acquire(new URL(origin).host, signal);
    try {
      const response = await fetch(`${origin}/robots.txt`, {
        headers: { 'user-agent': CRAWLER_USER_AGENT },
        maxBytes: 512 * 1024,
        timeoutMs: 10_000,
        ...(signal ? { signal } : {}),
      });
      if (response.status >= 400 && response.status < 500) {
        await response.body?.cancel();
        return allowAll; // no robots.txt: everything is allowed
      }
      if (!response.ok) {
        await response.body?.cancel();
        return disallowAll; // RFC 9309: an unreachable robots.txt means a complete disallow
      }
      const rules = parseRobots(await response.text());
      if (rules.crawlDelay) crawlDelayMs = Math.min(rules.crawlDelay * 1000, 10_000);
      return rules;
    } catch (error) {
      if (signal?.aborted) throw error;
      // The host cannot be reached at all (refused address, DNS, connection): say so, not "robots".
      return { ...disallowAll, unreachable: error instanceof Error ? error.message : String(error) };
    } finally {
      release();
    }
  }

  const seen = new Set<string>([start]);
  const pages: CrawledPage[] = [];

  async function fetchPage(url: string): Promise<Fetched> {
    let current = url;
    for (let hop = 0; hop <= 5; hop++) {
      const robots = await robotsFor(current);
      if (robots.unreachable) return { ok: false, kind: 'download', detail: `${current}: ${robots.unreachable}` };
      if (!robots.isAllowed(current)) return { ok: false, kind: 'robots', detail: `robots.txt disallows ${current}` };
      const release = await politeness.acquire(new URL(current).host, signal);
      try {
        let response: Response;
        try {
          response = await fetch(current, {
            redirect: 'manual',
            headers: { 'user-agent': CRAWLER_USER_AGENT, accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1' },
            maxBytes: options.maxPageBytes ?? 5 * 1024 * 1024,
            timeoutMs: 15_000,
            ...(signal ? { signal } : {}),
          });
        } catch (error) {
          if (signal?.aborted) throw error;
          return { ok: false, kind: 'download', detail: `${current}: ${error instanceof Error ? error.message : String(error)}` };
        }
        const location = response.headers.get('location');
        if (response.status >= 300 && response.status < 400 && location) {
          await response.body?.cancel();
          const next = normaliseUrl(location, current);
          if (!next || !sameSite(next, start!)) return { ok: false, kind: 'offsite', detail: `${current} redirects off the site` };
          if (next !== url && seen.has(next))
            return { ok: false, kind: 'duplicate', detail: `${current} redirects to ${next}, already crawled` };
          seen.add(next);
          current = next;
          continue;
        }
        if (!response.ok) {
          await response.body?.cancel();
          return { ok: false, kind: 'download', detail: `${current} answered ${response.status}` };
        }
        const type = (response.headers.get('content-type') ?? '').toLowerCase();
        if (type && !/text\/html|application\/xhtml\+xml/.test(type)) {
          await response.body?.cancel();
          return { ok: false, kind: 'not_html', detail: `${current} is ${type.split(';')[0]}` };
        }
        let bytes: Uint8Array;
        try {
          bytes = new Uint8Array(await response.arrayBuffer());
        } catch (error) {
          if (signal?.aborted) throw error;
          return { ok: false, kind: 'download', detail: `${current}: ${error instanceof Error ? error.message : String(error)}` };
        }
        const html = decodeText(bytes);
        if (html === undefined) return { ok: false, kind: 'not_html', detail: `${current} is not text` };
        return { ok: true, url: current, html };
      } finally {
        release();
      }
    }
    return { ok: false, kind: 'download', detail: `${url}: too many redirects` };
  }

  let level = [start];
  let startFailure: CrawlResult['startFailure'];
  for (let d = 0; d <= depth && level.length > 0 && pages.length < maxPages; d++) {
    const next: string[] = [];
    for (let i = 0; i < level.length && pages.length < maxPages;) {
      const batch = level.slice(i, i + Math.min(options.concurrency ?? 4, maxPages - pages.length));
      i += batch.length;
      const results = await Promise.all(batch.map(fetchPage));
      for (const result of results) {
        if (!result.ok) {
          if (d === 0)
            startFailure = {
              kind: result.kind === 'robots' || result.kind === 'not_html' ? result.kind : 'download',
              detail: result.detail,
            };
          continue;
        }
        if (pages.length >= maxPages) break;
        const page = await extractPage(result.html, result.url);
        pages.push({ url: result.url, title: page.title, text: page.text });
        await options.onPage?.(pages.length);
        if (d === depth) continue;
        for (const link of page.links) {
          const url = normaliseUrl(link);
          if (!url || seen.has(url) || !sameSite(url, start) || looksLikeNonHtml(url)) continue;
          seen.add(url);
          next.push(url);
        }
      }
    }
    level = next;
  }
  return pages.length ? { pages } : { pages, ...(startFailure ? { startFailure } : {}) };
}
