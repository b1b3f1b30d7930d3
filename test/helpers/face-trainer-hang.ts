// A face trainer that takes its step and never answers (nor says a frame was handled): a hung detector,
// for trainer-process.ts's bounds. It leaves when the service ends it or goes away.
process.on('message', () => undefined);
process.on('disconnect', () => process.exit(0));
