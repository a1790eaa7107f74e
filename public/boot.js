// Starts the app. Trunk writes the names of the JavaScript glue and the
// WebAssembly module (both with content hashes) on the <script> tag that
// loads this file; keeping the loader in a file means the page's
// Content-Security-Policy needs no inline script.
const tag = document.querySelector('script[data-vramfit-wasm]');
const { default: init } = await import(tag.dataset.vramfitJs);
await init({ module_or_path: tag.dataset.vramfitWasm });
dispatchEvent(new CustomEvent('TrunkApplicationStarted'));
