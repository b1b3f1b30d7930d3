// The one rule for an OpenAI-compatible base URL, shared by chat, embeddings, speech and transcription:
// "https://host", "https://host/" and "https://host/v1" all mean the same endpoints. A base whose path
// already names a version anywhere ("/v1", "/openai/v1", "/v1beta/openai") is used as given; any other
// gets "/v1" added, as OpenAI's own paths have it.
const VERSION_SEGMENT = /^v\d+[a-z0-9]*$/i;

export function openAiEndpoint(baseUrl: string, path: string): string {
  const base = new URL(baseUrl);
  const segments = base.pathname.split('/').filter(Boolean);
  if (!segments.some((s) => VERSION_SEGMENT.test(s))) segments.push('v1');
  base.pathname = `/${[...segments, ...path.split('/').filter(Boolean)].join('/')}`;
  base.search = '';
  base.hash = '';
  return base.toString();
}
