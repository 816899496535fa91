/**
 * Fault injection for the tests: DIAOBAN_KILL_AT=<point> makes the build kill
 * itself (SIGKILL, as a power cut or the OOM killer would) when it reaches
 * that point, and DIAOBAN_STOP_AT=<point> stops it there (SIGSTOP, as a
 * stalled machine would) until the test sends SIGCONT. Unset, nothing happens.
 */
export function killPoint(name: string): void {
  if (process.env.DIAOBAN_KILL_AT === name) process.kill(process.pid, 'SIGKILL');
  if (process.env.DIAOBAN_STOP_AT === name) process.kill(process.pid, 'SIGSTOP');
}
