// Loaded with `--import` into a service process under test: on SIGUSR2 the process's wall clock (Date, which
// the service's systemClock reads) jumps forward by PALKIT_TEST_CLOCK_JUMP_MS, and `clock-jumped <ms>` is printed
// on stderr once it has. A test so moves the service past deadlines it set (all at one instant) instead of
// waiting for them in real time. Timers (setTimeout, performance.now) are monotonic and do not move.
const step = Number(process.env.PALKIT_TEST_CLOCK_JUMP_MS);
if (!(step > 0)) throw new Error('clock-jump-preload: PALKIT_TEST_CLOCK_JUMP_MS must be a positive number of milliseconds');

const RealDate = Date;
let offset = 0;

/** Date with the offset added wherever it reads the current time (no arguments, Date.now); otherwise the real one. */
class ShiftedDate extends RealDate {
  constructor(...args: unknown[]) {
    if (args.length === 0) super(RealDate.now() + offset);
    else super(...(args as ConstructorParameters<DateConstructor>));
  }

  static override now(): number {
    return RealDate.now() + offset;
  }
}
globalThis.Date = ShiftedDate as DateConstructor;

process.on('SIGUSR2', () => {
  offset += step;
  process.stderr.write(`clock-jumped ${offset}\n`);
});
