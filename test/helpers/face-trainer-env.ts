// A face trainer that answers its step with the names in its environment (as a failure's message), for
// trainer-process.ts's test that the service's settings and secrets stay with the service.
process.on('message', () => process.send!({ type: 'failed', kind: 'other', message: Object.keys(process.env).sort().join(' ') }));
process.on('disconnect', () => process.exit(0));
