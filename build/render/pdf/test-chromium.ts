/**
 * Test support: one Chromium for a test file, launched when a test first
 * asks for it, and a work folder; both are gone after the file's tests.
 * `browser` is a BrowserSource, so it goes straight into buildPdf and writePdf.
 */
import { after } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser, type OfflineBrowser } from '../../engine/browser.js';

export function chromiumForTests(prefix: string): { work: string; browser: () => Promise<OfflineBrowser> } {
  const work = mkdtempSync(join(tmpdir(), prefix));
  let launched: Promise<OfflineBrowser> | undefined;
  after(async () => {
    await (await launched?.catch(() => undefined))?.close();
    rmSync(work, { recursive: true, force: true });
  });
  return { work, browser: () => (launched ??= launchBrowser()) };
}
