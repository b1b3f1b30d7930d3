// The service's JSON log lines written to stderr while `step` runs. The gate runs many files in one
// process, so a line that is not JSON (the test runner's own warnings) is not the service's and is left out of
// `lines`; `text` keeps everything written, for checks that nothing at all leaked.
export async function serviceLogDuring<T>(
  step: () => Promise<T>,
): Promise<{ result: T; lines: Array<Record<string, unknown>>; text: string }> {
  const written: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => (written.push(String(chunk)), true)) as typeof process.stderr.write;
  let result: T;
  try {
    result = await step();
  } finally {
    process.stderr.write = write;
  }
  const text = written.join('');
  const lines = text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { result, lines, text };
}
