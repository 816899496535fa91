/** Helpers of the convention tests: a text through parseSource as a user's file, and its import report. */
import type { ConventionOverrides, SourceFormat } from '../tree/edition.js';
import { parseSource, workTitle, type ParsedSource } from './index.js';
import { importReport, type ImportReport } from './import-report.js';
import { fileOf } from './test-helpers.js';

export function parsed(text: string, options: { format?: SourceFormat; conventions?: ConventionOverrides; path?: string } = {}): ParsedSource {
  return parseSource(fileOf(text, options.path ?? 'own.txt'), '', { format: options.format, conventions: options.conventions });
}

export function reportOf(source: ParsedSource): ImportReport {
  return importReport({ source, title: workTitle([source]), messages: source.file.messages });
}

/** 三國志-like: 〔N〕 markers, then the 〔N〕 paragraphs of a later commentary. */
export const NUMBERED = [
  '# 某志',
  '',
  '## 卷一 某紀第一',
  '',
  '　　某者，某郡人也。〔一〕少有大志，〔二〕好讀書。',
  '',
  '　　〔一〕　某書曰：某郡在河南。',
  '',
  '　　〔二〕　某傳曰：某少時不治產業，好讀書。',
  '',
  '　　及長，仕郡為吏。〔一〕',
  '',
  '　　〔一〕　臣某案：吏，郡吏也。',
  '',
].join('\n');

