// Settings of every `cem analyze` run (npm run build, storybook, build-storybook; passed with --config).
// The analyzer writes its output path into the cwd's package.json (`customElements`) unless told not to,
// and a command-line flag cannot say false: so the Storybook runs (outdir .storybook/generated) used to
// rewrite the tracked package.json. The browser package's own package.json names its manifest by hand.
export default {
  packagejson: false,
};
