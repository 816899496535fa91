/**
 * Progress per volume on a terminal (cli-progress), nothing otherwise: logs
 * and CI get the result lines only.
 */
import cliProgress from 'cli-progress';
import type { VolumeProgress } from '../engine/build.js';
import { forTerminal } from './terminal.js';

export function volumeProgress(label: string, stream: NodeJS.WriteStream = process.stderr): VolumeProgress | undefined {
  if (!stream.isTTY) return undefined;
  let bar: cliProgress.SingleBar | undefined;
  return (done, total, title = '') => {
    if (!bar) {
      bar = new cliProgress.SingleBar(
        { stream, format: `${forTerminal(label)} [{bar}] {value}/{total} {title}`, hideCursor: true, clearOnComplete: true },
        cliProgress.Presets.shades_classic,
      );
      bar.start(total, 0, { title: '' });
    }
    bar.update(done, { title: forTerminal(title) });
    if (done >= total) bar.stop();
  };
}
