// @echogarden/fvad-wasm ships no types: its default export loads the Emscripten module.
declare module '@echogarden/fvad-wasm' {
  const load: () => Promise<unknown>;
  export default load;
}
