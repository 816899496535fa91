/**
 * The faces each role of an edition's text is set in: the template's
 * (styles/layers.json `fonts`: the 四庫 template's main text in TW-Kai), each
 * role the edition's `fonts:` names replaced by its own list. A role is
 * `main` (the text, the 版心 and everything without a face of its own),
 * `label` (labels the source prints) or a layer id (zhu, shu, meipi, cepi …).
 * Every role's faces stand in front of the main text's, and those in front
 * of the default stack (editionFonts), so each character falls back to a
 * face that has it. Pure.
 */
import { templateFonts } from '../tree/layer-style.js';
import { nameTable } from '../tree/append.js';
import type { FontOverrides } from '../tree/edition.js';

export const MAIN_ROLE = 'main';

/** Role → its faces (as edition.yaml writes them), the template's overlaid by the edition's. */
export function fontRoles(template: string, given: FontOverrides = {}): Record<string, string[]> {
  const roles = nameTable<string[]>();
  for (const [role, list] of Object.entries(templateFonts(template))) roles[role] = [...list];
  for (const [role, list] of Object.entries(given)) if (list) roles[role] = [...list];
  return roles;
}

/** The faces of the main text (an edition's `fonts.main`, else its template's), in front of the default stack. */
export function mainFaces(edition: { meta: { template: string }; fonts: FontOverrides }): string[] {
  return fontRoles(edition.meta.template, edition.fonts)[MAIN_ROLE] ?? [];
}

/** The roles with faces of their own besides the main text, each as the entries of its stack: its faces, then the main text's. */
export function otherRoleFaces(edition: { meta: { template: string }; fonts: FontOverrides }): Array<{ role: string; faces: string[] }> {
  const roles = fontRoles(edition.meta.template, edition.fonts);
  const main = roles[MAIN_ROLE] ?? [];
  return Object.keys(roles)
    .filter((role) => role !== MAIN_ROLE && roles[role].length > 0)
    .sort()
    .map((role) => ({ role, faces: [...roles[role], ...main] }));
}
