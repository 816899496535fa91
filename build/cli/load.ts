/**
 * The I/O edge of parse + transform: reads an edition folder (or a lone source
 * file) into VFiles and runs the pure stages over them.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { VFile } from 'vfile';
import type { VFileMessage } from 'vfile-message';
import type { EditionConfig, SourceFormat } from '../tree/edition.js';
import type { Root } from '../tree/types.js';
import { defaultEdition, parseCharmap, parseEdition, parseEditionYaml, type ParsedSource } from '../parse/index.js';
import { parseCorrections } from '../transform/corrections.js';
import { transformTree } from '../transform/index.js';

export interface LoadedEdition {
  /** Null when edition.yaml is unusable; `messages` say why. */
  config: EditionConfig | null;
  /** The tree after transform (target script, layers, charmap, corrections). */
  tree: Root;
  /** The tree as parsed, in the source script: what the fidelity test compares with the sources. */
  parsed: Root;
  sources: ParsedSource[];
  files: VFile[];
  messages: VFileMessage[];
}

export interface LoadOptions {
  format?: SourceFormat;
  /** Skip the transform stage (script conversion …). */
  raw?: boolean;
}

/** Reads a file as a VFile with its path relative to `base` (as messages show it). */
async function readVFile(file: string, base: string, asText: boolean): Promise<VFile> {
  const bytes = await readFile(file);
  return new VFile({ path: path.relative(base, file) || path.basename(file), value: asText ? bytes.toString('utf8') : new Uint8Array(bytes) });
}

function missingFile(base: string, name: string, what: string): VFile {
  const file = new VFile({ path: path.relative(process.cwd(), path.join(base, name)) });
  const message = file.message(`${what} ${name} does not exist; check the name in edition.yaml`, { ruleId: 'file-missing', source: 'diaoban' });
  message.fatal = true;
  return file;
}

const EMPTY_ROOT = (config: EditionConfig): Root => ({ type: 'root', edition: config.meta, children: [] });

export async function loadEdition(target: string, options: LoadOptions = {}): Promise<LoadedEdition> {
  const info = await stat(target);
  const cwd = process.cwd();
  const files: VFile[] = [];
  let config: EditionConfig | null;
  let sourceFiles: VFile[] = [];
  if (info.isDirectory()) {
    const id = path.basename(path.resolve(target));
    const yamlPath = path.join(target, 'edition.yaml');
    let yamlFile: VFile;
    try {
      yamlFile = await readVFile(yamlPath, cwd, true);
    } catch {
      yamlFile = missingFile(target, 'edition.yaml', 'the edition file');
      files.push(yamlFile);
      const fallback = defaultEdition(id, []);
      return { config: null, tree: EMPTY_ROOT(fallback), parsed: EMPTY_ROOT(fallback), sources: [], files, messages: yamlFile.messages };
    }
    files.push(yamlFile);
    const result = parseEditionYaml(yamlFile, id);
    config = result.config;
    if (config && result.charmapFile) {
      try {
        const charmapFile = await readVFile(path.join(target, result.charmapFile), cwd, true);
        files.push(charmapFile);
        config.charmap = parseCharmap(charmapFile);
      } catch {
        files.push(missingFile(target, result.charmapFile, 'the charmap file'));
      }
    }
    if (config) {
      for (const name of config.sources) {
        try {
          sourceFiles.push(await readVFile(path.join(target, name), cwd, false));
        } catch {
          files.push(missingFile(target, name, 'the source file'));
        }
      }
    }
  } else {
    config = defaultEdition(path.basename(target).replace(/\.[^.]+$/, ''), [path.basename(target)]);
    // A lone file takes its title from its text or metadata (parseEdition), never from its name.
    config.meta.title = '';
    sourceFiles = [await readVFile(target, cwd, false)];
  }
  if (!config) {
    const fallback = defaultEdition(path.basename(path.resolve(target)), []);
    return { config: null, tree: EMPTY_ROOT(fallback), parsed: EMPTY_ROOT(fallback), sources: [], files, messages: files.flatMap((f) => f.messages) };
  }
  const { tree: parsed, sources } = parseEdition(config, sourceFiles, options.format);
  files.push(...sourceFiles);
  let corrections = undefined;
  if (config.corrections && info.isDirectory()) {
    try {
      const correctionsFile = await readVFile(path.join(target, config.corrections), cwd, true);
      files.push(correctionsFile);
      corrections = parseCorrections(correctionsFile);
    } catch {
      files.push(missingFile(target, config.corrections, 'the corrections file'));
    }
  }
  const tree = options.raw ? parsed : transformTree(parsed, config, { corrections, files: sourceFiles });
  return { config, tree, parsed, sources, files, messages: files.flatMap((f) => f.messages) };
}
