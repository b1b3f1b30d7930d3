// A face trainer that crashes as it loads (a broken build, a native module that fails), for
// trainer-process.ts's test that the step fails with the crash's own words.
throw new TypeError('the trainer could not load its model');
