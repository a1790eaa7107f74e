// vramfit's service worker: keeps one release of the site's own files so
// that a second visit works with the network off.
//
// The build writes the release into this file (scripts/sw-release.mjs, a
// Trunk post_build hook): every file of the site with its Subresource
// Integrity hash, and an id derived from them. A new release is therefore a
// different sw.js, which the browser finds on a visit (boot.js registers
// it with updateViaCache 'none') and installs beside the running one.
//
// One page, one release. Every page is served from one release's cache:
// its HTML and every file it loads, never a mix of two releases.
// - Install copies the whole release into a cache named after its id,
//   each file checked against its hash (a stale or half-deployed file on
//   the server fails the install: the running release stays, untouched).
// - The HTML and the release's files are answered from that cache first,
//   never the network: a page is the release of the worker that served it.
//   (Network-first HTML would mix a new page with the old cached loader
//   whenever the server has a release the worker has not installed yet.)
// - A new release waits while pages of the old one are open. When the
//   person reloads the last such page, the worker answers that navigation
//   with a page that hands over to the new release and reloads as soon as
//   the new worker has taken it, which then serves the reloaded page
//   entirely. So a
//   release is taken one reload after it was first seen. (A worker cannot
//   tell a reload from a new tab opened beside one open page: that page
//   is handed over too. It keeps running the code it loaded; the app asks
//   the site for nothing after it has started.)
// - Activation deletes every other release's cache of this scope.
// - Anything else (the Hugging Face Hub, ?hub= mirrors, other files) is
//   left to the network and never stored: the Hub keeps its own message
//   when offline.

// Written by scripts/sw-release.mjs (which also drops whole-line comments
// such as this one from the built file); `null` here means this file was
// served unbuilt, and the worker refuses to install.
const RELEASE = null;

const SCOPE = self.registration.scope;
// Every release cache of this scope starts with PREFIX (several copies of
// the site on one origin keep theirs apart).
const PREFIX = `vramfit ${SCOPE} `;
const CACHE = PREFIX + (RELEASE ? RELEASE.id : 'unbuilt');
// The HTML is stored under the scope's own address, which is what a
// navigation asks for (a host may redirect /index.html to /).
const SHELL = SCOPE;
const INTEGRITY = new Map(
  (RELEASE ? RELEASE.files : []).map(([path, integrity]) => [
    path === 'index.html' ? SHELL : new URL(path, SCOPE).href,
    integrity,
  ]),
);

self.addEventListener('install', (event) => {
  event.waitUntil(
    precache().catch(async (error) => {
      await caches.delete(CACHE);
      throw error;
    }),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      // Refills anything missing (an older worker's clean-up may have
      // removed this cache while it was being filled).
      await precache();
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      // Pages opened before any worker existed (a first visit) are taken
      // too; they were loaded from the server moments before.
      await self.clients.claim();
    })(),
  );
});

// The running worker asks this one to take over (see `navigate`).
self.addEventListener('message', (event) => {
  if (event.data === 'take-over' && event.source instanceof ServiceWorker) self.skipWaiting();
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (!RELEASE || request.method !== 'GET') return;
  const url = new URL(request.url);
  url.hash = '';
  if (request.mode === 'navigate') {
    // The page, whatever its query (?hub=) or fragment (#s=).
    url.search = '';
    if (url.href === SHELL || url.href === `${SHELL}index.html`) event.respondWith(navigate());
    return;
  }
  if (INTEGRITY.has(url.href)) event.respondWith(fromCache(url.href, request));
});

/** Copies the release into CACHE, every file checked; keeps what is there. */
async function precache() {
  if (!RELEASE) throw new Error('sw.js was served unbuilt (no release): not installing');
  const cache = await caches.open(CACHE);
  await Promise.all(
    [...INTEGRITY].map(async ([url, integrity]) => {
      if (await cache.match(url)) return;
      await cache.put(url, await fetchChecked(url, integrity));
    }),
  );
}

/**
 * The file at `url` if it is this release's: from the browser's HTTP cache
 * when that holds the right bytes (a first visit has just downloaded them),
 * else from the server. Rejects on a wrong hash or an error status.
 */
async function fetchChecked(url, integrity) {
  let response;
  try {
    response = await fetch(url, { integrity, cache: 'default', credentials: 'same-origin' });
  } catch {
    response = await fetch(url, { integrity, cache: 'reload', credentials: 'same-origin' });
  }
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  // A redirected answer may not answer a navigation: store the body alone.
  if (response.redirected) {
    response = new Response(await response.blob(), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }
  return response;
}

async function fromCache(url, request) {
  const cached = await caches.open(CACHE).then((cache) => cache.match(url));
  return cached ?? fetch(request);
}

// The hand-over page reloads once the new release's worker is active (it
// claims the page, or the registration shows it activated), so that the
// reload is that worker's; after three seconds at the latest (no take-over
// came: this release serves it again). It must not reload at once: a page
// that reloads itself in a loop keeps this worker busy with navigations,
// and a worker that skips waiting is activated only when the running one
// has no pending events (the Service Worker specification's Try Activate).
// location.reload(), not a meta refresh: a refresh to an address with a
// fragment (#s=) is a jump within the page, not a load.
const HAND_OVER =
  '<!DOCTYPE html><meta charset="utf-8"><script>' +
  'let gone = false;' +
  'const go = () => { if (!gone) { gone = true; location.reload(); } };' +
  'const sw = navigator.serviceWorker;' +
  "sw.addEventListener('controllerchange', go);" +
  'const check = async () => {' +
  '  const r = await sw.getRegistration().catch(() => null);' +
  "  if (!r || (!r.waiting && r.active && r.active.state === 'activated')) go();" +
  '  else if (!gone) setTimeout(check, 50);' +
  '};' +
  'check();' +
  'setTimeout(go, 3000);' +
  '</script>';

/** The page: this release's, or a hand-over to a waiting release. */
async function navigate() {
  const waiting = self.registration.waiting;
  if (waiting) {
    // The page being reloaded is still open while its successor is asked
    // for: one open page means the last page of this release is reloading.
    const pages = await self.clients.matchAll({ type: 'window' });
    if (pages.length <= 1) {
      waiting.postMessage('take-over');
      return new Response(HAND_OVER, {
        headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
      });
    }
  }
  return fromCache(SHELL, SHELL);
}
