// Starts the app. Trunk writes the names of the JavaScript glue and the
// WebAssembly module (both with content hashes) on the <script> tag that
// loads this file; keeping the loader in a file means the page's
// Content-Security-Policy needs no inline script.
const tag = document.querySelector('script[data-vramfit-wasm]');
const { default: init } = await import(tag.dataset.vramfitJs);
await init({ module_or_path: tag.dataset.vramfitWasm });
dispatchEvent(new CustomEvent('TrunkApplicationStarted'));

// Offline use: once the first result has been painted, the service worker
// (sw.js, beside this file) keeps this release of the site for the next
// visit (the files just loaded come from the browser's HTTP cache where
// the host allows it). updateViaCache 'none': the browser asks the server
// for sw.js itself on every check, so a new release is seen on a visit.
if ('serviceWorker' in navigator) {
  requestAnimationFrame(() =>
    setTimeout(() =>
      navigator.serviceWorker
        .register(new URL('sw.js', import.meta.url), { updateViaCache: 'none' })
        .catch((error) => console.warn('vramfit: no offline copy:', error.message)),
    ),
  );
}
