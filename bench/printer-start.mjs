/**
 * The least a new `diaoban build` process pays before it can print a page:
 * Node, the engine's printing modules (compiled, lib/), Chromium launched
 * and one tab with the page shell and Paged.js ready, then closed — printing
 * nothing. bench/rebuild-cold.ts times it beside the cold rebuilds: no cold
 * rebuild that prints can cost less.
 */
const { launchBrowser } = await import('../lib/engine/browser.js');
const { warmPrinter } = await import('../lib/engine/pdf.js');
const browser = await launchBrowser();
await warmPrinter(browser, { title: '禮經本義', author: '蔡德晉', language: 'zh-Hant' }, 1);
await browser.close();
