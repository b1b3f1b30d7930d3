// robots.txt (RFC 9309): the group for our product token `palkit` if there is one, else `*`;
// the longest matching Allow/Disallow pattern decides (Allow on a tie); `*` and `$` wildcards.
export const CRAWLER_TOKEN = 'palkit';
export const CRAWLER_USER_AGENT = 'palkit/1 (+knowledge crawler; robots token: palkit)';

interface Rule {
  allow: boolean;
  pattern: string;
  regex: RegExp;
}

export interface RobotsRules {
  isAllowed(url: string): boolean;
  /** Crawl-delay of the chosen group, in seconds. */
  crawlDelay: number | undefined;
  /** Set when robots.txt could not be fetched because the host is unreachable (nothing is allowed). */
  unreachable?: string;
}

export const allowAll: RobotsRules = { isAllowed: () => true, crawlDelay: undefined };
export const disallowAll: RobotsRules = { isAllowed: () => false, crawlDelay: undefined };

export function parseRobots(text: string, token = CRAWLER_TOKEN): RobotsRules {
  const groups: Array<{ agents: string[]; rules: Rule[]; delay?: number }> = [];
  let current: (typeof groups)[number] | undefined;
  let lastWasAgent = false;
  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const line = rawLine.replace(/#.*$/, '').trim();
    const m = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    const field = m[1]!.toLowerCase();
    const value = m[2]!.trim();
    if (field === 'user-agent') {
      if (!current || !lastWasAgent) groups.push((current = { agents: [], rules: [] }));
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (!current) continue;
    if ((field === 'allow' || field === 'disallow') && value) current.rules.push(rule(field === 'allow', value));
    else if (field === 'crawl-delay' && Number.isFinite(Number(value))) current.delay = Number(value);
  }
  const mine = groups.filter((g) => g.agents.some((a) => a === token || (a !== '*' && token.startsWith(a))));
  const chosen = mine.length ? mine : groups.filter((g) => g.agents.includes('*'));
  const rules = chosen.flatMap((g) => g.rules);
  const delay = chosen.find((g) => g.delay !== undefined)?.delay;
  return {
    crawlDelay: delay,
    isAllowed(url: string) {
      const u = new URL(url);
      const path = u.pathname + u.search;
      if (path === '/robots.txt') return true;
      let best: Rule | undefined;
      for (const r of rules) {
        if (!r.regex.test(path)) continue;
        if (!best || r.pattern.length > best.pattern.length || (r.pattern.length === best.pattern.length && r.allow)) best = r;
      }
      return best ? best.allow : true;
    },
  };
}

function rule(allow: boolean, pattern: string): Rule {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const source = body
    .split('*')
    .map((part) => safeDecode(part).replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return { allow, pattern, regex: new RegExp(`^${source}${anchored ? '$' : ''}`) };
}

function safeDecode(part: string): string {
  try {
    // Compare in the URL's own (encoded) form: encode what a path would encode, keep the rest.
    return encodeURI(decodeURI(part));
  } catch {
    return part;
  }
}
