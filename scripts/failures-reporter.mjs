// A node:test reporter that prints only the failed tests, each with its error, once the run is over: the
// TAP stream above it is long, and CI shows the end of the output. With PALKIT_FAILURES_OUT set they are also
// written to that file, for a runner of several processes to say them again after all of their output.
import { writeFileSync } from 'node:fs';

export default async function* failures(source) {
  const failed = [];
  for await (const event of source) {
    if (event.type !== 'test:fail') continue;
    const error = event.data.details?.error;
    if (error?.failureType === 'subtestsFailed') continue; // its failed subtests are listed themselves
    failed.push({
      name: event.data.name,
      where: `${event.data.file ?? ''}:${event.data.line ?? ''}`,
      message: String(error?.cause?.message ?? error?.message ?? error),
    });
  }
  if (failed.length === 0) return;
  // Eight lines of each error, each cut at 400 characters (a fuzzer's counterexample can be 60,000 on one line).
  const cut = (line) => (line.length > 400 ? `${line.slice(0, 400)}… (${line.length} characters)` : line);
  const text = [
    `\n=== ${failed.length} failed ===\n`,
    ...failed.map((f) => `✖ ${f.name} (${f.where})\n    ${f.message.split('\n').slice(0, 8).map(cut).join('\n    ')}\n`),
  ].join('');
  if (process.env.PALKIT_FAILURES_OUT) writeFileSync(process.env.PALKIT_FAILURES_OUT, text);
  yield text;
}
